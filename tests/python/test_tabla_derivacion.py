"""An independent re-derivation of the dataset mode, written from docs/stream.md alone.

PCG32, the row stream of a dataset, the bounded draw, the splitmix64 mixer, the Feistel
permutation of unique columns with its cycle walking and the null decision are implemented
here from the document's formulas, without calling the library for any expected value; the
library only supplies the actual rows (Tabla.filas). The calls checked are those whose value is
a simple function of the first draw: `rut` and `empresa.rut` (a body, then the mod-11 check
digit, written here too) and `fecha.hora` (seconds of the day). If the library and the document
disagree, one of them is wrong: the document is the contract.
"""
from __future__ import annotations

from typing import Callable, List, Optional, Tuple

import pytest

from datoteca import Tabla

M64 = 2**64 - 1
M32 = 2**32 - 1


# ---- docs/stream.md, "The generator" -------------------------------------------------------

class Pcg32:
    """pcg32_srandom_r / pcg32_random_r (XSH-RR, 64-bit state, 32-bit output)."""

    MULT = 6364136223846793005

    def __init__(self, initstate: int, initseq: int) -> None:
        self.state, self.draws = 0, 0
        self.inc = ((initseq << 1) | 1) & M64
        self.next()
        self.state = (self.state + initstate) & M64
        self.next()
        self.draws = 0  # srandom's two steps are not draws of the row

    def next(self) -> int:
        old = self.state
        self.state = (old * self.MULT + self.inc) & M64
        xorshifted = (((old >> 18) ^ old) >> 27) & M32
        rot = old >> 59
        self.draws += 1
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & M32

    def below(self, n: int) -> int:
        """Lemire: m = x * n; reject while m mod 2^32 < (2^32 - n) mod n; the value is m >> 32."""
        m = self.next() * n
        threshold = (2**32 - n) % n
        while (m & M32) < threshold:
            m = self.next() * n
        return m >> 32


def fnv1a64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & M64
    return h


def mezcla(x: int) -> int:
    """The splitmix64 finalizer, all modulo 2^64."""
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


# ---- docs/stream.md, "Datasets" ------------------------------------------------------------

TABLA = 0x7461626C61  # "tabla"


def seed_of(seed: object) -> int:
    return fnv1a64(seed.encode("utf-8")) if isinstance(seed, str) else int(seed)  # type: ignore[call-overload]


def fila(seed: object, i: int) -> Pcg32:
    """Row i's stream."""
    return Pcg32(mezcla(seed_of(seed) ^ mezcla(i)), TABLA)


def permutar(clave: int, n: int, i: int) -> int:
    """Four balanced Feistel rounds over 2h bits (the smallest h >= 1 with 2^(2h) >= n), then
    cycle walking until the value is below n."""
    h = 1
    while (1 << (2 * h)) < n:
        h += 1
    mask = (1 << h) - 1

    def feistel(x: int) -> int:
        left, right = x >> h, x & mask
        for r in range(4):
            f = mezcla((clave + r * 2**32 + right) & M64) & mask
            left, right = right, left ^ f
        return (left << h) | right

    x = feistel(i)
    while x >= n:
        x = feistel(x)
    return x


def clave_unico(seed: object, kind: str) -> int:
    return mezcla(seed_of(seed) ^ fnv1a64(f"unico:{kind}".encode()))


def es_nulo(seed: object, i: int, k: int, por_mil: int) -> bool:
    return mezcla((mezcla(seed_of(seed) ^ fnv1a64(b"nulos")) + i * 16 + k) & M64) % 1000 < por_mil


# ---- the values, from the draws ------------------------------------------------------------

PERSONA = (1_000_000, 29_000_000)   # lowest body, number of bodies
EMPRESA = (76_000_000, 2_000_000)


def rut_texto(cuerpo: int) -> str:
    """The body with thousands dots, a dash and the mod-11 check digit (weights 2..7 from the right)."""
    s = sum(int(d) * (2 + k % 6) for k, d in enumerate(reversed(str(cuerpo))))
    dv = 11 - s % 11
    return f"{cuerpo:,}".replace(",", ".") + "-" + ("0" if dv == 11 else "K" if dv == 10 else str(dv))


def hora_texto(s: int) -> str:
    return f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}"


Derivacion = Callable[[object, int], Optional[str]]


def rut_sorteado(rango: Tuple[int, int]) -> Derivacion:
    return lambda seed, i: rut_texto(rango[0] + fila(seed, i).below(rango[1]))


def rut_unico(rango: Tuple[int, int]) -> Derivacion:
    return lambda seed, i: rut_texto(rango[0] + permutar(clave_unico(seed, "rut"), rango[1], i))


def con_nulos(derivar: Derivacion, por_mil: int) -> Derivacion:
    return lambda seed, i: None if es_nulo(seed, i, 0, por_mil) else derivar(seed, i)


# (id, call, options, derivation, capacity): the options are Tabla's, the derivation is the doc's.
CASOS = [
    ("rut", "rut", {}, rut_sorteado(PERSONA), 2**63),
    ("rut empresa", "rut", {"tipo": "empresa"}, rut_sorteado(EMPRESA), 2**63),
    ("empresa.rut", "empresa.rut", {}, rut_sorteado(EMPRESA), 2**63),
    ("fecha.hora", "fecha.hora", {}, lambda seed, i: hora_texto(fila(seed, i).below(86_400)), 2**63),
    ("rut unico", "rut", {"unico": ["rut"]}, rut_unico(PERSONA), PERSONA[1]),
    ("empresa.rut unico", "empresa.rut", {"unico": ["rut"]}, rut_unico(EMPRESA), EMPRESA[1]),
    ("rut nulos", "rut", {"nulos": {"rut": 250}}, con_nulos(rut_sorteado(PERSONA), 250), 2**63),
]
SEEDS = [42, 0, 2**64 - 1, "datoteca"]


def tramos(capacidad: int) -> List[Tuple[int, int]]:
    """Rows 0..999, and 1,000 rows near 10^9 (or at the end when the capacity is smaller)."""
    lejos = 10**9 if capacidad >= 10**9 + 1000 else capacidad - 1000
    return [(0, 1000), (lejos, 1000)]


@pytest.mark.parametrize("seed", SEEDS, ids=str)
@pytest.mark.parametrize("nombre,call,opciones,derivar,capacidad", CASOS, ids=[c[0] for c in CASOS])
def test_filas_rederivadas_desde_stream_md(nombre, call, opciones, derivar, capacidad, seed):
    t = Tabla(call, seed=seed, **opciones)
    assert t.capacidad == capacidad, f"{nombre}, seed {seed!r}: capacity {t.capacidad}, docs/datasets.md says {capacidad}"
    columna = t.columnas[0]["nombre"]
    for desde, n in tramos(capacidad):
        for k, row in enumerate(t.filas(n, desde)):
            i = desde + k
            esperado, actual = derivar(seed, i), row[columna]
            actual = None if actual is None else str(actual)
            assert actual == esperado, (f"{nombre} {opciones}: seed {seed!r}, row {i}: expected {esperado!r} "
                                        f"(derived from docs/stream.md), the library gives {actual!r}")


def test_pcg32_reproduces_the_reference_demo():
    """pcg32-demo's first outputs for pcg32_srandom_r(42, 54): the generator here is the reference."""
    g = Pcg32(42, 54)
    assert [g.next() for _ in range(6)] == [0xA15C02B7, 0x7B47F409, 0xBA1D3330, 0x83D2F293, 0xBFA4784B, 0xCBED606E]


def test_permutar_is_a_bijection_for_small_ranges():
    """What cycle walking promises (docs/datasets.md): every row below n gets its own value."""
    for n in (1, 2, 3, 5, 17, 1000, 4097):
        assert sorted(permutar(12345, n, i) for i in range(n)) == list(range(n)), f"n={n}"


def test_the_lemire_threshold_rejects():
    """A bounded draw whose first 32-bit draw falls under the threshold takes a second one, as the
    document says; the derivation's draw count follows it (n = 3 * 2^30 rejects a quarter)."""
    n = 3 * 2**30
    rejected = 0
    for i in range(200):
        g = fila(42, i)
        g.below(n)
        rejected += g.draws > 1
    assert 20 < rejected < 90, rejected
