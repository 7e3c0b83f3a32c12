"""`datoteca riesgo` (docs/enmascarar.md, "Measuring the risk: datoteca riesgo") on the shipped sample
(ejemplos/enmascarar/) and on a schema's output (esquemas/banco.toml, fewer rows), each masked by the CLI
under a random key of this run (never the published test key), the key in a file of mode 0600.

The k-anonymity distribution and the linkage rate are recomputed here in plain Python from the same files
(csv and collections, not the library) and compared number by number with the JSON report. The report
holds integers only, its keys in a fixed order, and no value of the original; its messages never repeat a
path. Failures name the table, the columns and the number that differs."""
import collections
import csv
import datetime
import io
import json
import os
import subprocess

import pytest

from conftest import ROOT

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
MUESTRA = os.path.join(ROOT, "ejemplos", "enmascarar")

CLAVES_INFORME = ["tabla", "filas", "cuasi_identificadores", "k_anonimato", "enlace", "valores_originales"]
CLAVES_K = ["clases", "k_min", "k_max", "clases_por_tamano", "filas_unicas", "filas_k_menor_5", "riesgo_medio",
            "no_generalizados", "tamanos"]
CLAVES_ENLACE = ["columnas", "modo", "filas_con_par", "filas_sin_par", "enmascaradas_sin_par", "unicas",
                 "reidentificadas"]


def _clave_archivo(d):
    """A fresh random key in a file only its owner can read."""
    ruta = d / "clave.hex"
    fd = os.open(ruta, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(os.urandom(32).hex() + "\n")
    return ruta


def _enmascarar(d, clave, reglas, entrada, nombre):
    salida = d / f"{nombre}.enmascarado.csv"
    p = subprocess.run([CLI, "enmascarar", "--reglas", str(reglas), "--clave-archivo", str(clave), "--entrada",
                        str(entrada), "--salida", str(salida)], capture_output=True, text=True)
    assert p.returncode == 0, f"enmascarar {nombre}: exit {p.returncode}: {p.stderr}"
    return salida


def _riesgo(*args, formato="json"):
    p = subprocess.run([CLI, "riesgo", *map(str, args), "--formato", formato], capture_output=True, text=True)
    assert p.returncode == 0, f"riesgo {args}: exit {p.returncode}: {p.stderr}"
    return p.stdout


def _leer(ruta):
    with open(ruta, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _gen(valor, g):
    """The generalisations of the report, written again from their documentation."""
    v = valor.strip(" \t")
    if g is None:
        return v
    if g in ("anio", "mes"):
        if len(v) >= 10 and v[4] == "-" and v[7] == "-":
            return v[:4] if g == "anio" else v[:7]
        return v
    ancho = int(g)
    limpio = v.replace(".", "").replace("$", "").replace(" ", "")
    try:
        x = int(limpio)
    except ValueError:
        return v
    return str((x // ancho) * ancho)


def _spec(s):
    nombre, _, g = s.rpartition(":")
    if nombre and (g in ("anio", "mes") or g.isdigit()):
        return nombre, g
    return s, None


def _por_mil(n, de):
    return 0 if de == 0 else (n * 2000 // de + 1) // 2


def _tasa(n, de):
    return {"n": n, "de": de, "por_mil": _por_mil(n, de)}


def _k_esperado(filas, qi):
    specs = [_spec(q) for q in qi]
    clases = collections.Counter(tuple(_gen(f[c], g) for c, g in specs) for f in filas)
    tam = sorted(clases.values())
    n = len(filas)
    grupos = {"1": 0, "2": 0, "3-4": 0, "5-9": 0, "10+": 0}
    for t in tam:
        grupos["1" if t == 1 else "2" if t == 2 else "3-4" if t <= 4 else "5-9" if t <= 9 else "10+"] += 1
    return {
        "clases": len(tam), "k_min": tam[0], "k_max": tam[-1], "clases_por_tamano": grupos,
        "filas_unicas": _tasa(sum(1 for t in tam if t == 1), n),
        "filas_k_menor_5": _tasa(sum(t for t in tam if t < 5), n),
        "riesgo_medio": _tasa(len(tam), n),
        "tamanos": [[t, c] for t, c in sorted(collections.Counter(tam).items())],
    }


def _enlace_esperado(orig, masc, enlace):
    """Modo igual: for each original row with both values, how many masked rows hold its pair as
    generalised; unique when exactly one, re-identified when that one is its own row."""
    specs = [_spec(e) for e in enlace]

    def par(f):
        vs = [f[c].strip(" \t") for c, _ in specs]
        if any(v == "" for v in vs):
            return None
        return tuple(_gen(f[c], g) for c, g in specs)

    pm = [par(f) for f in masc]
    cuenta = collections.Counter(p for p in pm if p is not None)
    con_par = unicas = reid = sin_par = 0
    for i, f in enumerate(orig):
        p = par(f)
        if p is None:
            sin_par += 1
            continue
        con_par += 1
        if cuenta[p] == 1:
            unicas += 1
            if pm[i] == p:
                reid += 1
    return {"filas_con_par": con_par, "filas_sin_par": sin_par, "unicas": _tasa(unicas, con_par),
            "reidentificadas": _tasa(reid, con_par)}


def _solo_enteros(x, donde="informe"):
    if isinstance(x, dict):
        for k, v in x.items():
            _solo_enteros(v, f"{donde}.{k}")
    elif isinstance(x, list):
        for i, v in enumerate(x):
            _solo_enteros(v, f"{donde}[{i}]")
    else:
        assert x is None or isinstance(x, (int, str)) and not isinstance(x, bool), f"{donde} is {x!r}, not an integer"


def _comparar(nombre, informe, esperado_k, esperado_enl):
    k = informe["k_anonimato"]
    for clave, v in esperado_k.items():
        assert k[clave] == v, f"{nombre}: k_anonimato.{clave}: report {k[clave]}, recomputed {v}"
    if esperado_enl is not None:
        e = informe["enlace"]
        for clave, v in esperado_enl.items():
            assert e[clave] == v, f"{nombre}: enlace.{clave}: report {e[clave]}, recomputed {v}"


@pytest.fixture(scope="module")
def muestra(tmp_path_factory):
    d = tmp_path_factory.mktemp("riesgo")
    clave = _clave_archivo(d)
    out = {}
    for t in ["clientes", "cuentas"]:
        orig = os.path.join(MUESTRA, f"{t}.csv")
        out[t] = (orig, _enmascarar(d, clave, os.path.join(MUESTRA, f"reglas-{t}.toml"), orig, t))
    out["dir"] = d
    return out


QI_CLIENTES = ["comuna", "sexo", "fecha_nacimiento:anio"]


def test_sample_k_anonymity_and_linkage_match_a_recount(muestra):
    orig, masc = muestra["clientes"]
    enlace = ["ingreso_mensual:100000", "fecha_alta:anio"]
    salida = _riesgo("--entrada", masc, "--original", orig, "--qi", ",".join(QI_CLIENTES), "--enlace", ",".join(enlace),
                     "--tabla", "clientes")
    informe = json.loads(salida)
    assert list(informe) == CLAVES_INFORME, list(informe)
    assert list(informe["k_anonimato"]) == CLAVES_K, list(informe["k_anonimato"])
    assert list(informe["enlace"]) == CLAVES_ENLACE, list(informe["enlace"])
    _solo_enteros(informe)
    filas_o, filas_m = _leer(orig), _leer(masc)
    assert informe["filas"] == len(filas_m) == 300
    _comparar("clientes", informe, _k_esperado(filas_m, QI_CLIENTES), _enlace_esperado(filas_o, filas_m, enlace))
    # the masked personas are new people: their comuna, sex and birth year single nearly everyone out,
    # as the real ones would (a k of 1 is a property of the QIs on 300 rows, not of the masking)
    assert informe["k_anonimato"]["k_min"] == 1


def test_sample_linkage_of_the_salary_and_the_date_moved_per_entity(muestra):
    """The issue's attack on one row: with the rules shipped, the salary keeps its per-person factor
    and the date its per-person shift, but the two are moved by different keys: exact values do not link.
    Generalised to the year and to buckets, most of them do."""
    orig, masc = muestra["clientes"]
    filas_o, filas_m = _leer(orig), _leer(masc)
    for enlace in (["ingreso_mensual", "fecha_alta"], ["ingreso_mensual:100000", "fecha_alta:anio"]):
        informe = json.loads(_riesgo("--entrada", masc, "--original", orig, "--enlace", ",".join(enlace)))
        esperado = _enlace_esperado(filas_o, filas_m, enlace)
        for clave, v in esperado.items():
            assert informe["enlace"][clave] == v, f"{enlace}: {clave}: report {informe['enlace'][clave]}, recomputed {v}"


def test_sample_original_values_found_and_never_printed(muestra):
    orig, masc = muestra["cuentas"]
    salida = subprocess.run([CLI, "riesgo", "--entrada", str(masc), "--original", orig, "--qi", "banco,tipo_cuenta",
                             "--personales", "rut_titular,numero"], capture_output=True, text=True)
    assert salida.returncode == 0, salida.stderr
    informe = json.loads(salida.stdout)
    filas_o = _leer(orig)
    hallados = {(e["columna"], e["de_columna_original"]): e for e in informe["valores_originales"]["encontrados"]}
    # numero is masked by the shipped rules (derivado: each account number permuted as a RUT body, so a
    # CuentaRUT's is its holder's masked body): no masked row holds its own original account number
    n = hallados.get(("numero", "numero"), {"misma_fila": 0})
    assert n["misma_fila"] == 0, f"numero holds its own row's original account number: {n}"
    # the RUTs are masked: no masked row holds its own holder's RUT
    for (col, de), e in hallados.items():
        if de == "rut_titular":
            assert e["misma_fila"] == 0, f"{col} holds its own row's original rut_titular: {e}"
    todo = salida.stdout + salida.stderr
    for f in filas_o:
        for v in (f["rut_titular"], f["rut_titular"].replace(".", "")):
            assert v not in todo, "the report printed an original RUT"


def test_jsonl_input_gives_the_csv_s_report(muestra, tmp_path):
    orig, masc = muestra["clientes"]
    for ruta, nombre in ((orig, "o"), (masc, "m")):
        with open(tmp_path / f"{nombre}.jsonl", "w", encoding="utf-8") as f:
            for fila in _leer(ruta):
                f.write(json.dumps(fila, ensure_ascii=False) + "\n")
    args = ["--qi", ",".join(QI_CLIENTES), "--enlace", "fecha_nacimiento,fecha_alta", "--enlace-modo", "diferencia"]
    a = _riesgo("--entrada", masc, "--original", orig, *args)
    b = _riesgo("--entrada", tmp_path / "m.jsonl", "--original", tmp_path / "o.jsonl", *args)
    assert a == b, f"CSV: {a}\nJSONL: {b}"


def test_text_summary(muestra):
    orig, masc = muestra["clientes"]
    p = subprocess.run([CLI, "riesgo", "--entrada", str(masc), "--qi", "comuna,sexo"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    json.loads(p.stdout)
    assert "k-anonymity over comuna, sexo:" in p.stderr and "unique rows:" in p.stderr, p.stderr
    t = _riesgo("--entrada", masc, "--qi", "comuna,sexo", formato="texto")
    assert t.startswith("datoteca riesgo: entrada, 300 rows\n"), t


def test_refusals_never_echo_a_path_or_a_cell(muestra, tmp_path):
    orig, masc = muestra["clientes"]
    secreto = "e340486e" + "ab" * 28
    for args in (["--entrada", secreto, "--qi", "comuna"],
                 ["--entrada", str(masc), "--original", secreto, "--enlace", "a,b"]):
        p = subprocess.run([CLI, "riesgo", *args], capture_output=True, text=True)
        assert p.returncode == 2 and secreto not in p.stderr and "given" in p.stderr, p.stderr
    # a file without its header line: the first row is read as the header, and no cell of it is said
    with open(orig, encoding="utf-8") as f:
        sin_cabecera = "".join(f.readlines()[1:])
    (tmp_path / "sin.csv").write_text(sin_cabecera, encoding="utf-8")
    p = subprocess.run([CLI, "riesgo", "--entrada", str(tmp_path / "sin.csv"), "--qi", "comuna"], capture_output=True, text=True)
    primera = sin_cabecera.splitlines()[0].split(",")
    assert p.returncode == 2 and "comuna" in p.stderr, p.stderr
    for celda in primera:
        if len(celda) > 3:
            assert celda not in p.stderr, "a cell of the first row was printed"
    # the two files must be the same rows
    corto = tmp_path / "corto.csv"
    with open(orig, encoding="utf-8") as f:
        corto.write_text("".join(f.readlines()[:10]), encoding="utf-8")
    p = subprocess.run([CLI, "riesgo", "--entrada", str(masc), "--original", str(corto), "--enlace", "fecha_alta,sexo"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "more rows than the original given" in p.stderr, p.stderr


def test_schema_output(tmp_path):
    """esquemas/banco.toml with 2,000 clientes: its CSVs (one per table), masked with the rules
    `datoteca detectar` proposes, then measured table by table."""
    with open(os.path.join(ROOT, "esquemas", "banco.toml"), encoding="utf-8") as f:
        texto = f.read()
    assert "filas = 50000" in texto
    (tmp_path / "banco.toml").write_text(texto.replace("filas = 50000", "filas = 2000", 1), encoding="utf-8")
    p = subprocess.run([CLI, "esquema", str(tmp_path / "banco.toml"), "--formato", "csv", "--seed", "7", "--salida",
                        str(tmp_path / "banco")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    clave = _clave_archivo(tmp_path)
    for tabla, qi, enlace in (("clientes", ["comuna", "fecha_nacimiento:anio"], ["fecha_nacimiento:anio", "comuna"]),
                              ("cuentas", ["banco", "tipo_cuenta", "apertura:mes"], ["numero", "apertura:anio"])):
        orig = tmp_path / "banco" / f"{tabla}.csv"
        reglas = tmp_path / f"{tabla}.toml"
        p = subprocess.run([CLI, "detectar", str(orig)], capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        reglas.write_text(p.stdout, encoding="utf-8")
        masc = _enmascarar(tmp_path, clave, reglas, orig, tabla)
        informe = json.loads(_riesgo("--entrada", masc, "--original", orig, "--qi", ",".join(qi), "--enlace",
                                     ",".join(enlace), "--tabla", tabla))
        filas_o, filas_m = _leer(orig), _leer(masc)
        assert informe["tabla"] == tabla and informe["filas"] == len(filas_m) > 0
        _comparar(tabla, informe, _k_esperado(filas_m, qi), _enlace_esperado(filas_o, filas_m, enlace))
        _solo_enteros(informe)


@pytest.mark.parametrize("jsonl,jobs", [(False, 1), (True, 2)])
def test_enmascarar_prints_the_report_when_asked(muestra, tmp_path, jsonl, jobs):
    """`enmascarar --riesgo`: the output bytes are those without it, and the summary on stderr is
    `datoteca riesgo --formato texto` over the output and its input."""
    orig, masc = muestra["clientes"]
    entrada = orig
    if jsonl:
        entrada = tmp_path / "clientes.jsonl"
        with open(entrada, "w", encoding="utf-8") as f:
            for fila in _leer(orig):
                f.write(json.dumps(fila, ensure_ascii=False) + "\n")
    clave = muestra["dir"] / "clave.hex"
    base = [CLI, "enmascarar", "--reglas", os.path.join(MUESTRA, "reglas-clientes.toml"), "--clave-archivo", str(clave),
            "--entrada", str(entrada), "--jobs", str(jobs)]
    sin = subprocess.run(base, capture_output=True)
    con = subprocess.run(base + ["--riesgo", ",".join(QI_CLIENTES), "--riesgo-enlace", "ingreso_mensual:100000,fecha_alta:anio"],
                         capture_output=True)
    assert sin.returncode == 0 and con.returncode == 0, con.stderr.decode()
    assert con.stdout == sin.stdout, "--riesgo changed the masked output"
    salida = tmp_path / ("salida.jsonl" if jsonl else "salida.csv")
    salida.write_bytes(con.stdout)
    esperado = _riesgo("--entrada", salida, "--original", entrada, "--qi", ",".join(QI_CLIENTES), "--enlace",
                       "ingreso_mensual:100000,fecha_alta:anio", "--tabla", "salida", formato="texto")
    assert con.stderr.decode() == esperado, f"enmascarar --riesgo:\n{con.stderr.decode()}\ndatoteca riesgo:\n{esperado}"
    mal = subprocess.run(base + ["--riesgo", "no_existe"], capture_output=True, text=True)
    assert mal.returncode == 2 and "no_existe" in mal.stderr and mal.stdout == "", mal.stderr


def test_python_riesgo_gives_the_cli_s_report(muestra):
    """datoteca.riesgo() hands the rows to the same C accumulator: the same dict as the CLI's JSON."""
    import datoteca

    orig, masc = muestra["clientes"]
    filas_o, filas_m = _leer(orig), _leer(masc)
    args = dict(qi=QI_CLIENTES, enlace=["ingreso_mensual:100000", "fecha_alta:anio"], personales=["rut", "email"],
                tabla="clientes")
    py = datoteca.riesgo(filas_m, original=filas_o, **args)
    cli = json.loads(_riesgo("--entrada", masc, "--original", orig, "--qi", ",".join(QI_CLIENTES), "--enlace",
                             "ingreso_mensual:100000,fecha_alta:anio", "--personales", "rut,email", "--tabla", "clientes"))
    assert py == cli
    assert datoteca.riesgo(filas_m, qi=["comuna"])["k_anonimato"] == _riesgo_k(masc, "comuna")
    with pytest.raises(datoteca.InvalidArgumentError, match="no_existe"):
        datoteca.riesgo(filas_m, qi=["no_existe"])
    with pytest.raises(datoteca.InvalidArgumentError, match="same rows"):
        datoteca.riesgo(filas_m, original=filas_o[:5], enlace=["sexo", "comuna"])


def _riesgo_k(masc, qi):
    return json.loads(_riesgo("--entrada", masc, "--qi", qi))["k_anonimato"]


def _enlace_diferencia(orig, masc, a, b):
    """Modo diferencia, recounted: the gap in days between two ISO dates."""
    def gap(f):
        try:
            x, y = (datetime.date.fromisoformat(f[c].strip()) for c in (a, b))
        except ValueError:
            return None
        return (y - x).days

    gm = [gap(f) for f in masc]
    cuenta = collections.Counter(g for g in gm if g is not None)
    con = unicas = reid = 0
    for i, f in enumerate(orig):
        g = gap(f)
        if g is None:
            continue
        con += 1
        if cuenta[g] == 1:
            unicas += 1
            reid += gm[i] == g
    return {"filas_con_par": con, "unicas": _tasa(unicas, con), "reidentificadas": _tasa(reid, con)}


def test_sample_the_issue_s_date_gap_attack(muestra):
    """A birth date and a date of joining, matched by their gap: what a per-entity shift of both keeps.
    The original against itself is what that masking would leave; the shipped rules replace the birth
    date with the persona's."""
    orig, masc = muestra["clientes"]
    filas_o, filas_m = _leer(orig), _leer(masc)
    for nombre, contra, filas_c in (("original", orig, filas_o), ("masked", masc, filas_m)):
        informe = json.loads(_riesgo("--entrada", contra, "--original", orig, "--enlace", "fecha_nacimiento,fecha_alta",
                                     "--enlace-modo", "diferencia"))
        esperado = _enlace_diferencia(filas_o, filas_c, "fecha_nacimiento", "fecha_alta")
        for clave, v in esperado.items():
            assert informe["enlace"][clave] == v, f"{nombre}: {clave}: report {informe['enlace'][clave]}, recomputed {v}"
        if nombre == "original":
            assert informe["enlace"]["reidentificadas"]["por_mil"] > 950, informe["enlace"]
        else:
            assert informe["enlace"]["reidentificadas"]["n"] <= 3, informe["enlace"]
