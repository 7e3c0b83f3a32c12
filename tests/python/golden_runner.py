"""The data contract in Python: replay fixtures/golden-sequence.json, digest the tables, the
first values of every call and slices of every dataset, and compare all of it with
fixtures/golden.json and fixtures/fingerprint.json. The forms and the messages are documented in docs/determinism.md and
are the same in C (tests/c/test_golden.c) and Node (tests/node/golden_runner.mjs).

    python golden_runner.py --check   the staged check (what the mutation suite runs)
    python golden_runner.py OUT       write this binding's canonical golden run to OUT

Nothing here writes a fixture: tools/regen_fixtures.py is the only writer, run by hand.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from typing import Any, Callable, Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "fixtures")
SEQUENCE = os.path.join(FIXTURES, "golden-sequence.json")
GOLDEN = os.path.join(FIXTURES, "golden.json")
FINGERPRINT = os.path.join(FIXTURES, "fingerprint.json")

VALUES_PER_CALL = 10_000
PCG_MULT = 6364136223846793005
MASK64 = 2**64 - 1

Step = Tuple[str, Any, int]  # (call, value, draws)


def load(path: str) -> Any:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def load_sequence() -> Dict[str, Any]:
    return load(SEQUENCE)  # type: ignore[no-any-return]


# ---- stream positions, computed here from the saved state, independently of the library ----

def _pcg_state(saved: bytes) -> Tuple[int, int]:
    """(state, increment) of a 24-byte saved state (layout in datoteca.h)."""
    return int.from_bytes(saved[4:12], "little"), int.from_bytes(saved[12:20], "little")


def draws_between(before: bytes, after: bytes) -> int:
    """How many PCG32 steps lead from one saved state to the other: the LCG's jump-ahead,
    bit by bit (state' = state * m + inc applied 2^k times is an LCG with m^(2^k) and
    inc * (m^(2^(k-1)) + 1) * ...), so no call into the library is needed."""
    cur, inc = _pcg_state(before)
    target, inc2 = _pcg_state(after)
    assert inc == inc2, "states of different streams"
    mult, plus, distance, bit = PCG_MULT, inc, 0, 1
    while cur != target:
        if (cur ^ target) & bit:
            cur = (cur * mult + plus) & MASK64
            distance |= bit
        bit <<= 1
        plus = ((mult + 1) * plus) & MASK64
        mult = (mult * mult) & MASK64
    return distance


# ---- the golden run ----

def _plain(value: Any) -> Any:
    """The fixture's form: integers (a call's, or a record's integer fields) as decimal strings."""
    if isinstance(value, dict):
        return {k: str(v) if isinstance(v, int) else v for k, v in value.items()}
    return str(value) if isinstance(value, int) else value


def _instance(seed: str, hoy: str) -> Any:
    from datoteca import Datoteca

    return Datoteca(seed=int(seed), hoy=hoy)


def run(seed: str, sequence: Dict[str, Any]) -> List[Step]:
    """(call, value, draws) of every step for one seed; integers become decimal strings."""
    d = _instance(seed, sequence["hoy"])
    out = []
    before = d.save_state()
    for step in sequence["calls"]:
        value = d.call(step["call"], **step["args"])
        after = d.save_state()
        out.append((step["call"], _plain(value), draws_between(before, after)))
        before = after
    return out


def canonical(data_version: int, hoy: str, runs: List[Tuple[str, List[Step]]]) -> str:
    doc = {
        "data_version": data_version,
        "hoy": hoy,
        "runs": [{"seed": seed, "values": [{"call": c, "value": v, "draws": n} for c, v, n in steps]}
                 for seed, steps in runs],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def run_all(sequence: Dict[str, Any]) -> str:
    import datoteca

    return canonical(datoteca.data_version(), sequence["hoy"], [(s, run(s, sequence)) for s in sequence["seeds"]])


# ---- the fingerprint ----

def arg_sets(sequence: Dict[str, Any]) -> List[Tuple[str, Dict[str, Any]]]:
    """Every call with its defaults, then the other argument sets the golden sequence uses,
    in registry order and then in order of first use."""
    import datoteca

    out: List[Tuple[str, Dict[str, Any]]] = []
    for name in datoteca.calls():
        out.append((name, {}))
        for step in sequence["calls"]:
            if step["call"] == name and step["args"] and (name, step["args"]) not in out:
                out.append((name, step["args"]))
    return out


def value_line(value: Any) -> str:
    """One value in the digest's canonical form: compact JSON, integers as decimal strings."""
    return json.dumps(_plain(value), ensure_ascii=False, separators=(",", ":"))


def call_digest(call: str, args: Dict[str, Any], seed: str, hoy: str) -> Tuple[str, int]:
    """sha256 of the first VALUES_PER_CALL values (one line each) and the draws they took."""
    d = _instance(seed, hoy)
    start = d.save_state()
    values = d.many(call, VALUES_PER_CALL, **args)
    text = "".join(value_line(v) + "\n" for v in values)
    return hashlib.sha256(text.encode("utf-8")).hexdigest(), draws_between(start, d.save_state())


def fingerprint(sequence: Dict[str, Any]) -> Dict[str, Any]:
    import datoteca

    return {
        "data_version": datoteca.data_version(),
        "written_by": datoteca.version(),
        "hoy": sequence["hoy"],
        "values_per_call": VALUES_PER_CALL,
        "tables": [{"table": t["name"], "rows": t["rows"], "digest": t["digest"]} for t in datoteca.tables()],
        "calls": [
            {"call": call, "args": args,
             "runs": [dict(zip(("seed", "sha256", "draws"), (seed, *call_digest(call, args, seed, sequence["hoy"]))))
                      for seed in sequence["seeds"]]}
            for call, args in arg_sets(sequence)
        ],
        "datasets": [dataset_entry(call, options) for call, options in dataset_cases()],
        "esquemas": [esquema_entry(name, sequence["hoy"], datoteca.version()) for name in shipped_schemas()],
    }


# ---- the dataset digests (docs/determinism.md, "The encodings") ----
# The sequence digests above never touch the dataset mode: a row's stream, the unique columns'
# permutation and the null decisions are guarded only by these.

DATASET_SEED = 42
DATASET_ROWS = 10_000            # rows 0..9,999
DATASET_FAR = 1_000_000_000      # then 1,000 rows from 10^9, or from capacity - 1,000 when smaller
DATASET_FAR_ROWS = 1_000
DATASET_CHUNK = 1_000            # a running digest every 1,000 rows locates the first that differs
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
FIELD_SEP = "\x1f"
NULO = "\x1e"


def fnv1a64(data: bytes, h: int = FNV_OFFSET) -> int:
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & MASK64
    return h


def row_text(row: Dict[str, Any]) -> str:
    """A row as dt_tabla_filas writes it (without its newline). str() of every value, so an
    integer column reads the same whether the binding gives it as int or as str."""
    return FIELD_SEP.join(NULO if v is None else str(v) for v in row.values())


def show_row(text: str) -> str:
    """A row for a message: fields joined by |, a null as \\N."""
    return "|".join("\\N" if f == NULO else f for f in text.split(FIELD_SEP))


def far_start(capacity: int) -> int:
    return DATASET_FAR if capacity >= DATASET_FAR + DATASET_FAR_ROWS else capacity - DATASET_FAR_ROWS


def dataset_cases() -> List[Tuple[str, Dict[str, Any]]]:
    """Every call that builds a dataset with its defaults: as it is, with every column that can be
    unique made unique (each kind's permutation), with every column at 100 per mille of nulls
    (each column's own null decision), and with every column that can be dirty at 100 per mille of
    dirt (each kind's transforms and the choice of form, docs/sucios.md); one text seed for the
    seed's hashing."""
    import datoteca

    out: List[Tuple[str, Dict[str, Any]]] = []
    for name in datoteca.calls():
        try:
            t = datoteca.Tabla(name, seed=DATASET_SEED)
        except (datoteca.DatotecaError, ValueError, TypeError):
            continue  # a call that needs arguments is not a dataset with default options
        columns = [c["nombre"] for c in t.columnas]
        unicos, sucios = [], []
        for c in columns:
            try:
                datoteca.Tabla(name, seed=DATASET_SEED, unico=[c])
                unicos.append(c)
            except datoteca.DatotecaError:
                pass
            try:
                datoteca.Tabla(name, seed=DATASET_SEED, sucio={c: 100})
                sucios.append(c)
            except datoteca.DatotecaError:
                pass
        out.append((name, {"seed": DATASET_SEED}))
        if unicos:
            out.append((name, {"seed": DATASET_SEED, "unico": unicos}))
        out.append((name, {"seed": DATASET_SEED, "nulos": {c: 100 for c in columns}}))
        if sucios:
            out.append((name, {"seed": DATASET_SEED, "sucio": {c: 100 for c in sucios}}))
        if name == "persona.persona":
            out.append((name, {"seed": "datoteca"}))
    return out


def case_label(entry: Dict[str, Any]) -> str:
    return f"{entry['call']} {json.dumps(entry['options'], ensure_ascii=False, separators=(',', ':'))}"


def slice_digest(t: Any, desde: int, n: int) -> Dict[str, Any]:
    """FNV-1a 64 of rows [desde, desde + n) as text, its running value after every DATASET_CHUNK
    rows (the last is the slice's), and the first row. `t` is anything with filas(n, desde): a Tabla,
    or one table of a schema (EsquemaTabla)."""
    rows = [row_text(r) + "\n" for r in t.filas(n, desde)]
    h, every = FNV_OFFSET, []
    for k in range(0, n, DATASET_CHUNK):
        h = fnv1a64("".join(rows[k:k + DATASET_CHUNK]).encode("utf-8"), h)
        every.append(f"{h:016x}")
    return {"desde": desde, "n": n, "fnv1a64": every[-1], "every_1000": every, "first_row": rows[0][:-1]}


def dataset_entry(call: str, options: Dict[str, Any]) -> Dict[str, Any]:
    from datoteca import Tabla

    t = Tabla(call, **options)
    entry: Dict[str, Any] = {"call": call, "options": options}
    if t.capacidad < 2**63:  # only unique columns bound it (docs/datasets.md)
        entry["capacity"] = t.capacidad
    entry["slices"] = [slice_digest(t, 0, DATASET_ROWS), slice_digest(t, far_start(t.capacidad), DATASET_FAR_ROWS)]
    return entry


# ---- the shipped schemas' digests: the same slices, per table of each file in esquemas/ ----
# A schema's rows come from the same C core as datasets but through its own paths (refs, fan-outs,
# reparto, posicion): only these digests pin them.

ESQUEMAS = os.path.join(ROOT, "esquemas")
ESQUEMA_SEED = 42
ESQUEMA_ROWS = 10_000       # rows 0..min(10,000, filas) - 1
ESQUEMA_LAST_ROWS = 1_000   # and, for a table of more than 10,000 rows, its last 1,000


def shipped_schemas() -> List[str]:
    """The schema files shipped in esquemas/, sorted by name."""
    return sorted(f for f in os.listdir(ESQUEMAS) if f.endswith((".toml", ".json")))


def esquema_sha256(name: str) -> str:
    with open(os.path.join(ESQUEMAS, name), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def esquema_slices(filas: int) -> List[Tuple[int, int]]:
    """(desde, n) of a table's slices: none for an empty table."""
    out = [(0, min(ESQUEMA_ROWS, filas))] if filas else []
    if filas > ESQUEMA_ROWS:
        out.append((filas - ESQUEMA_LAST_ROWS, ESQUEMA_LAST_ROWS))
    return out


class EsquemaTabla:
    """One table of a schema with Tabla's filas(n, desde), so slice_digest serves both."""

    def __init__(self, esquema: Any, tabla: str) -> None:
        self.esquema, self.tabla = esquema, tabla

    def filas(self, n: int, desde: int) -> List[Dict[str, Any]]:
        return self.esquema.filas(self.tabla, n, desde)  # type: ignore[no-any-return]


def open_schema(name: str, hoy: str) -> Any:
    from datoteca import Esquema

    return Esquema(os.path.join(ESQUEMAS, name), seed=ESQUEMA_SEED, hoy=hoy)


def esquema_entry(name: str, hoy: str, since: str) -> Dict[str, Any]:
    """A shipped schema's entry: its file's sha256, and each table (declaration order) with its rows
    and slices. `since` is the library version that first recorded it (tools/regen_fixtures.py keeps
    the recorded one): a schema's output is fixed from that version's release on."""
    e = open_schema(name, hoy)
    return {"esquema": name, "seed": ESQUEMA_SEED, "since": since, "sha256": esquema_sha256(name),
            "tablas": [{"tabla": t, "filas": e.total(t),
                        "slices": [slice_digest(EsquemaTabla(e, t), desde, n) for desde, n in esquema_slices(e.total(t))]}
                       for t in e.tablas]}


def canonical_fingerprint(doc: Dict[str, Any]) -> str:
    """indent=2 JSON; the datasets section, then the esquemas section, last, write each case (each
    schema's table) on one line and each slice on one line of its own, so the file stays a few
    hundred lines longer, not thousands."""
    rest = {k: v for k, v in doc.items() if k not in ("datasets", "esquemas")}
    text = json.dumps(rest, indent=2, ensure_ascii=False)
    if "datasets" not in doc:
        return text + "\n"

    def one(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))

    def with_slices(e: Dict[str, Any], pad: str) -> str:
        head = ", ".join(f"{one(k)}: {one(v)}" for k, v in e.items() if k != "slices")
        slices = ",\n".join(f"{pad}  {one(s)}" for s in e["slices"])
        return f"{pad}{{{head}, \"slices\": [\n{slices}]}}"

    cases = [with_slices(e, "    ") for e in doc["datasets"]]
    text = text[:-2] + ",\n  \"datasets\": [\n" + ",\n".join(cases) + "\n  ]"
    if "esquemas" in doc:
        schemas = []
        for e in doc["esquemas"]:
            head = ", ".join(f"{one(k)}: {one(v)}" for k, v in e.items() if k != "tablas")
            tablas = ",\n".join(with_slices(t, "      ") for t in e["tablas"])
            schemas.append(f"    {{{head}, \"tablas\": [\n{tablas}]}}")
        text += ",\n  \"esquemas\": [\n" + ",\n".join(schemas) + "\n  ]"
    return text + "\n}\n"


# ---- the staged check: each stage returns its failures; later stages only run on success ----

def _describe(value: Any, expected: Any) -> str:
    if isinstance(expected, dict) and isinstance(value, dict):
        for field, want in expected.items():
            if value.get(field) != want:
                return f"field {field}: expected {json.dumps(want, ensure_ascii=False)}, got {json.dumps(value.get(field), ensure_ascii=False)}"
    return f"expected {json.dumps(expected, ensure_ascii=False)}, got {json.dumps(value, ensure_ascii=False)}"


def check_versions(golden: Dict[str, Any], fp: Dict[str, Any]) -> List[str]:
    import datoteca

    lib = datoteca.data_version()
    if golden["data_version"] == fp["data_version"] == lib:
        return []
    return [f"data version: golden.json records {golden['data_version']}, fingerprint.json records "
            f"{fp['data_version']}, the library is {lib}"]


def check_tables(fp: Dict[str, Any]) -> List[str]:
    import datoteca

    have, want = datoteca.tables(), fp["tables"]
    out = []
    for i in range(max(len(have), len(want))):
        h = have[i] if i < len(have) else None
        w = want[i] if i < len(want) else None
        if h is None or w is None or h["name"] != w["table"]:
            out.append(f"fingerprint: table {i + 1}: the library has {h['name'] if h else 'none'}, "
                       f"the fixture {w['table'] if w else 'none'}")
        elif h["digest"] != w["digest"] or h["rows"] != w["rows"]:
            rows = f"; {h['rows']} rows, expected {w['rows']}" if h["rows"] != w["rows"] else ""
            out.append(f"fingerprint: table {h['name']}: digest {h['digest']}, expected {w['digest']}{rows}")
    return out


def check_golden(sequence: Dict[str, Any], golden: Dict[str, Any], text: str) -> List[str]:
    """The first divergence (value, then stream position), then the canonical bytes."""
    if [r["seed"] for r in golden["runs"]] != sequence["seeds"]:
        return [f"golden: the fixture's seeds {[r['seed'] for r in golden['runs']]} are not the sequence's {sequence['seeds']}"]
    total = len(sequence["calls"])
    runs = []
    for r in golden["runs"]:
        actual = run(r["seed"], sequence)
        runs.append((r["seed"], actual))
        for i, ((call, value, draws), want) in enumerate(zip(actual, r["values"])):
            where = f"golden: seed {r['seed']}, call {i + 1} of {total} ({call})"
            if call != want["call"]:
                return [f"{where}: the fixture has {want['call']} here"]
            if value != want["value"]:
                return [f"{where}: {_describe(value, want['value'])}"]
            if draws != want.get("draws"):
                return [f"{where}: same value, but {draws} draws instead of {want.get('draws')}"]
        if len(actual) != len(r["values"]):
            return [f"golden: seed {r['seed']}: {len(actual)} calls, the fixture has {len(r['values'])}"]
    mine = canonical(golden["data_version"], sequence["hoy"], runs)
    if mine != text:
        k = next((i for i, (a, b) in enumerate(zip(mine, text)) if a != b), min(len(mine), len(text)))
        return [f"golden: the canonical form differs from fixtures/golden.json at character {k} "
                f"(line {text.count(chr(10), 0, k) + 1}) although every value agrees"]
    return []


def check_calls(fp: Dict[str, Any]) -> List[str]:
    out = []
    if fp["values_per_call"] != VALUES_PER_CALL:
        return [f"fingerprint: values_per_call is {fp['values_per_call']}, the runner digests {VALUES_PER_CALL}"]
    for entry in fp["calls"]:
        for r in entry["runs"]:
            sha, draws = call_digest(entry["call"], entry["args"], r["seed"], fp["hoy"])
            where = f"fingerprint: seed {r['seed']}, {entry['call']} {json.dumps(entry['args'], ensure_ascii=False, separators=(',', ':'))}"
            if sha != r["sha256"]:
                out.append(f"{where}: the first {VALUES_PER_CALL} values differ (sha256 {sha[:16]}…, expected {r['sha256'][:16]}…)")
            elif draws != r["draws"]:
                out.append(f"{where}: same values, but {draws} draws instead of {r['draws']}")
    return out


def compare_slice(where: str, want: Dict[str, Any], first_row: str, every: List[str]) -> List[str]:
    """The first difference of one slice: its first row (expected and actual text), else the first
    1,000 rows whose running digest differs. Shared by the three runners' messages."""
    desde, n = want["desde"], want["n"]
    head = f"{where}, rows {desde}..{desde + n - 1}"
    if first_row != want["first_row"]:
        return [f"{head}: row {desde} differs: expected \"{show_row(want['first_row'])}\", got \"{show_row(first_row)}\""]
    for k, (h, w) in enumerate(zip(every, want["every_1000"])):
        if h != w:
            lo = desde + k * DATASET_CHUNK
            return [f"{head}: row {desde} agrees; the first difference is in rows {lo}..{min(lo + DATASET_CHUNK, desde + n) - 1} "
                    f"(fnv1a64 up to there {h}, expected {w})"]
    return []


def check_datasets(fp: Dict[str, Any]) -> List[str]:
    """Each dataset case rebuilt through Tabla with its options: capacity, then each slice."""
    from datoteca import DatotecaError, Tabla

    if "datasets" not in fp:
        return ["fingerprint: fingerprint.json has no datasets section (tools/regen_fixtures.py writes it)"]
    out: List[str] = []
    for entry in fp["datasets"]:
        where = f"dataset: {case_label(entry)}"
        try:
            t = Tabla(entry["call"], **entry["options"])
        except DatotecaError as why:
            out.append(f"{where}: refused: {why}")
            continue
        if t.capacidad != entry.get("capacity", 2**63):
            out.append(f"{where}: capacity {t.capacidad}, expected {entry.get('capacity', 2**63)}")
            continue
        for want in entry["slices"]:
            have = slice_digest(t, want["desde"], want["n"])
            failures = compare_slice(where, want, have["first_row"], have["every_1000"])
            out.extend(failures)
            if failures:
                break  # the far slice of a case whose first slice differs adds nothing
    return out


def esquema_label(entry: Dict[str, Any]) -> str:
    return f"esquema: {entry['esquema']} (seed {entry['seed']})"


def check_esquemas(fp: Dict[str, Any]) -> List[str]:
    """Each recorded shipped schema rebuilt at its seed and the fingerprint's hoy: the file's sha256
    first (an edited schema is named as such), then its tables, their rows and each slice."""
    from datoteca import DatotecaError, Esquema

    if "esquemas" not in fp:
        return ["fingerprint: fingerprint.json has no esquemas section (tools/regen_fixtures.py writes it)"]
    out: List[str] = []
    for entry in fp["esquemas"]:
        where = esquema_label(entry)
        path = os.path.join(ESQUEMAS, entry["esquema"])
        if not os.path.exists(path):
            out.append(f"{where}: esquemas/{entry['esquema']} is gone")
            continue
        sha = esquema_sha256(entry["esquema"])
        if sha != entry["sha256"]:
            out.append(f"{where}: the schema file changed (sha256 {sha[:16]}…, expected {entry['sha256'][:16]}…): "
                       f"its rows below follow from the edited file")
        try:
            e = Esquema(path, seed=entry["seed"], hoy=fp["hoy"])
        except DatotecaError as why:
            out.append(f"{where}: refused: {why}")
            continue
        names = [t["tabla"] for t in entry["tablas"]]
        if e.tablas != names:
            out.append(f"{where}: tables {', '.join(e.tablas)}, expected {', '.join(names)}")
        for t in entry["tablas"]:
            if t["tabla"] not in e.tablas:
                continue
            at = f"{where}, table {t['tabla']}"
            if e.total(t["tabla"]) != t["filas"]:
                out.append(f"{at}: {e.total(t['tabla'])} rows, expected {t['filas']}")
                continue
            for want in t["slices"]:
                have = slice_digest(EsquemaTabla(e, t["tabla"]), want["desde"], want["n"])
                failures = compare_slice(at, want, have["first_row"], have["every_1000"])
                out.extend(failures)
                if failures:
                    break  # the last rows of a table whose first rows differ add nothing
    return out


def check(say: Callable[[str], None] = print) -> int:
    """Run the stages in order and stop at the first that fails: what follows it is its consequence."""
    sequence, fp = load_sequence(), load(FINGERPRINT)
    with open(GOLDEN, encoding="utf-8") as f:
        text = f.read()
    golden = json.loads(text)
    stages: List[Tuple[str, Callable[[], List[str]]]] = [
        ("versions", lambda: check_versions(golden, fp)),
        ("tables", lambda: check_tables(fp)),
        ("golden", lambda: check_golden(sequence, golden, text)),
        ("calls", lambda: check_calls(fp)),
        ("datasets", lambda: check_datasets(fp)),
        ("esquemas", lambda: check_esquemas(fp)),
    ]
    for name, stage in stages:
        failures = stage()
        for line in failures:
            say(line)
        if failures:
            say(f"contract (python): FAILED at the {name} stage; later stages skipped (fix this first)")
            return 1
    runs = sum(len(e["runs"]) for e in fp["calls"])
    say(f"contract (python): ok: {len(fp['tables'])} tables, {len(golden['runs'])} x {len(sequence['calls'])} "
        f"golden values with their draws, {runs} call digests of {VALUES_PER_CALL} values, "
        f"{len(fp.get('datasets', []))} dataset cases of {DATASET_ROWS} + {DATASET_FAR_ROWS} rows, "
        f"{sum(len(e['tablas']) for e in fp.get('esquemas', []))} tables of {len(fp.get('esquemas', []))} shipped schemas")
    return 0


def _refuse_fixture_path(path: str) -> Optional[str]:
    real = os.path.realpath(path)
    if os.path.dirname(real) == os.path.realpath(FIXTURES):
        return (f"refusing to write {path}: the fixtures are written only by tools/regen_fixtures.py "
                f"(by hand, with the version rules of docs/determinism.md)")
    return None


def main(argv: List[str]) -> int:
    if argv == ["--check"]:
        return check()
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    refusal = _refuse_fixture_path(argv[0])
    if refusal:
        print(refusal, file=sys.stderr)
        return 2
    with open(argv[0], "w", encoding="utf-8", newline="\n") as out:
        out.write(run_all(load_sequence()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
