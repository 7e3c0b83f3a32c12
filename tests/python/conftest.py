import os

pytest_plugins = ["pytester"]

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
