"""Harness of the registered property suites (tests/properties.json): inputs from xorshift32,
failures that name the property, the seed in hex, the iteration and the assertion."""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
with open(os.path.join(ROOT, "tests", "properties.json"), encoding="utf-8") as _f:
    REGISTRY = {s["name"]: s for s in json.load(_f)["suites"]}
RAN = {}  # name -> iterations run in this session (printed by conftest)


class Xorshift32:
    """Marsaglia's xorshift32 (13, 17, 5). A zero seed is replaced by 0x9E3779B9."""

    def __init__(self, seed):
        self.x = seed & 0xFFFFFFFF or 0x9E3779B9

    def next(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def below(self, n):
        """In [0, n) for test inputs (a plain modulo: test inputs need no exactness)."""
        return self.next() % n

    def u64(self):
        return (self.next() << 32) | self.next()

    def pick(self, seq):
        return seq[self.below(len(seq))]


def mod11(body):
    """The RUT check digit, written here independently of the C library."""
    s, w = 0, 2
    while body:
        s += (body % 10) * w
        body //= 10
        w = 2 if w == 7 else w + 1
    r = 11 - s % 11
    return "0" if r == 11 else "K" if r == 10 else str(r)


def run_suite(name, body):
    suite = REGISTRY[name]
    assert "python" in suite["languages"], f"{name} is not registered for Python"
    seed = int(suite["seed"], 16)
    rng = Xorshift32(seed)
    RAN[name] = 0
    for i in range(suite["iterations"]):
        try:
            body(rng, i)
        except Exception as e:  # noqa: BLE001 - every failure is reported with its place
            raise AssertionError(f"property {name}, seed 0x{seed:08x}, iteration {i}: {type(e).__name__}: {e}") from e
        RAN[name] += 1  # counted as run, so a suite that stopped early shows in the totals


def _bloques_moviles():
    """The mobile blocks libphonenumber accepts, read from c/data/telefonos_validos.csv."""
    import csv

    with open(os.path.join(ROOT, "c", "data", "telefonos_validos.csv"), encoding="utf-8", newline="") as f:
        return [(int(r["desde"]), int(r["hasta"])) for r in csv.DictReader(f) if r["categoria"] == "movil"]


BLOQUES_MOVILES = _bloques_moviles()


def movil_aceptado(text):
    """True if a mobile in any of the three formats lies in an accepted block."""
    digits = "".join(ch for ch in text if ch.isdigit())
    n = int(digits[2:] if text.startswith("+") else digits)
    return any(a <= n <= b for a, b in BLOQUES_MOVILES)


# ---- plates: the Registro Civil's check digit, from the CSVs and patentes_dv.md, not the library ----

def _csv_rows(name):
    import csv
    with open(os.path.join(ROOT, "c", "data", name), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


LETRAS_PATENTE = {r["letra"]: int(r["valor"]) for r in _csv_rows("patentes_letras.csv")}
SERIES_PATENTE = {r["serie"]: int(r["codigo_d7d6d5"]) for r in _csv_rows("patentes_series_antiguas.csv")}


def ppu_dv(letras, numero):
    """The check digit of a plate given as its letters and its digits (text): the current format
    and motorcycles map each letter to its digit (a motorcycle gets a 0 before its two digits), an old
    series becomes its 3-digit code; then the RUT's mod 11."""
    if len(letras) == 2:
        n = SERIES_PATENTE[letras] * 10000 + int(numero)
    else:
        n = int("".join(str(LETRAS_PATENTE[c]) for c in letras) + ("0" if len(letras) == 3 else "") + numero)
    return mod11(n) if n else "0"
