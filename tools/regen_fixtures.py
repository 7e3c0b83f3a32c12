#!/usr/bin/env python3
"""Write fixtures/golden.json and fixtures/fingerprint.json. RUN BY HAND ONLY: no test, no
make target and no CI job runs it, and it refuses to run where CI is set.

    make venv && .venv/bin/python tools/regen_fixtures.py

It replays the golden sequence and digests every table and call through the installed Python
binding (rebuild it first: `make venv`), compares with the fixtures, and writes them only when
the change follows the contract (docs/determinism.md, "Changing the data"):

- Every existing value, stream position, table digest, call digest, dataset and shipped schema
  unchanged, only new ones added (a call appended to the golden sequence, a new table, a new
  schema in esquemas/): an additive change. A shipped schema may still be revised while the
  library version that first recorded it is unreleased: that is listed with the additions. The data
  version stays; the library version must be newer than the one that wrote the fingerprint,
  and CHANGELOG.md must have a section for it, unless that section is still unreleased (then the
  additions join it).
- Anything existing changed: a contract change. DT_DATA_VERSION must be the recorded one plus
  one; fixtures/data-versions.json must map it to "M.0.0" where M is DT_VERSION_MAJOR and newer
  than the previous data version's major; CHANGELOG.md must have a "## M.0.0" section whose
  heading names "data version N" and which lists what changed.
- Anything existing changed within an unreleased data version (its CHANGELOG heading says
  "unreleased"): later changes of the same round stay in that data version and add their lines to
  its section. Releasing it is removing that word; from then on its data is fixed.

The masking contract, fixtures/mascara.json, follows the same rules with its own version
(DT_MASCARA_VERSION, the mapping version): the hand-written cases of tests/mascara/casos.json are
masked under the published test key; a case added is an addition; a recorded case whose output
changed is a mapping change, allowed only with DT_MASCARA_VERSION the recorded one plus one and a
major version newer than the one that first shipped the recorded mapping (or while the case's first
library version is still unreleased: a revision). A new mapping version stays open while the library
version that introduced it is unreleased: later changes of the same round are revisions of it, not yet
another mapping version. A recorded case is never edited or removed.

After it writes, read the whole diff (git diff fixtures/) and review the values.
"""
from __future__ import annotations

import json
import os
import re
import sys
from typing import Any, Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))

import golden_runner as gr  # noqa: E402
import mascara_runner as mr  # noqa: E402

HEADER = os.path.join(ROOT, "c", "include", "datoteca.h")
CHANGELOG = os.path.join(ROOT, "CHANGELOG.md")
DATA_VERSIONS = os.path.join(ROOT, "fixtures", "data-versions.json")


class Refusal(Exception):
    pass


def header_versions(path: str = HEADER) -> Tuple[int, str]:
    """(DT_DATA_VERSION, DT_VERSION_STRING) as the header declares them."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    data = re.search(r"^#define DT_DATA_VERSION (\d+)\s*$", text, re.M)
    version = re.search(r'^#define DT_VERSION_STRING "([0-9.]+)"\s*$', text, re.M)
    if not data or not version:
        raise Refusal(f"{path}: cannot read DT_DATA_VERSION and DT_VERSION_STRING")
    return int(data.group(1)), version.group(1)


def version_tuple(v: str) -> Tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def changelog_section(version: str, path: str = CHANGELOG) -> Optional[Tuple[str, List[str]]]:
    """(heading, bullet lines) of the '## VERSION' section, or None."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines):
        if re.match(rf"^## {re.escape(version)}(\s|$)", line):
            body = []
            for rest in lines[i + 1:]:
                if rest.startswith("## "):
                    break
                if rest.lstrip().startswith("- "):
                    body.append(rest)
            return line, body
    return None


def compare(old_golden: Dict[str, Any], new_golden: Dict[str, Any],
            old_fp: Optional[Dict[str, Any]], new_fp: Dict[str, Any]) -> Tuple[List[str], List[str]]:
    """(what changed, what was added) between the recorded fixtures and this run."""
    changed: List[str] = []
    added: List[str] = []
    if old_golden["hoy"] != new_golden["hoy"]:
        changed.append(f"hoy {old_golden['hoy']} -> {new_golden['hoy']}")
    new_runs = {r["seed"]: r["values"] for r in new_golden["runs"]}
    for run in old_golden["runs"]:
        values = new_runs.get(run["seed"])
        if values is None:
            changed.append(f"golden: seed {run['seed']} is gone")
            continue
        for i, old in enumerate(run["values"]):
            where = f"golden: seed {run['seed']}, call {i + 1} ({old['call']})"
            new = values[i] if i < len(values) else None
            if new is None or new["call"] != old["call"]:
                changed.append(f"{where}: the sequence now has {new['call'] if new else 'nothing'} here")
            elif new["value"] != old["value"]:
                changed.append(f"{where}: {json.dumps(old['value'], ensure_ascii=False)} -> {json.dumps(new['value'], ensure_ascii=False)}")
            elif "draws" in old and new["draws"] != old["draws"]:
                changed.append(f"{where}: {old['draws']} draws -> {new['draws']}")
            elif "draws" not in old:
                added.append(f"{where}: stream position recorded ({new['draws']} draws)")
        if len(values) > len(run["values"]):
            added.append(f"golden: seed {run['seed']}: calls {len(run['values']) + 1}..{len(values)} appended")
    for seed in new_runs:
        if seed not in {r["seed"] for r in old_golden["runs"]}:
            added.append(f"golden: seed {seed} added")
    if old_fp is None:
        added.append("fingerprint.json created")
        return changed, added
    if old_fp["values_per_call"] != new_fp["values_per_call"]:
        changed.append(f"values_per_call {old_fp['values_per_call']} -> {new_fp['values_per_call']}")
    new_tables = {t["table"]: t for t in new_fp["tables"]}
    for t in old_fp["tables"]:
        n = new_tables.get(t["table"])
        if n is None:
            changed.append(f"table {t['table']} is gone")
        elif (n["rows"], n["digest"]) != (t["rows"], t["digest"]):  # its place in the listing is not data
            changed.append(f"table {t['table']}: {t['rows']} rows {t['digest']} -> {n['rows']} rows {n['digest']}")
    for name in new_tables:
        if name not in {t["table"] for t in old_fp["tables"]}:
            added.append(f"table {name} added")

    def runs(fp: Dict[str, Any]) -> Dict[Tuple[str, str, str], Tuple[str, int]]:
        return {(e["call"], json.dumps(e["args"], sort_keys=True), r["seed"]): (r["sha256"], r["draws"])
                for e in fp["calls"] for r in e["runs"]}

    old_runs, new_calls = runs(old_fp), runs(new_fp)
    for key, value in old_runs.items():
        if key not in new_calls:
            changed.append(f"call digest {key[0]} {key[1]} seed {key[2]} is gone")
        elif new_calls[key] != value:
            changed.append(f"call digest {key[0]} {key[1]} seed {key[2]}: {value[0][:12]}… {value[1]} draws -> "
                           f"{new_calls[key][0][:12]}… {new_calls[key][1]} draws")
    for key in new_calls:
        if key not in old_runs:
            added.append(f"call digest {key[0]} {key[1]} seed {key[2]} added")

    def cases(fp: Dict[str, Any]) -> Dict[str, Dict[str, Any]]:
        return {gr.case_label(e): e for e in fp.get("datasets", [])}

    old_cases, new_cases = cases(old_fp), cases(new_fp)
    for label, e in old_cases.items():
        n = new_cases.get(label)
        if n is None:
            changed.append(f"dataset {label} is gone")
        elif n != e:
            changed.append(f"dataset {label}: " + "; ".join(
                f"rows from {s['desde']}: {s['fnv1a64']} -> {t['fnv1a64']}" for s, t in zip(e["slices"], n["slices"]) if s != t)
                + (f"; capacity {e.get('capacity')} -> {n.get('capacity')}" if e.get("capacity") != n.get("capacity") else ""))
    for label in new_cases:
        if label not in old_cases:
            added.append(f"dataset {label} added")
    compare_esquemas(old_fp, new_fp, changed, added)
    return changed, added


def compare_esquemas(old_fp: Dict[str, Any], new_fp: Dict[str, Any], changed: List[str], added: List[str]) -> None:
    """The shipped schemas, as datasets: a schema or a table added is an addition; a recorded table's
    rows or slices, or a recorded schema's file, changed is a change. Except while the library version
    that first recorded the schema (its "since") is the current one and unreleased: a schema's output
    is fixed from the release that ships it, so until then a revision is listed with the additions.
    The recorded "since" is carried into new_fp."""
    old = {e["esquema"]: e for e in old_fp.get("esquemas", [])}
    version = new_fp["written_by"]
    for e in new_fp.get("esquemas", []):
        o = old.get(e["esquema"])
        if o is None:
            added.append(f"esquema {e['esquema']} added ({len(e['tablas'])} tables)")
            continue
        e["since"] = o["since"]
        found: List[str] = []
        if o["sha256"] != e["sha256"]:
            found.append(f"esquema {e['esquema']}: the file changed (sha256 {o['sha256'][:12]}… -> {e['sha256'][:12]}…)")
        if o["seed"] != e["seed"]:
            found.append(f"esquema {e['esquema']}: seed {o['seed']} -> {e['seed']}")
        new_tablas = {t["tabla"]: t for t in e["tablas"]}
        new_names = []
        for t in o["tablas"]:
            n = new_tablas.get(t["tabla"])
            where = f"esquema {e['esquema']}, table {t['tabla']}"
            if n is None:
                found.append(f"{where} is gone")
            elif n["filas"] != t["filas"]:
                found.append(f"{where}: {t['filas']} rows -> {n['filas']}")
            elif n["slices"] != t["slices"]:
                found.append(f"{where}: " + "; ".join(
                    f"rows from {a['desde']}: {a['fnv1a64']} -> {b['fnv1a64']}" for a, b in zip(t["slices"], n["slices"]) if a != b))
        for name in new_tablas:
            if name not in {t["tabla"] for t in o["tablas"]}:
                new_names.append(f"esquema {e['esquema']}, table {name} added")
        added.extend(new_names)
        if found and o["since"] == version and unreleased_version(version):
            added.extend(f"{line} (revised: the schema was first recorded by {version}, still unreleased)" for line in found)
        else:
            changed.extend(found)
    for name in old:
        if name not in {e["esquema"] for e in new_fp.get("esquemas", [])}:
            changed.append(f"esquema {name} is gone (a shipped schema recorded by {old[name]['since']})")


def unreleased_version(version: str) -> bool:
    """True while the CHANGELOG section of a library version says "unreleased"."""
    section = changelog_section(version)
    return bool(section and re.search(r"\bunreleased\b", section[0], re.I))


def unreleased(data_version: int) -> bool:
    """True while the CHANGELOG section of the data version's first library version says "unreleased"."""
    with open(DATA_VERSIONS, encoding="utf-8") as f:
        first = json.load(f)["first_library_version"].get(str(data_version))
    section = changelog_section(first) if first else None
    return bool(section and re.search(r"\bunreleased\b", section[0], re.I))


def check_additive(data_version: int, version: str, old_fp: Optional[Dict[str, Any]]) -> None:
    written_by = old_fp.get("written_by") if old_fp else None
    section = changelog_section(version)
    if written_by == version and section and re.search(r"\bunreleased\b", section[0], re.I):
        print(f"{version} is unreleased (its CHANGELOG heading says so): calls and tables may still be added "
              f"to it; add their lines to that section")
        return
    if written_by and version_tuple(version) <= version_tuple(written_by):
        raise Refusal(f"the fixtures were written by {written_by} and the library is still {version}: an "
                      f"added call or table is a new minor version; bump DT_VERSION_MINOR (and the packages)")
    section = changelog_section(version)
    if section is None or not section[1]:
        raise Refusal(f"CHANGELOG.md has no '## {version}' section listing what was added")


def check_contract_change(recorded: int, data_version: int, version: str) -> None:
    if data_version == recorded:
        raise Refusal(f"existing data changed but DT_DATA_VERSION is still {recorded}. If the change was not "
                      f"intended it is a regression: fix its cause. If it was, bump DT_DATA_VERSION to "
                      f"{recorded + 1} and the major version, and write it in CHANGELOG.md")
    if data_version != recorded + 1:
        raise Refusal(f"the fixtures record data version {recorded}; the next one is {recorded + 1}, "
                      f"the header says {data_version}")
    with open(DATA_VERSIONS, encoding="utf-8") as f:
        table = json.load(f)["first_library_version"]
    first = table.get(str(data_version))
    major = version_tuple(version)[0]
    previous = version_tuple(table[str(recorded)])[0] if str(recorded) in table else 0
    if first is None:
        raise Refusal(f"fixtures/data-versions.json has no entry for data version {data_version}: "
                      f"add \"{data_version}\": \"{major}.0.0\" (its first library version)")
    if first != f"{major}.0.0" or major <= previous:
        raise Refusal(f"data version {data_version} needs a new major version: data version {recorded} came "
                      f"with major {previous}, the library is {version} and fixtures/data-versions.json "
                      f"says {first}; bump DT_VERSION_MAJOR to {previous + 1} (and the packages)")
    section = changelog_section(first)
    if section is None or not re.search(rf"data version {data_version}\b", section[0]) or not section[1]:
        raise Refusal(f"CHANGELOG.md needs a section '## {first} — data version {data_version}' that lists "
                      f"what data changed")


def header_mascara_version(path: str = HEADER) -> int:
    with open(path, encoding="utf-8") as f:
        m = re.search(r"^#define DT_MASCARA_VERSION ([0-9]+)\s*$", f.read(), re.M)
    if not m:
        raise Refusal("c/include/datoteca.h has no DT_MASCARA_VERSION")
    return int(m.group(1))


def mascara_stage(version: str) -> Optional[str]:
    """The new text of fixtures/mascara.json, or None when it already records these outputs; raises
    Refusal when the change breaks the masking contract (see the module's docstring)."""
    mapping = header_mascara_version()
    casos = mr.load_casos()
    old = mr.load_fixture() if os.path.exists(mr.FIXTURE) else None
    if old is None:
        new = mr.fixture(casos, version, mapping, {}, {str(mapping): version})
        print(f"masking: {len(casos)} cases recorded for the first time (mapping version {mapping})")
        return mr.canonical(new)
    recorded = old["mascara_version"]
    names = [c["nombre"] for c in casos]
    if len(set(names)) != len(names):
        raise Refusal("tests/mascara/casos.json names a case twice")
    by_name = {c["nombre"]: c for c in casos}
    for o in old["casos"]:
        c = by_name.get(o["nombre"])
        if c is None:
            raise Refusal(f"masking case {o['nombre']} (recorded by {o['since']}) is gone from tests/mascara/casos.json: "
                          f"a recorded case is never removed")
        for k in ("reglas", "columnas", "filas"):
            if c[k] != o[k]:
                raise Refusal(f"masking case {o['nombre']}: its {k} were edited; a recorded case is never edited, "
                              f"a new situation is a new case")
    first = dict(old["primera_version"])
    if mapping != recorded:
        if mapping != recorded + 1:
            raise Refusal(f"fixtures/mascara.json records mapping version {recorded}; the next one is {recorded + 1}, "
                          f"the header says {mapping}")
        major = version_tuple(version)[0]
        if major <= version_tuple(first[str(recorded)])[0]:
            raise Refusal(f"mapping version {mapping} needs a new major version: mapping version {recorded} came with "
                          f"{first[str(recorded)]}, the library is {version}")
        section = changelog_section(version)
        if section is None or not re.search(rf"mapping version {mapping}\b", "\n".join([section[0]] + section[1])):
            raise Refusal(f"CHANGELOG.md needs a '## {version}' section that names mapping version {mapping} and "
                          f"lists what changed")
        first[str(mapping)] = version
    # The recorded mapping version is still open: introduced by this library version, not yet released.
    mapping_abierto = (mapping == recorded and first.get(str(mapping)) == version and mapping > 1
                       and unreleased_version(version))
    since = {o["nombre"]: o["since"] for o in old["casos"]}
    new = mr.fixture(casos, version, mapping, since, first)
    changed: List[str] = []
    revised: List[str] = []
    for o, n in zip(old["casos"], new["casos"]):
        diffs = [f"masking case {o['nombre']}, row {r}: {a} -> {b}"
                 for r, (a, b) in enumerate(zip(o["salida"]["filas"], n["salida"]["filas"]), start=1) if a != b]
        if o["salida"]["columnas"] != n["salida"]["columnas"]:
            diffs.insert(0, f"masking case {o['nombre']}: columns {o['salida']['columnas']} -> {n['salida']['columnas']}")
        if diffs and o["since"] == version and unreleased_version(version):
            revised.extend(f"{d} (revised: first recorded by {version}, still unreleased)" for d in diffs)
        elif diffs and mapping_abierto:
            revised.extend(f"{d} (revised: mapping version {mapping} came with {version}, still unreleased)"
                           for d in diffs)
        else:
            changed.extend(diffs)
    added = [f"masking case {c['nombre']} added" for c in casos if c["nombre"] not in since]
    for line in (changed + revised + added)[:40]:
        print(line)
    if changed and mapping == recorded:
        raise Refusal(f"{len(changed)} recorded masking outputs changed: that is a new mapping version "
                      f"(DT_MASCARA_VERSION {recorded + 1}) and a new major version, named in CHANGELOG.md")
    if not changed and mapping != recorded:
        raise Refusal(f"DT_MASCARA_VERSION is {mapping} but no recorded output changed")
    if added and not changed and not revised and old["written_by"] != version:
        if version_tuple(version) <= version_tuple(old["written_by"]):
            raise Refusal(f"fixtures/mascara.json was written by {old['written_by']} and the library is still "
                          f"{version}: an added masking case is a new minor version")
    text = mr.canonical(new)
    with open(mr.FIXTURE, encoding="utf-8") as f:
        return None if f.read() == text else text


def main() -> int:
    if os.environ.get("CI"):
        print("refusing: tools/regen_fixtures.py is run by hand, never in CI", file=sys.stderr)
        return 2
    data_version, version = header_versions()
    old_golden = gr.load(gr.GOLDEN)
    old_fp = gr.load(gr.FINGERPRINT) if os.path.exists(gr.FINGERPRINT) else None
    recorded = old_golden["data_version"]
    try:
        # A new data version is declared in the header: its rules need no library, check them first.
        if data_version != recorded:
            check_contract_change(recorded, data_version, version)
    except Refusal as why:
        print(f"refusing: {why}", file=sys.stderr)
        return 1

    import datoteca

    if (datoteca.data_version(), datoteca.version()) != (data_version, version):
        print(f"refusing: the loaded library is {datoteca.version()} / data version {datoteca.data_version()}, "
              f"the header says {version} / {data_version}: rebuild and reinstall it (make venv)", file=sys.stderr)
        return 2
    sequence = gr.load_sequence()
    new_golden_text = gr.run_all(sequence)
    new_golden = json.loads(new_golden_text)
    new_fp = gr.fingerprint(sequence)
    changed, added = compare(old_golden, new_golden, old_fp, new_fp)
    try:
        mascara_text = mascara_stage(version)
    except Refusal as why:
        print(f"refusing: {why}", file=sys.stderr)
        return 1
    if mascara_text is not None:
        with open(mr.FIXTURE, "w", encoding="utf-8", newline="\n") as f:
            f.write(mascara_text)
        print("wrote fixtures/mascara.json: now read git diff fixtures/mascara.json and review the outputs")
    if not changed and not added:
        print("the fixtures already record this data: nothing more to write")
        return 0
    for line in changed[:40]:
        print(f"changed: {line}")
    for line in added[:40]:
        print(f"added: {line}")
    if len(changed) + len(added) > 80:
        print(f"({len(changed)} changes and {len(added)} additions in all)")
    try:
        if changed and data_version == recorded and unreleased(recorded):
            print(f"data version {recorded} is unreleased (its CHANGELOG heading says so): its data may still "
                  f"change; add this change's lines to that section")
        elif changed and data_version == recorded:
            check_contract_change(recorded, data_version, version)  # refuses: the version is not new
        elif not changed and data_version != recorded:
            raise Refusal(f"DT_DATA_VERSION is {data_version} but no existing value changed: the fixtures record "
                          f"{recorded}; a new data version is only for changed data")
        elif not changed:
            check_additive(data_version, version, old_fp)
    except Refusal as why:
        print(f"refusing: {why}", file=sys.stderr)
        return 1
    with open(gr.GOLDEN, "w", encoding="utf-8", newline="\n") as f:
        f.write(new_golden_text)
    with open(gr.FINGERPRINT, "w", encoding="utf-8", newline="\n") as f:
        f.write(gr.canonical_fingerprint(new_fp))
    kind = "a contract change" if changed else "an additive change"
    print(f"wrote fixtures/golden.json and fixtures/fingerprint.json ({kind}, data version {data_version}, "
          f"library {version}): now read git diff fixtures/ and review the values")
    return 0


if __name__ == "__main__":
    sys.exit(main())
