"""The two version axes agree everywhere they are written, and follow the contract's rule: a new
data version comes with a new major version (fixtures/data-versions.json), recorded in the
fixtures and in CHANGELOG.md. Each failure names the files and the values that disagree."""
import importlib.metadata
import json
import os
import re

import datoteca
import golden_runner

ROOT = golden_runner.ROOT


def _read(*parts):
    with open(os.path.join(ROOT, *parts), encoding="utf-8") as f:
        return f.read()


HEADER = _read("c", "include", "datoteca.h")


def _define(name):
    m = re.search(rf"^#define {name} (\S+)", HEADER, re.M)
    assert m, f"datoteca.h does not define {name}"
    return m.group(1)


VERSION = ".".join(_define(f"DT_VERSION_{k}") for k in ("MAJOR", "MINOR", "PATCH"))
MAJOR = int(_define("DT_VERSION_MAJOR"))
DATA_VERSION = int(_define("DT_DATA_VERSION"))
TABLE = {int(k): v for k, v in json.loads(_read("fixtures", "data-versions.json"))["first_library_version"].items()}


def test_library_version_is_the_same_in_every_file():
    lock = json.loads(_read("package-lock.json"))
    found = {
        "DT_VERSION_STRING (datoteca.h)": _define("DT_VERSION_STRING").strip('"'),
        "package.json": json.loads(_read("package.json"))["version"],
        "package-lock.json": lock["version"],
        "package-lock.json packages['']": lock["packages"][""]["version"],
        "datoteca.__version__": datoteca.__version__,
        "installed package metadata": importlib.metadata.version("datoteca"),
        "loaded library dt_version()": datoteca.version(),
    }
    wrong = {k: v for k, v in found.items() if v != VERSION}
    assert not wrong, f"the header's DT_VERSION_MAJOR/MINOR/PATCH say {VERSION}; these disagree: {wrong}"


def test_the_python_package_takes_its_version_from_the_header():
    """pyproject.toml declares no version of its own: scikit-build-core reads DT_VERSION_STRING."""
    import tomllib

    project = tomllib.loads(_read("pyproject.toml"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"], "pyproject.toml"
    provider = project["tool"]["scikit-build"]["metadata"]["version"]
    assert provider["input"] == "c/include/datoteca.h" and "DT_VERSION_STRING" in provider["regex"], provider


def test_bindings_expect_the_header_major():
    """The major version a runtime loads is one constant of spec/comun.toml, generated into each."""
    import tomllib

    spec = next(k["valor"] for k in tomllib.loads(_read("spec", "comun.toml"))["constante"] if k["c"] == "DT_ABI_MAJOR")
    py = int(re.search(r"^ABI_MAJOR = (\d+)", _read("bindings", "python", "datoteca", "_comun_gen.py"), re.M).group(1))
    js = int(re.search(r"^const ABI_MAJOR = (\d+);", _read("bindings", "node", "comun.gen.js"), re.M).group(1))
    assert spec == py == js == MAJOR, f"ABI major: spec {spec}, Python {py}, Node {js}, header {MAJOR}"


def test_data_version_is_the_same_in_every_file():
    found = {
        "golden.json": json.loads(_read("fixtures", "golden.json"))["data_version"],
        "fingerprint.json": json.loads(_read("fixtures", "fingerprint.json"))["data_version"],
        "data-versions.json (newest)": max(TABLE),
        "loaded library dt_data_version()": datoteca.data_version(),
    }
    wrong = {k: v for k, v in found.items() if v != DATA_VERSION}
    assert not wrong, f"DT_DATA_VERSION is {DATA_VERSION}; these disagree: {wrong}"


def test_each_data_version_came_with_a_new_major_version():
    assert sorted(TABLE) == list(range(1, len(TABLE) + 1)), f"data versions must run 1, 2, …: {sorted(TABLE)}"
    majors = []
    for data, first in sorted(TABLE.items()):
        assert re.fullmatch(r"\d+\.0\.0", first), f"data version {data}: first library version {first} is not M.0.0"
        majors.append(int(first.split(".")[0]))
    assert majors == sorted(set(majors)), f"each data version needs a newer major version: {TABLE}"
    # A new major version need not change the data (an ABI break), but data never runs ahead of it.
    assert majors[-1] <= MAJOR, (f"data version {DATA_VERSION} belongs to major {majors[-1]} "
                                 f"(data-versions.json), the library is {VERSION}")


def test_changelog_records_the_versions():
    log = _read("CHANGELOG.md")
    assert re.search(rf"^## {re.escape(VERSION)}\b", log, re.M), f"CHANGELOG.md has no '## {VERSION}' section"
    for data, first in TABLE.items():
        assert re.search(rf"^## {re.escape(first)} .*data version {data}\b", log, re.M), (
            f"CHANGELOG.md has no '## {first} — data version {data}' section")


def test_the_fingerprint_was_written_by_this_or_an_older_release():
    written = json.loads(_read("fixtures", "fingerprint.json"))["written_by"]
    as_tuple = lambda v: tuple(int(x) for x in v.split("."))  # noqa: E731
    assert as_tuple(written) <= as_tuple(VERSION), f"fingerprint.json written by {written}, the library is {VERSION}"
