"""pytest plugin: a `datoteca` fixture seeded per test.

Each test gets Datoteca(seed=f"{base}:{nodeid}"), so its data depends only on the base
seed and its own id, never on which tests ran before it. The base seed comes from
--datoteca-seed, else the DATOTECA_SEED environment variable, else 0. It is printed in the
report header, and a failing test's report shows the seed and the flag that replays it.
Override the `datoteca_seed` fixture to pin a seed yourself.
"""
from __future__ import annotations

import os
from typing import Any, Generator, Union

import pytest

from . import Datoteca

_DEFAULT_BASE = 0


def _base_seed(config: pytest.Config) -> int:
    value = config.getoption("datoteca_seed", None)
    if value is None:
        env = os.environ.get("DATOTECA_SEED")
        value = env if env else _DEFAULT_BASE
    try:
        seed = int(value)
    except (TypeError, ValueError):
        raise pytest.UsageError(f"--datoteca-seed / DATOTECA_SEED must be an integer in [0, 2**64), got {value!r}")
    if not 0 <= seed < 2**64:
        raise pytest.UsageError(f"--datoteca-seed / DATOTECA_SEED must be an integer in [0, 2**64), got {seed}")
    return seed


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("datoteca")
    group.addoption(
        "--datoteca-seed",
        action="store",
        dest="datoteca_seed",
        default=None,
        help="base seed for the datoteca fixture (default: $DATOTECA_SEED or 0)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config._datoteca_base_seed = _base_seed(config)  # type: ignore[attr-defined]


def pytest_report_header(config: pytest.Config) -> str:
    base = config._datoteca_base_seed  # type: ignore[attr-defined]
    return f"datoteca: base seed {base} (replay with --datoteca-seed={base})"


@pytest.fixture
def datoteca_seed(request: pytest.FixtureRequest) -> Union[int, str]:
    """The seed of this test's `datoteca`: the base seed and the test's node id."""
    return f"{request.config._datoteca_base_seed}:{request.node.nodeid}"  # type: ignore[attr-defined]


@pytest.fixture
def datoteca(request: pytest.FixtureRequest, datoteca_seed: Union[int, str]) -> Generator[Datoteca, None, None]:
    """A Datoteca seeded for this test alone."""
    request.node._datoteca_seed = datoteca_seed
    yield Datoteca(seed=datoteca_seed)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    seed = getattr(item, "_datoteca_seed", None)
    if report.failed and seed is not None:
        base = item.config._datoteca_base_seed  # type: ignore[attr-defined]
        report.sections.append(
            ("datoteca", f"datoteca seed: {seed!r}\nreplay with: pytest {item.nodeid!s} --datoteca-seed={base}")
        )
