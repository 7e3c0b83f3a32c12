"""The linkage attacks of issue 39 (finding 2) against the rules fecha and monto, on 20,000 people made
by the library (docs/enmascarar.md, "How much each option links"):

- two values: the attacker knows two real amounts of a person (sueldo, saldo) and the masked table, and
  the rules (not the key); the person's masked row is found when it is the only row whose two masked
  amounts the rule could have made from those two real ones;
- birth date + event date: the same with the real birth date and the real date of an account's alta.

A rule "could have made" b from a exactly as the document says: every offset in ±dias (every factor in
±porcentaje), then the generalisation; for conserva, one offset (factor) for both values of a row. The
person's own row is always among the candidates (asserted: an attacker's model that missed it would
measure nothing). The rate is the share of the 20,000 found uniquely; the default's must be below
BOUND. Seeds and key are fixed: a failure names the option and its rate."""
import csv
import datetime
import io
import os
import subprocess

import numpy as np
import pytest

import datoteca
from conftest import ROOT

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
# The published test key (so a failure replays exactly), allowed by --clave-de-prueba.
CLAVE = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
N = 20000
DIAS, PORCENTAJE = 30, 10
# The default's rate must stay under 1 %: at 20,000 people it measures 0.00 % for the two dates and
# 0.24 % for the two amounts (docs/enmascarar.md), so 1 % leaves room for another key or seed, while
# the forms that keep an interval or a ratio (98.4 %, 99.7 %) or dates to the day or month (40 %,
# 15 %) are far above it.
BOUND = 0.01
EPOCA = datetime.date(1970, 1, 1)


@pytest.fixture(scope="module")
def gente():
    vistos, filas = set(), []
    for p in datoteca.Tabla("persona.persona", seed=39, campos=["rut", "fecha_nacimiento"]).filas(N + 200):
        if p["rut"] not in vistos:
            vistos.add(p["rut"])
            filas.append(p)
    filas = filas[:N]
    d = datoteca.Datoteca(seed=3939)
    for p in filas:
        p["alta"] = d.fecha.fecha(desde=-3650, hasta=0)  # an account opened in the last ten years
        p["sueldo"] = str(d.dinero.sueldo())
        p["saldo"] = str(d.dinero.monto(min=1000, max=5000000))
    assert len(filas) == N
    return filas


def _enmascarar(tmp_path, columnas, filas):
    reglas = 'version = 1\n[columnas]\nrut = { regla = "rut" }\n' + "".join(
        f"{c} = {{ {r} }}\n" for c, r in columnas.items())
    (tmp_path / "r.toml").write_text(reglas)
    (tmp_path / "k.hex").write_text(CLAVE + "\n")
    os.chmod(tmp_path / "k.hex", 0o600)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["rut"] + list(columnas))
    for f in filas:
        w.writerow([f["rut"]] + [f[c] for c in columnas])
    p = subprocess.run([CLI, "enmascarar", "--reglas", str(tmp_path / "r.toml"), "--clave-archivo",
                        str(tmp_path / "k.hex"), "--clave-de-prueba"], input=out.getvalue().encode(), capture_output=True)
    assert p.returncode == 0, f"rules {reglas!r}: {p.stderr.decode()}"
    return list(csv.DictReader(io.StringIO(p.stdout.decode())))


def _dias(s):
    return (datetime.date.fromisoformat(s) - EPOCA).days


def _gen_fecha(z, grado):
    """Day numbers generalised to their month's or year's first day (vectorised over numpy arrays)."""
    if grado == "dia":
        return z
    out = []
    for x in z.tolist():
        d = EPOCA + datetime.timedelta(days=x)
        out.append((d.replace(day=1) if grado == "mes" else d.replace(month=1, day=1)) - EPOCA)
    return np.array([o.days for o in out], dtype=np.int64)


def _gen_monto(w, cifras):
    w = np.asarray(w, dtype=np.int64)
    q = np.ones_like(w)
    while True:
        grande = w // q >= 10 ** cifras
        if not grande.any():
            break
        q = np.where(grande, q * 10, q)
    return (w + q // 2) // q * q


def _unicos(a1, a2, b1, b2, lo1, hi1, lo2, hi2, mismo=None):
    """How many targets i have exactly one candidate row j (and it is i): lo1[i] <= b1[j] <= hi1[i],
    lo2[i] <= b2[j] <= hi2[i], and mismo(i, j) for the conserva forms."""
    orden = np.argsort(b1, kind="stable")
    b1s = b1[orden]
    unicos = 0
    for i in range(len(a1)):
        x, y = np.searchsorted(b1s, lo1[i], "left"), np.searchsorted(b1s, hi1[i], "right")
        j = orden[x:y]
        j = j[(b2[j] >= lo2[i]) & (b2[j] <= hi2[i])]
        if mismo is not None:
            j = j[mismo(i, j)]
        assert i in j, f"person {i}: their own masked row is not a candidate: the attack's model is wrong"
        unicos += len(j) == 1
    return unicos


FECHAS = {
    "default (anio)": f'regla = "fecha", dias = {DIAS}, entidad = "rut"',
    "no entidad (anio)": f'regla = "fecha", dias = {DIAS}',
    'generalizar = "mes"': f'regla = "fecha", dias = {DIAS}, entidad = "rut", generalizar = "mes"',
    'generalizar = "dia"': f'regla = "fecha", dias = {DIAS}, entidad = "rut", generalizar = "dia"',
    'conserva = "intervalos"': f'regla = "fecha", dias = {DIAS}, entidad = "rut", conserva = "intervalos"',
}
MONTOS = {
    "default (cifras = 2)": f'regla = "monto", porcentaje = {PORCENTAJE}, entidad = "rut"',
    "no entidad (cifras = 2)": f'regla = "monto", porcentaje = {PORCENTAJE}',
    "cifras = 3": f'regla = "monto", porcentaje = {PORCENTAJE}, entidad = "rut", cifras = 3',
    "cifras = 14": f'regla = "monto", porcentaje = {PORCENTAJE}, entidad = "rut", cifras = 14',
    'conserva = "proporciones"': f'regla = "monto", porcentaje = {PORCENTAJE}, entidad = "rut", conserva = "proporciones"',
}


def _grado(regla):
    return "dia" if "conserva" in regla or '"dia"' in regla else "mes" if '"mes"' in regla else "anio"


def _cifras(regla):
    return 14 if "conserva" in regla else 3 if "cifras = 3" in regla else 14 if "cifras = 14" in regla else 2


def test_birth_date_plus_event_date(gente, tmp_path):
    a1 = np.array([_dias(p["fecha_nacimiento"]) for p in gente])
    a2 = np.array([_dias(p["alta"]) for p in gente])
    tasas = {}
    for nombre, regla in FECHAS.items():
        m = _enmascarar(tmp_path, {"fecha_nacimiento": regla, "alta": regla}, gente)
        b1 = np.array([_dias(f["fecha_nacimiento"]) for f in m])
        b2 = np.array([_dias(f["alta"]) for f in m])
        g = _grado(regla)
        lo1, hi1 = _gen_fecha(a1 - DIAS, g), _gen_fecha(a1 + DIAS, g)
        lo2, hi2 = _gen_fecha(a2 - DIAS, g), _gen_fecha(a2 + DIAS, g)
        mismo = (lambda i, j: (b1[j] - a1[i]) == (b2[j] - a2[i])) if "conserva" in regla else None
        tasas[nombre] = _unicos(a1, a2, b1, b2, lo1, hi1, lo2, hi2, mismo) / N
    print("\nbirth date + event date, dias = %d, %d people:" % (DIAS, N))
    for nombre, t in tasas.items():
        print(f"  {nombre:28s} {100 * t:6.2f} % found uniquely")
    assert tasas["default (anio)"] < BOUND and tasas["no entidad (anio)"] < BOUND, tasas
    assert tasas['conserva = "intervalos"'] > 0.9, f"the opt-in keeps the gap exactly, so the attack should work: {tasas}"


def test_two_known_amounts(gente, tmp_path):
    a1 = np.array([int(p["sueldo"]) for p in gente], dtype=np.int64)
    a2 = np.array([int(p["saldo"]) for p in gente], dtype=np.int64)
    P = PORCENTAJE
    tasas = {}
    for nombre, regla in MONTOS.items():
        m = _enmascarar(tmp_path, {"sueldo": regla, "saldo": regla}, gente)
        b1 = np.array([int(f["sueldo"]) for f in m], dtype=np.int64)
        b2 = np.array([int(f["saldo"]) for f in m], dtype=np.int64)
        k = _cifras(regla)
        lo1, hi1 = _gen_monto(-(-a1 * (100 - P) // 100), k), _gen_monto(a1 * (100 + P) // 100, k)
        lo2, hi2 = _gen_monto(-(-a2 * (100 - P) // 100), k), _gen_monto(a2 * (100 + P) // 100, k)
        mismo = None
        if "conserva" in regla:
            def rango_f(a, b):  # the factors f (basis points) that give b from a; a held value, any beyond
                flo, fhi = 1e4 * ((b - 0.5) / a - 1), 1e4 * ((b + 0.5) / a - 1)
                flo = np.where(b == -(-a * (100 - P) // 100), -1e9, flo)
                fhi = np.where(b == a * (100 + P) // 100, 1e9, fhi)
                return flo, fhi

            def mismo(i, j):  # one factor for both: the intervals of f that give b1 and b2 overlap
                f1lo, f1hi = rango_f(a1[i], b1[j])
                f2lo, f2hi = rango_f(a2[i], b2[j])
                return np.maximum(f1lo, f2lo) <= np.minimum(f1hi, f2hi) + 1e-9
        tasas[nombre] = _unicos(a1, a2, b1, b2, lo1, hi1, lo2, hi2, mismo) / N
    print("\ntwo known amounts (sueldo, saldo), porcentaje = %d, %d people:" % (P, N))
    for nombre, t in tasas.items():
        print(f"  {nombre:28s} {100 * t:6.2f} % found uniquely")
    assert tasas["default (cifras = 2)"] < BOUND and tasas["no entidad (cifras = 2)"] < BOUND, tasas
    assert tasas['conserva = "proporciones"'] > 0.9, f"the opt-in keeps the ratio exactly: {tasas}"


def _rangos(x):
    _, inv, cnt = np.unique(x, return_inverse=True, return_counts=True)
    fin = np.cumsum(cnt)
    return (fin - (cnt - 1) / 2.0)[inv]


def _spearman(x, y):
    return float(np.corrcoef(_rangos(x), _rangos(y))[0, 1])


def test_amounts_one_to_twenty_thousand_without_entity(tmp_path):
    """Finding 2's last part: the amounts 1..20,000 in a column with no entity. Fixed points no more
    than the rule's own distribution gives (computed from the document over every factor), and no
    rank order beyond the generalisation's own (Spearman of v against its 2-digit rounding)."""
    v = np.arange(1, 20001, dtype=np.int64)
    m = _enmascarar(tmp_path, {"monto": f'regla = "monto", porcentaje = {PORCENTAJE}'}, [
        {"rut": "", "monto": str(x)} for x in v.tolist()])
    w = np.array([int(f["monto"]) for f in m], dtype=np.int64)
    P = PORCENTAJE
    # the chance of out == v for each v, over the 2·100P factors the draw picks uniformly
    f = np.array([x for x in range(-100 * P, 100 * P + 1) if x != 0], dtype=np.int64)
    esperado = 0.0
    for i in range(0, len(v), 2000):
        vv = v[i:i + 2000, None]
        ww = (vv * (10000 + f[None, :]) + 5000) // 10000
        ww = np.minimum(np.maximum(ww, -(-vv * (100 - P) // 100)), vv * (100 + P) // 100)
        esperado += float((_gen_monto(ww.ravel(), 2).reshape(ww.shape) == vv).mean(axis=1).sum())
    fijos = int((w == v).sum())
    forzados = int((v * P < 100).sum())  # |v·P/100| < 1: no factor moves them
    rho, rho_gen = _spearman(v, w), _spearman(v, _gen_monto(v, 2))
    print(f"\n1..20,000 without entity, porcentaje = {P}, cifras = 2: {fijos} unchanged "
          f"(expected by the rule's distribution {esperado:.1f}, of them {forzados} that no factor moves); "
          f"Spearman {rho:.4f} (the 2-digit rounding alone: {rho_gen:.4f})")
    assert fijos <= esperado + 4 * esperado ** 0.5, f"{fijos} unchanged, {esperado:.1f} expected"
    assert rho <= rho_gen, f"Spearman {rho} above what the generalisation keeps ({rho_gen})"
