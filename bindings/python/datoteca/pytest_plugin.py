"""pytest plugin: `datoteca` fixtures seeded per test, the same from every starting directory.

Each test gets Datoteca(seed=f"{base}:{path}::{name}") where `path` is the test file's path relative
to its project root, found from the test file itself (the nearest directory above it holding
pyproject.toml, setup.cfg, pytest.ini, tox.ini or .git; the file's own directory when there is none),
so a test's data depends only on the base seed and the test, never on the order of tests nor on where
pytest was started (the project root, a subdirectory, an absolute path from elsewhere, an IDE).

The base seed comes from --datoteca-seed, else the DATOTECA_SEED environment variable, else 0; decimal
or hexadecimal (0x10). It is printed in the report header; a failing test's report, a terminal summary
section (printed even with --tb=no) and the JUnit XML property `datoteca_seed` show the seed and a
shell-quoted command that replays the test from any directory.

Fixtures: `datoteca` (per test), its alias `datos` (which does not shadow `import datoteca`),
`datoteca_modulo` (one per test module) and `datoteca_sesion` (one per session), each with its own
seed; override `datoteca_seed` to pin a test's seed yourself.
"""
from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any, Dict, Generator, List, Tuple, Union

import pytest

from . import Datoteca

_DEFAULT_BASE = 0
_MARCAS = ("pyproject.toml", "setup.cfg", "pytest.ini", "tox.ini", ".git")
_RAICES: Dict[Path, Path] = {}
_FALLOS = pytest.StashKey[List[Tuple[str, str, str]]]()


def parse_seed(value: object) -> int:
    """A base seed as the option, the environment variable and the CLI take it: decimal or 0x-hex."""
    text = str(value).strip()
    try:
        seed = int(text[2:], 16) if text[:2].lower() == "0x" else int(text, 10)
    except ValueError:
        raise ValueError(f"must be an integer in [0, 2**64) (decimal or 0x-hexadecimal), got {value!r}") from None
    if not 0 <= seed < 2**64:
        raise ValueError(f"must be an integer in [0, 2**64) (decimal or 0x-hexadecimal), got {value!r}")
    return seed


def _base_seed(config: pytest.Config) -> int:
    value = config.getoption("datoteca_seed", None)
    if value is None:
        env = os.environ.get("DATOTECA_SEED")
        value = env if env else _DEFAULT_BASE
    try:
        return parse_seed(value)
    except ValueError as e:
        raise pytest.UsageError(f"--datoteca-seed / DATOTECA_SEED {e}") from None


def raiz_del_proyecto(archivo: Path) -> Path:
    """The nearest directory above `archivo` with a project marker, or its own directory."""
    d = archivo.parent
    if d in _RAICES:
        return _RAICES[d]
    raiz = next((p for p in (d, *d.parents) if any((p / m).exists() for m in _MARCAS)), d)
    _RAICES[d] = raiz
    return raiz


def _ruta(item: Any) -> Tuple[Path, str]:
    """(project root, the test file's path relative to it, with '/')."""
    archivo = Path(str(item.path)).resolve()
    raiz = raiz_del_proyecto(archivo)
    return raiz, archivo.relative_to(raiz).as_posix()


def id_estable(item: Any) -> str:
    """`path::name[params]` with the path relative to the project root (see the module's doc)."""
    _, rel = _ruta(item)
    nombre = item.nodeid.split("::", 1)[1] if "::" in item.nodeid else item.name
    return f"{rel}::{nombre}"


def comando_replay(item: Any, base: int) -> str:
    """A command that reruns this test with this base seed, pasteable into any shell from anywhere."""
    raiz, rel = _ruta(item)
    nombre = item.nodeid.split("::", 1)[1] if "::" in item.nodeid else item.name
    return f"cd {shlex.quote(str(raiz))} && " + shlex.join(["pytest", f"{rel}::{nombre}", f"--datoteca-seed={base}"])


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("datoteca")
    group.addoption(
        "--datoteca-seed",
        action="store",
        dest="datoteca_seed",
        default=None,
        help="base seed for the datoteca fixtures, decimal or 0x-hex (default: $DATOTECA_SEED or 0)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config._datoteca_base_seed = _base_seed(config)  # type: ignore[attr-defined]
    config.stash[_FALLOS] = []


def pytest_report_header(config: pytest.Config) -> str:
    base = config._datoteca_base_seed  # type: ignore[attr-defined]
    return f"datoteca: base seed {base} (replay with --datoteca-seed={base})"


@pytest.fixture
def datoteca_seed(request: pytest.FixtureRequest) -> Union[int, str]:
    """The seed of this test's `datoteca`: the base seed and the test's root-relative id."""
    return f"{request.config._datoteca_base_seed}:{id_estable(request.node)}"  # type: ignore[attr-defined]


@pytest.fixture
def datoteca(request: pytest.FixtureRequest, datoteca_seed: Union[int, str]) -> Generator[Datoteca, None, None]:
    """A Datoteca seeded for this test alone."""
    request.node._datoteca_seed = datoteca_seed
    request.node.user_properties.append(("datoteca_seed", str(datoteca_seed)))
    yield Datoteca(seed=datoteca_seed)


@pytest.fixture
def datos(datoteca: Datoteca) -> Datoteca:
    """The same instance as `datoteca`, under a name that does not shadow `import datoteca`."""
    return datoteca


@pytest.fixture(scope="module")
def datoteca_modulo(request: pytest.FixtureRequest) -> Datoteca:
    """One Datoteca for the whole test module, seeded by the base seed and the module's path."""
    _, rel = _ruta(request.node)
    return Datoteca(seed=f"{request.config._datoteca_base_seed}:modulo:{rel}")  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def datoteca_sesion(request: pytest.FixtureRequest) -> Datoteca:
    """One Datoteca for the session, seeded by the base seed alone."""
    return Datoteca(seed=f"{request.config._datoteca_base_seed}:sesion")  # type: ignore[attr-defined]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    seed = getattr(item, "_datoteca_seed", None)
    if report.failed and seed is not None:
        base = item.config._datoteca_base_seed  # type: ignore[attr-defined]
        replay = comando_replay(item, base)
        report.sections.append(("datoteca", f"datoteca seed: {seed!r}\nreplay with: {replay}"))
        if report.when == "call" or not any(f[0] == item.nodeid for f in item.config.stash[_FALLOS]):
            item.config.stash[_FALLOS].append((item.nodeid, str(seed), replay))


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    fallos = config.stash.get(_FALLOS, [])
    if not fallos:
        return
    terminalreporter.section("datoteca seeds of the failed tests")
    for nodeid, seed, replay in fallos:
        terminalreporter.write_line(f"{nodeid}: seed {seed!r}")
        terminalreporter.write_line(f"    {replay}")
