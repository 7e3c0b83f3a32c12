"""Fan-out distributions and skewed foreign keys re-derived from docs/esquemas.md alone ("Determinism"),
in Python's unbounded integers: every parent's count and every skewed parent row must equal the
library's, through datoteca.Esquema. A mismatch names the seed, table, row, expected and actual."""
import pytest

from datoteca import Esquema

M64 = (1 << 64) - 1


# ---- docs/stream.md, "Datasets": mezcla, FNV-1a 64, permutar -----------------------------------

def fnv(b: bytes) -> int:
    h = 0xCBF29CE484222325
    for c in b:
        h = ((h ^ c) * 0x100000001B3) & M64
    return h


def mezcla(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def permutar(clave: int, n: int, x: int) -> int:
    h = 1
    while h < 31 and (1 << (2 * h)) < n:
        h += 1
    mask = (1 << h) - 1
    while True:
        L, R = x >> h, x & mask
        for r in range(4):
            F = mezcla((clave + r * 2**32 + R) & M64) & mask
            L, R = R, L ^ F
        x = (L << h) | R
        if x < n:
            return x


# ---- docs/esquemas.md, "Determinism" -------------------------------------------------------------

def acotado(clave: int, i: int, n: int) -> int:
    h = mezcla(clave ^ mezcla(i))
    while h > 2**64 - 1 - (2**64 % n):
        h = mezcla(h ^ 0x7265686173)
    return h % n


def clave_tabla(seed: int, tabla: str) -> int:
    return mezcla(seed ^ fnv(tabla.encode()))


def clave_columna(seed: int, tabla: str, columna: str) -> int:
    return mezcla(seed ^ fnv(tabla.encode() + b"\0" + columna.encode()))


def pesos_de(dist: str, param, n: int) -> list:
    if dist == "geometrica":
        w, out = 2**32, []
        for _ in range(n):
            out.append(w)
            w = w * (1000 - param) // 1000
        return out
    if dist == "zipf":
        return [0 if (k + 1) ** param > 2**32 else 2**32 // (k + 1) ** param for k in range(n)]
    return list(param)


def cuantos(seed: int, tabla: str, minimo: int, pesos: list, p: int) -> int:
    acum, s = [], 0
    for w in pesos:
        s += w
        acum.append(s)
    x = acotado(clave_tabla(seed, tabla), p, s)
    return minimo + next(k for k, a in enumerate(acum) if a > x)


def cubetas(n: int, s: int) -> list:
    """(first rank, width, per-rank weight) in the doc's order: 1..31 alone, then 16 per power of two."""
    out = []
    for e in range(0, 64):
        for m in (range(1, 32) if e == 0 else range(16, 32)):
            a = m << e
            u = 2**48 // a**s
            if a > n or u == 0:
                return out
            out.append((a, min(2**e, n - a + 1), u))
    return out


def fila_sesgo(seed: int, tabla: str, columna: str, padre: str, n: int, s: int, r: int, cache={}) -> int:
    if (n, s) not in cache:
        cache[(n, s)] = cubetas(n, s)
    cb = cache[(n, s)]
    total = sum(c * u for _, c, u in cb)
    x = acotado(clave_columna(seed, tabla, columna), r, total)
    antes = 0
    for a, c, u in cb:
        if antes + c * u > x:
            rango = a + (x - antes) // u
            break
        antes += c * u
    kp = mezcla(clave_tabla(seed, padre) ^ 0x736573676F)
    return permutar(kp, n, rango - 1)


# ---- the library against the doc --------------------------------------------------------------

DOC = """
[tablas.p]
filas = 3000
columnas.id = { serie = true }
[tablas.g]
por = "p"
cuantos = { min = 0, max = 5, distribucion = "geometrica", p = 300 }
columnas.p = { ref = "p.id" }
[tablas.z]
por = "p"
cuantos = { min = 2, max = 40, distribucion = "zipf", s = 2 }
columnas.p = { ref = "p.id" }
[tablas.w]
por = "p"
cuantos = { min = 1, max = 4, distribucion = "pesos", pesos = [2, 0, 7, 1] }
columnas.p = { ref = "p.id" }
[tablas.grande]
filas = 100000000
columnas.id = { serie = true }
[tablas.m]
filas = 4000
columnas.a = { ref = "p.id", sesgo = { distribucion = "zipf", s = 1 } }
columnas.b = { ref = "grande.id", sesgo = { distribucion = "zipf", s = 1 } }
columnas.c = { ref = "grande.id", sesgo = { distribucion = "zipf", s = 3 } }
"""

CASOS = [("g", 0, ("geometrica", 300, 6)), ("z", 2, ("zipf", 2, 39)), ("w", 1, ("pesos", [2, 0, 7, 1], 4))]


@pytest.mark.parametrize("seed", [42, 2**64 - 1])
@pytest.mark.parametrize("tabla,minimo,dist", CASOS, ids=[c[0] for c in CASOS])
def test_cuantos_rederivados(seed, tabla, minimo, dist):
    e = Esquema(DOC, seed=seed)
    pesos = pesos_de(*dist)
    hijos = [0] * 3000
    for fila in e.filas(tabla, e.total(tabla)):
        hijos[fila["p"] - 1] += 1
    for p in range(3000):
        esperado = cuantos(seed, tabla, minimo, pesos, p)
        assert hijos[p] == esperado, (f"seed {seed} table {tabla} parent row {p}: {hijos[p]} children, "
                                      f"{esperado} derived from docs/esquemas.md")
    assert e.total(tabla) == sum(cuantos(seed, tabla, minimo, pesos, p) for p in range(3000))


@pytest.mark.parametrize("seed", [42, 7])
def test_sesgo_rederivado(seed):
    e = Esquema(DOC, seed=seed)
    filas = e.filas("m", 4000)
    for r, fila in enumerate(filas):
        for col, padre, n, s in (("a", "p", 3000, 1), ("b", "grande", 10**8, 1), ("c", "grande", 10**8, 3)):
            esperado = fila_sesgo(seed, "m", col, padre, n, s, r) + 1
            assert fila[col] == esperado, (f"seed {seed} table m row {r} column {col}: {fila[col]}, "
                                           f"{esperado} derived from docs/esquemas.md")
    # the same ranking for every skewed ref to one table: b's and c's most common parent is one row
    mas = lambda col: max(set(f[col] for f in filas), key=lambda v: sum(1 for f in filas if f[col] == v))
    assert mas("b") == mas("c") == permutar(mezcla(clave_tabla(seed, "grande") ^ 0x736573676F), 10**8, 0) + 1
