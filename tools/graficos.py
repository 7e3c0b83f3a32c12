#!/usr/bin/env python3
"""Draw the library's own output against the official tables in c/data/ as SVG in docs/img/.

`python tools/graficos.py` writes the four charts; `--check` draws them in memory and exits 1
naming the committed files that differ (tests/python/test_graficos.py runs it in `make test`).

Both sides are shares (fractions), so they sit on one scale: the generated side is N rows of a
dataset with a fixed seed and reference date, the official side is read from the CSVs with the
csv module. The bytes depend only on the data and on the pinned matplotlib (pyproject.toml's
`test` extra): its defaults (no matplotlibrc), a fixed hash salt, text kept as text, no date.
"""
import bisect
import csv
import datetime
import io
import os
import sys
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "c", "data")
IMG = os.path.join(ROOT, "docs", "img")

MATPLOTLIB = "3.11.2"  # the pin in pyproject.toml: another version draws other bytes
SEED = 1
N = 100_000
HOY = datetime.date(2026, 1, 1)  # the library's default reference date, explicit so the charts never move with it
DESCUENTOS_POR_MIL = 187  # sueldos.csv: "IMM bruto 500.000 menos 18,7% de descuentos legales = 406.500"
TOP_COMUNAS = 25

GENERADO = "#1f77b4"
OFICIAL = "#d62728"


def _csv(name):
    with open(os.path.join(DATA, name), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _filas(call, campos=None, **kwargs):
    import datoteca

    return datoteca.Tabla(call, seed=SEED, hoy=HOY, campos=campos, **kwargs).filas(N)


def _edad(fecha):
    # str() first: a date column may come back as ISO text or as a date object
    nacido = datetime.date.fromisoformat(str(fecha)[:10])
    return HOY.year - nacido.year - ((HOY.month, HOY.day) < (nacido.month, nacido.day))


def _pie(fig, texto):
    fig.text(0.01, 0.01, texto, fontsize=7.5, color="#444444", ha="left", va="bottom", wrap=True)


def piramide(plt):
    """Persona records (default ages 18–80) by sex and age vs INE's 2026 projection of those ages."""
    filas = _filas("persona.persona", campos=["sexo", "fecha_nacimiento"])
    generado = Counter((f["sexo"], _edad(f["fecha_nacimiento"])) for f in filas)
    ine = {int(r["edad"]): (int(r["hombres"]), int(r["mujeres"])) for r in _csv("edades.csv") if r["edad_abierta"] == "no"}
    edades = list(range(18, 81))
    total_ine = sum(sum(ine[e]) for e in edades)
    fig, ax = plt.subplots(figsize=(8, 8))
    hombres = [-generado[("M", e)] / N for e in edades]
    mujeres = [generado[("F", e)] / N for e in edades]
    ax.barh(edades, hombres, height=1.0, color="#8fb8de", label=f"persona.persona, seed {SEED}, n = {N:,}")
    ax.barh(edades, mujeres, height=1.0, color="#bdd7ee")
    bordes = edades + [81]
    ax.stairs([-ine[e][0] / total_ine for e in edades], [b - 0.5 for b in bordes], orientation="horizontal",
              color=OFICIAL, linewidth=1.4, label="INE projection 2026 (base Censo 2017)")
    ax.stairs([ine[e][1] / total_ine for e in edades], [b - 0.5 for b in bordes], orientation="horizontal",
              color=OFICIAL, linewidth=1.4)
    tope = 0.0135
    ax.set_xlim(-tope, tope)
    ax.set_ylim(17.5, 80.5)
    marcas = [-0.012, -0.008, -0.004, 0, 0.004, 0.008, 0.012]
    ax.set_xticks(marcas, [f"{abs(m):.1%}" for m in marcas])
    ax.set_yticks(range(20, 81, 5))
    ax.axvline(0, color="black", linewidth=0.6)
    ax.text(-tope * 0.97, 79, "hombres", ha="left", va="center", fontsize=11)
    ax.text(tope * 0.97, 79, "mujeres", ha="right", va="center", fontsize=11)
    ax.set_xlabel("share of everyone aged 18–80 (both sexes)")
    ax.set_ylabel(f"age on {HOY.isoformat()}")
    ax.set_title("Age pyramid: persona records aged 18–80 vs INE's population of those ages")
    # below the axes: inside, every corner holds bars
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.075), ncol=2, fontsize=9, frameon=False)
    ax.grid(axis="x", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    _pie(fig, "Official: c/data/edades.csv, INE Estimaciones y proyecciones 1992–2050 base Censo 2017, year 2026, "
              "hombres and mujeres by single year of age.")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


def comunas(plt):
    """Persona records per comuna vs the comuna's share of Censo 2017's population."""
    filas = _filas("persona.persona", campos=["codigo_comuna"])
    generado = Counter(f["codigo_comuna"] for f in filas)
    censo = {r["codigo_cut"]: (r["nombre"], int(r["poblacion_censo_2017"])) for r in _csv("comunas.csv")}
    total = sum(p for _, p in censo.values())
    orden = sorted(censo, key=lambda c: (-censo[c][1], c))
    fig, (izq, der) = plt.subplots(1, 2, figsize=(12, 8), gridspec_kw={"width_ratios": [1, 1.15]})

    con = [c for c in orden if generado[c]]
    sin = len(orden) - len(con)
    x = [censo[c][1] / total for c in con]
    izq.scatter(x, [generado[c] / N for c in con], s=9, color=GENERADO, alpha=0.7, linewidths=0,
                label=f"one comuna ({len(con)} of {len(orden)})")
    lim = (5e-6, 0.05)  # one record (1e-5) stays inside the frame
    izq.plot(lim, lim, color=OFICIAL, linewidth=1, label="same share as the Censo")
    izq.set_xscale("log")
    izq.set_yscale("log")
    izq.set_xlim(*lim)
    izq.set_ylim(*lim)
    izq.set_aspect("equal")
    izq.set_xlabel("share of Censo 2017 population")
    izq.set_ylabel(f"share of {N:,} persona records")
    izq.set_title("Every comuna (log scales)", fontsize=11)
    leyenda = izq.legend(loc="upper left", fontsize=9, frameon=False)
    if sin:
        leyenda.set_title(f"{sin} comuna{'s' if sin > 1 else ''} with no record not shown", prop={"size": 8})
    izq.grid(color="#eeeeee", linewidth=0.6)

    top = orden[:TOP_COMUNAS]
    y = list(range(len(top)))
    alto = 0.4
    der.barh([i - alto / 2 for i in y], [generado[c] / N for c in top], height=alto, color=GENERADO,
             label=f"persona.persona, seed {SEED}, n = {N:,}")
    der.barh([i + alto / 2 for i in y], [censo[c][1] / total for c in top], height=alto, color=OFICIAL,
             label="Censo 2017 population")
    der.set_yticks(y, [censo[c][0] for c in top], fontsize=8.5)
    der.invert_yaxis()
    der.xaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:.1%}"))
    der.set_xlabel("share")
    der.set_title(f"The {TOP_COMUNAS} most populous comunas", fontsize=11)
    der.legend(loc="lower right", fontsize=9, frameon=False)
    der.grid(axis="x", color="#dddddd", linewidth=0.6)
    der.set_axisbelow(True)

    fig.suptitle("Comunas: the comuna of persona records vs each comuna's share of Censo 2017's population")
    _pie(fig, "Official: c/data/comunas.csv, poblacion_censo_2017 of the 346 comunas (INE Censo 2017, total "
              f"{total:,}).")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


def _bruto(neto):
    # the ESI counts net income; dinero.sueldo makes gross salaries: net / (1 − 18.7 %) to the nearest 1,000
    neto_por_mil = 1000 - DESCUENTOS_POR_MIL  # net / (neto_por_mil / 1000), in thousands: net / neto_por_mil
    return (2 * neto + neto_por_mil) // (2 * neto_por_mil) * 1000


def _esi():
    """ESI 2024's total figures as (gross edge, share at or below it), and the minimum wage on HOY."""
    filas = _csv("sueldos.csv")
    esi = {r["indicador"]: r for r in filas if r["serie"] == "esi" and r["anio"] == "2024" and r["grupo"] == "total"}
    puntos = [
        (_bruto(int(esi["mediana"]["valor_clp"])), 0.5, "median"),
        (_bruto(int(esi["media"]["valor_clp"])), float(esi["pct_ocupados_ingreso<=media"]["porcentaje"]) / 100, "mean"),
        (_bruto(3_000_000), 1 - float(esi["pct_ocupados_>=3000000"]["porcentaje"]) / 100, "3.000.000 net"),
        (_bruto(4_500_000), 1 - float(esi["pct_ocupados_>4500000"]["porcentaje"]) / 100, "4.500.000 net"),
    ]
    minimo = max((r["vigente_desde"], int(r["valor_clp"])) for r in filas
                 if r["serie"] == "ingreso_minimo_mensual" and r["vigente_desde"] <= HOY.isoformat())[1]
    return puntos, minimo


def _miles(v):
    return f"{int(v):,}".replace(",", ".")


def sueldos(plt):
    """dinero.sueldo vs ESI 2024's median, mean and top shares turned gross: bands and the cumulative share."""
    valores = sorted(int(f["sueldo"]) for f in _filas("dinero.sueldo"))
    puntos, minimo = _esi()
    fig, (izq, der) = plt.subplots(1, 2, figsize=(12, 6), gridspec_kw={"width_ratios": [1, 1.2]})

    bordes = [p[0] for p in puntos]
    acumulado = [p[1] for p in puntos]
    esi_bandas = [b - a for a, b in zip([0.0] + acumulado, acumulado + [1.0])]
    contados = [bisect.bisect_right(valores, b) for b in bordes]
    gen_bandas = [(b - a) / N for a, b in zip([0] + contados, contados + [N])]
    etiquetas = [f"≤ {_miles(bordes[0])}"] + [f"{_miles(a + 1000)}–\n{_miles(b)}" for a, b in zip(bordes, bordes[1:])] + \
                [f"> {_miles(bordes[-1])}"]
    x = list(range(len(etiquetas)))
    ancho = 0.4
    izq.bar([i - ancho / 2 for i in x], gen_bandas, width=ancho, color=GENERADO, label=f"dinero.sueldo, seed {SEED}, n = {N:,}")
    izq.bar([i + ancho / 2 for i in x], esi_bandas, width=ancho, color=OFICIAL, label="ESI 2024, turned gross")
    for i, (g, e) in enumerate(zip(gen_bandas, esi_bandas)):
        izq.text(i - ancho / 2, g + 0.005, f"{g:.1%}", ha="center", va="bottom", fontsize=6.5)
        izq.text(i + ancho / 2, e + 0.005, f"{e:.1%}", ha="center", va="bottom", fontsize=6.5)
    izq.set_xticks(x, etiquetas, fontsize=8)
    izq.set_xlabel("gross monthly salary band (CLP)")
    izq.set_ylabel("share of salaries")
    izq.yaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:.0%}"))
    izq.set_title("Shares in the ESI's bands", fontsize=11)
    izq.legend(loc="upper right", fontsize=9, frameon=False)
    izq.set_axisbelow(True)
    izq.grid(axis="y", color="#dddddd", linewidth=0.6)

    # one step per distinct salary (they are multiples of 1,000): the same curve as every value, a smaller file
    distintos = sorted(set(valores))
    ys = [bisect.bisect_right(valores, v) / N for v in distintos]
    der.step(distintos, ys, where="post", color=GENERADO, linewidth=1.4, label=f"dinero.sueldo, seed {SEED}, n = {N:,}")
    der.scatter(bordes, acumulado, color=OFICIAL, zorder=3, s=30, label="ESI 2024 (net figures turned gross)")
    for i, (b, a, nombre) in enumerate(puntos):
        texto = f"{nombre}: {_miles(b)}, {a:.1%}"
        if a < 0.9:
            der.annotate(texto, (b, a), xytext=(8, -14), textcoords="offset points", fontsize=8, color=OFICIAL)
        else:  # the two top points are too close for labels beside them: the labels go under the curve
            der.annotate(texto, (b, a), xytext=(0.5, 0.80 - 0.07 * (i - 2)), textcoords="axes fraction", fontsize=8,
                         color=OFICIAL, arrowprops={"arrowstyle": "-", "color": OFICIAL, "linewidth": 0.6})
    der.axvline(minimo, color="#555555", linestyle="--", linewidth=0.9)
    der.text(minimo * 1.04, 0.9, f"minimum wage on\n{HOY.isoformat()}: {_miles(minimo)}", fontsize=8, color="#555555")
    der.set_xscale("log")
    der.set_xlim(400_000, 10_000_000)
    der.set_ylim(0, 1.02)
    der.set_xticks([500_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000],
                   ["500.000", "1.000.000", "2.000.000", "5.000.000", "10.000.000"])
    der.minorticks_off()
    der.yaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:.0%}"))
    der.set_xlabel("gross monthly salary (CLP, log scale)")
    der.set_ylabel("share of salaries at or below")
    der.set_title("Cumulative share", fontsize=11)
    der.legend(loc="lower right", fontsize=9, frameon=False)
    der.grid(color="#eeeeee", linewidth=0.6)

    fig.suptitle("Salaries: dinero.sueldo vs INE's ESI 2024 (net income of the main job turned gross)")
    _pie(fig, "Official: c/data/sueldos.csv, INE Encuesta Suplementaria de Ingresos 2024 (published 2025-08-11): median "
              "611.162 and mean 897.019 net, 68.3 % at or below the mean, 3.3 % from 3.000.000 and 1.2 % above 4.500.000 "
              f"net; gross = net / (1 − {DESCUENTOS_POR_MIL / 10:.1f} %), the legal deductions the source states, to the "
              "nearest 1.000. Minimum wage: Ley 21.751.")
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


def afp(plt):
    """prevision.afp vs each AFP's share of contributors."""
    generado = Counter(f["afp"] for f in _filas("prevision.afp"))
    filas = [r for r in _csv("prevision.csv") if r["tipo"] == "afp"]
    total = sum(int(r["cotizantes"]) for r in filas)
    filas.sort(key=lambda r: (-int(r["cotizantes"]), r["nombre"]))
    nombres = [f"{r['nombre']} ({r['fecha_cotizantes']})" for r in filas]
    oficial = [int(r["cotizantes"]) / total for r in filas]
    gen = [generado[r["nombre"]] / N for r in filas]
    fig, ax = plt.subplots(figsize=(8, 5))
    y = list(range(len(filas)))
    alto = 0.4
    ax.barh([i - alto / 2 for i in y], gen, height=alto, color=GENERADO, label=f"prevision.afp, seed {SEED}, n = {N:,}")
    ax.barh([i + alto / 2 for i in y], oficial, height=alto, color=OFICIAL, label="share of contributors (cotizantes)")
    for i, (g, o) in enumerate(zip(gen, oficial)):
        ax.text(max(g, o) + 0.003, i, f"{g:.1%} / {o:.1%}", va="center", fontsize=8)
    ax.set_yticks(y, nombres)
    ax.invert_yaxis()
    ax.set_xlim(0, 0.27)
    ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:.0%}"))
    ax.set_xlabel("share")
    ax.set_title("AFPs: prevision.afp vs each AFP's share of contributors")
    ax.legend(loc="lower right", fontsize=9, frameon=False)
    ax.grid(axis="x", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    _pie(fig, "Official: c/data/prevision.csv, cotizantes by AFP, Superintendencia de Pensiones via DF/Ciedess, July 2023 "
              "(PlanVital: December 2025).")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


GRAFICOS = {
    "piramide_edades.svg": piramide,
    "comunas_poblacion.svg": comunas,
    "sueldos_esi.svg": sueldos,
    "afp_participacion.svg": afp,
}


def _matplotlib():
    import matplotlib

    if matplotlib.__version__ != MATPLOTLIB:
        sys.exit(f"tools/graficos.py: matplotlib {matplotlib.__version__} installed, the charts are drawn with "
                 f"{MATPLOTLIB} (pip install '.[test]')")
    matplotlib.use("svg")
    matplotlib.rcdefaults()  # a user's matplotlibrc must not change the bytes
    matplotlib.rcParams["svg.hashsalt"] = "datoteca"
    matplotlib.rcParams["svg.fonttype"] = "none"
    import matplotlib.pyplot as plt

    return plt


def dibujar(plt, nombre):
    fig = GRAFICOS[nombre](plt)
    out = io.BytesIO()
    fig.savefig(out, format="svg", metadata={"Date": None})
    plt.close(fig)
    return out.getvalue()


def main(argv):
    check = argv[1:] == ["--check"]
    if argv[1:] and not check:
        sys.exit("usage: tools/graficos.py [--check]")
    plt = _matplotlib()
    stale = []
    for nombre in sorted(GRAFICOS):
        path = os.path.join(IMG, nombre)
        svg = dibujar(plt, nombre)
        if check:
            try:
                with open(path, "rb") as f:
                    actual = f.read()
            except FileNotFoundError:
                actual = None
            if actual != svg:
                stale.append(f"docs/img/{nombre}")
        else:
            os.makedirs(IMG, exist_ok=True)
            with open(path, "wb") as f:
                f.write(svg)
            print(f"wrote docs/img/{nombre} ({len(svg):,} bytes)")
    if stale:
        print(f"stale: {', '.join(stale)} (run `make graficos`)", file=sys.stderr)
        return 1
    if check:
        print(f"docs/img: the {len(GRAFICOS)} charts are fresh")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
