import os

import pytest

pytest_plugins = ["pytester"]

# What `make check` leaves to `make test` (-m "not lento"), and why each may wait: every value they judge
# is also pinned by the golden dataset and the call digests, which make check runs, so a change of any
# value fails there first; these judge the values themselves by outside tools or at scale, which matters
# when values are meant to change (docs/testing.md, "make check").
LENTOS = {
    "test_validadores.py": "every call's values through python-stdnum, phonenumbers and email-validator",
    "test_sucios.py": "every dirty value cleaned back by outside cleaners",
    "test_invalidos.py": "every invalid value refused by outside validators for its stated reason",
    "test_remuneraciones.py": "payslips recomputed from official figures",
    "test_enmascarar_enlace.py": "the linkage attacks on 20,000 masked rows",
    "test_graficos.py": "the charts of docs/data.md drawn afresh",
    "test_tabla.py::test_ten_million_unique_personas_from_the_cli": "10,000,000 rows through a mod-11 in the test",
}

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def pytest_terminal_summary(terminalreporter):
    from props import RAN, REGISTRY

    if RAN:
        py = {n: s for n, s in REGISTRY.items() if "python" in s["languages"]}
        total = sum(s["iterations"] for s in py.values())
        ran = sum(RAN.values())
        terminalreporter.write_line(
            f"property suites: {len(RAN)} of {len(py)} registered Python suites ran {ran} of {total} registered iterations"
        )


def pytest_configure(config):
    config.addinivalue_line("markers", "lento: left out by make check, run by make test (conftest.LENTOS says why)")


def pytest_collection_modifyitems(config, items):
    for item in items:
        archivo = os.path.basename(str(item.fspath))
        if archivo in LENTOS or f"{archivo}::{item.name}" in LENTOS:
            item.add_marker(pytest.mark.lento)
