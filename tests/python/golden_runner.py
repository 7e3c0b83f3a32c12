"""The data contract in Python: replay fixtures/golden-sequence.json, digest the tables and the
first values of every call, and compare all of it with fixtures/golden.json and
fixtures/fingerprint.json. The forms and the messages are documented in docs/determinism.md and
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
    }


def canonical_fingerprint(doc: Dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


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
        f"golden values with their draws, {runs} call digests of {VALUES_PER_CALL} values")
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
