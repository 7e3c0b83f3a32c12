#!/usr/bin/env python3
"""Generate c/src/ref/tablas.gen.c and c/src/ref/tablas.gen.h from the reference CSVs in c/data/.

The output is committed. `--check` regenerates in memory and fails if the committed
files differ (the C test suite runs it), so a CSV edit can never silently skip the C side.

Everything that decides data is integer arithmetic: frequencies are read as decimal
strings and turned into integers, weights are scaled with the largest-remainder method
to an exact power of two, and the alias tables are built with integers only. Table
order is CSV order; reordering a CSV changes the data and is a contract change.
"""
import csv
import os
import re
import sys
import tomllib
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "c", "data")
OUT_C = os.path.join(ROOT, "c", "src", "ref", "tablas.gen.c")
OUT_H = os.path.join(ROOT, "c", "src", "ref", "tablas.gen.h")


def read(name):
    """The rows of a CSV; each remembers its file and line for messages."""
    with open(os.path.join(DATA, name), encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        rows = []
        for row in reader:
            row["_donde"] = f"c/data/{name} line {reader.line_num}"
            rows.append(row)
        return rows


def record_widths():
    """(call, field) -> the size of that char array in its struct, NUL included (spec/llamadas.toml,
    where each is asserted against datoteca.h)."""
    with open(os.path.join(ROOT, "spec", "llamadas.toml"), "rb") as f:
        decl = tomllib.load(f)
    return {(ll["nombre"], c["nombre"]): c["ancho"] for ll in decl["llamada"] for c in ll.get("campos", [])}


def fits(rows, column, targets, widths, values=None):
    """Every value of `column` that the tables keep must fit each record field it is copied into
    (and a dt_t_str's uint8_t length). Refuse naming the CSV, the line, the column and the field."""
    longest = 0
    for i, row in enumerate(rows):
        value = values[i] if values is not None else row[column]
        n = blen(value)
        longest = max(longest, n)
        for call, field in targets:
            room = widths[(call, field)] - 1
            if n > min(room, 255):
                raise SystemExit(f"{row['_donde']}: {column} {value!r} is {n} bytes; the field {field} of "
                                 f"{call} holds at most {room} (its ancho in spec/llamadas.toml, the struct in datoteca.h)")
    return longest


def decimal_to_int(text, places):
    """'0.05357441' -> 5357441 for places=8, exactly, without floats."""
    whole, _, frac = text.strip().partition(".")
    frac = (frac + "0" * places)[:places]
    return int(whole or "0") * 10**places + int(frac or "0")


def scale_to_pow2(weights, k):
    """Scale integer weights so they sum to exactly 2**k (largest remainder, ties by index)."""
    total = sum(weights)
    target = 1 << k
    base = [w * target // total for w in weights]
    rema = [w * target % total for w in weights]
    short = target - sum(base)
    order = sorted(range(len(weights)), key=lambda i: (-rema[i], i))
    for i in order[:short]:
        base[i] += 1
    if min(base) < 1:
        raise SystemExit(f"weight scaled to 0 with k={k}; raise k")
    return base


def largest_k(n):
    """Largest k with n * 2**k < 2**32 (n << k must fit a uint32), so one bounded 32-bit
    draw covers column and coin."""
    k = 0
    while n * (1 << (k + 1)) < (1 << 32):
        k += 1
    return k


def alias_table(weights, k):
    """Vose's alias method in integers. Each of the n columns holds 2**k units."""
    n = len(weights)
    cap = 1 << k
    p = [w * n for w in weights]  # sum(p) == n * cap
    prob = [cap] * n
    alias = list(range(n))
    small = [i for i in range(n) if p[i] < cap]
    large = [i for i in range(n) if p[i] >= cap]
    small.reverse()
    large.reverse()
    while small and large:
        s = small.pop()
        l = large.pop()
        prob[s] = p[s]
        alias[s] = l
        p[l] -= cap - p[s]
        (small if p[l] < cap else large).append(l)
    for i in small + large:
        prob[i] = cap
        alias[i] = i
    return prob, alias


def cstr(s):
    out = []
    for b in s.encode("utf-8"):
        if b == 0x22 or b == 0x5C:
            out.append("\\" + chr(b))
        elif 0x20 <= b < 0x7F:
            out.append(chr(b))
        else:
            out.append("\\%03o" % b)
    return '"' + "".join(out) + '"'


def plegar(s):
    """A text folded as a cleaning pipeline compares it: accents and case dropped (NFD, marks out,
    upper). Only to refuse an abbreviation that would fold to a comuna's name."""
    return "".join(ch for ch in unicodedata.normalize("NFD", s) if not unicodedata.combining(ch)).upper()


def blen(s):
    return len(s.encode("utf-8"))


def ints(values, per_line=12):
    lines = []
    for i in range(0, len(values), per_line):
        lines.append("    " + ", ".join(str(v) + "u" for v in values[i:i + per_line]) + ",")
    return "\n".join(lines)


def strs(values):
    return "\n".join("    {%s, %d}," % (cstr(v), blen(v)) for v in values)


def slots16(values):
    for v in values:
        if blen(v) > 15:
            raise SystemExit(f"{v!r} does not fit a 16-byte slot")
    return "\n".join("    {%s}," % cstr(v) for v in values)


# Judgements, documented in docs/data.md: no source gives apartments per comuna or the comunas
# each of Santiago's avenues runs through.
URBANA_HABITANTES = 50000             # Censo 2017 inhabitants for a comuna to have deptos
GRAN_SANTIAGO_PROVINCIA = "131"       # province of Santiago (32 comunas)
GRAN_SANTIAGO_COMUNAS = {"13201", "13401"}  # Puente Alto, San Bernardo


def build():
    regiones = read("regiones.csv")
    provincias = read("provincias.csv")
    comunas = read("comunas.csv")
    nombres = read("nombres.csv")
    apellidos = read("apellidos.csv")
    calles = read("calles.csv")
    formato = read("direccion_formato.csv")
    dominios = read("dominios_email.csv")
    bancos = read("bancos.csv")
    formas = read("formas_juridicas.csv")
    giros = read("giros.csv")
    telefonos = read("telefonos_validos.csv")
    postales = {x["codigo_comuna"]: x for x in read("codigos_postales.csv")}
    pesos_dominios = read("dominios_email_pesos.csv")
    pesos_bancos = {x["codigo"]: x for x in read("bancos_peso.csv")}
    edades = read("edades.csv")
    sueldos = read("sueldos.csv")
    anchos = record_widths()

    h = []
    c = []
    h.append("/* GENERATED by tools/gen/tablas.py from the CSVs in c/data. Do not edit. */")
    h.append("#ifndef DT_TABLAS_H\n#define DT_TABLAS_H\n\n#include <stdint.h>\n")
    h.append("typedef struct dt_t_str { const char *s; uint8_t n; } dt_t_str;")
    h.append("typedef struct dt_t_slot { char s[16]; } dt_t_slot; /* NUL-padded, length <= 15 */")
    h.append("/* Alias table: one bounded draw r in [0, n << k); column r >> k, coin r & (2^k - 1). */")
    h.append("typedef struct dt_t_alias { uint32_t n; uint32_t k; const uint32_t *prob; const uint16_t *alias; } dt_t_alias;\n")
    c.append("/* GENERATED by tools/gen/tablas.py from the CSVs in c/data. Do not edit. */")
    c.append('#include "tablas.gen.h"\n#include "huella.h"\n')
    c.append("/* An alias table in a digest: n, k, then each column's threshold and alias. */")
    c.append("static uint64_t dt__huella_alias(uint64_t h, const dt_t_alias *a) {\n"
             "    h = dt__huella_u(dt__huella_u(h, a->n), a->k);\n"
             "    for (uint32_t i = 0; i < a->n; i++) h = dt__huella_u(dt__huella_u(h, a->prob[i]), a->alias[i]);\n"
             "    return h;\n}\n")
    tablas = []  # (name, rows expression): every table below, in this order, is in the fingerprint

    def huella(name, rows, count, body):
        """The digest walker of one table: `body` (C statements on row i) for i < count."""
        tablas.append((name, rows))
        c.append(f"static uint64_t dt__huella_{name}(uint64_t h) {{\n"
                 f"    for (uint32_t i = 0; i < {count}; i++) {{\n"
                 + "".join(f"        {line}\n" for line in body) +
                 "    }\n    return h;\n}\n")

    def emit_alias(name, weights_raw, k=None, public=True):
        n = len(weights_raw)
        k = largest_k(n) if k is None else k
        w = scale_to_pow2(weights_raw, k)
        prob, alias = alias_table(w, k)
        c.append(f"static const uint32_t {name}_prob[{n}] = {{\n{ints(prob)}\n}};")
        c.append(f"static const uint16_t {name}_alias[{n}] = {{\n{ints(alias)}\n}};")
        if public:
            c.append(f"const dt_t_alias {name} = {{{n}u, {k}u, {name}_prob, {name}_alias}};\n")
            h.append(f"extern const dt_t_alias {name};")

    # --- geography -------------------------------------------------------
    reg_code = [r["codigo_cut"] for r in regiones]
    prov_code = [p["codigo_cut"] for p in provincias]
    first, count, pop = {}, {}, {}
    for i, x in enumerate(comunas):
        rc = x["codigo_region"]
        if rc not in first:
            first[rc] = i
            count[rc] = 0
            pop[rc] = 0
        if i != first[rc] + count[rc]:
            raise SystemExit("comunas.csv must be grouped by region")
        count[rc] += 1
        pop[rc] += int(x["poblacion_censo_2017"])
        if x["codigo_cut"][:3] != x["codigo_provincia"] or x["codigo_provincia"][:2] != rc:
            raise SystemExit(f"CUT prefix mismatch in {x['codigo_cut']}")
    largo_region = fits(regiones, "nombre_oficial", [(c, "region") for c in ("direccion.direccion", "persona.persona", "empresa.empresa")], anchos)
    fits(provincias, "nombre", [("direccion.direccion", "provincia")], anchos)
    largo_comuna = fits(comunas, "nombre", [(c, "comuna") for c in ("direccion.direccion", "persona.persona", "empresa.empresa")], anchos)
    h.append(f"\n#define DT_T_N_REGIONES {len(regiones)}")
    h.append(f"#define DT_T_N_PROVINCIAS {len(provincias)}")
    h.append(f"#define DT_T_N_COMUNAS {len(comunas)}")
    h.append("/* Codes are also kept as text (cut), as they are written: formatting them per record is waste. */")
    h.append("typedef struct dt_t_region {\n    uint8_t codigo; uint16_t comuna_first, comuna_count; char cut[3];\n"
             "    dt_t_str nombre; dt_t_alias comunas; /* alias over this region's comunas */\n} dt_t_region;")
    h.append("typedef struct dt_t_provincia { uint8_t region; char cut[4]; dt_t_str nombre; } dt_t_provincia;")
    h.append("/* postal: the comuna's postal code (7 digits, codigos_postales.csv), or \"\" where no source has one.\n"
             " * zona: DT_T_ZONA_* flags (see below). */")
    h.append("typedef struct dt_t_comuna { uint16_t provincia; uint8_t region; uint8_t area; uint8_t zona; char cut[6]; char postal[8]; dt_t_str nombre; } dt_t_comuna;")
    h.append(f"/* A judgement (docs/data.md): addresses get a depto only in comunas of at least {URBANA_HABITANTES} inhabitants\n"
             " * (Censo 2017); Santiago's avenues only in Gran Santiago (the province of Santiago, Puente Alto, San Bernardo). */")
    h.append(f"#define DT_T_URBANA_HABITANTES {URBANA_HABITANTES}")
    h.append("#define DT_T_ZONA_URBANA 1u")
    h.append("#define DT_T_ZONA_GRAN_SANTIAGO 2u")
    h.append("extern const dt_t_region dt_t_regiones[DT_T_N_REGIONES];")
    h.append("extern const dt_t_provincia dt_t_provincias[DT_T_N_PROVINCIAS];")
    h.append("extern const dt_t_comuna dt_t_comunas[DT_T_N_COMUNAS];")

    region_rows = []
    for ri, r in enumerate(regiones):
        rc = r["codigo_cut"]
        ws = [int(x["poblacion_censo_2017"]) for x in comunas[first[rc]:first[rc] + count[rc]]]
        emit_alias(f"dt_t_comunas_r{rc}", ws, public=False)  # reached through dt_t_regiones only
        region_rows.append("    {%d, %d, %d, %s, {%s, %d}, {%du, %du, dt_t_comunas_r%s_prob, dt_t_comunas_r%s_alias}}," % (
            int(rc), first[rc], count[rc], cstr(rc), cstr(r["nombre_oficial"]), blen(r["nombre_oficial"]),
            count[rc], largest_k(count[rc]), rc, rc))
    c.append("const dt_t_region dt_t_regiones[DT_T_N_REGIONES] = {\n" + "\n".join(region_rows) + "\n};\n")
    emit_alias("dt_t_region_alias", [pop[rc] for rc in reg_code])
    c.append("const dt_t_provincia dt_t_provincias[DT_T_N_PROVINCIAS] = {\n" + "\n".join(
        "    {%d, %s, {%s, %d}}," % (reg_code.index(p["codigo_region"]), cstr(p["codigo_cut"]),
                                cstr(p["nombre"]), blen(p["nombre"]))
        for p in provincias) + "\n};\n")
    for x in comunas:
        postal = postales.get(x["codigo_cut"])
        if postal is None or postal["comuna"] != x["nombre"]:
            raise SystemExit(f"{x['_donde']}: comuna {x['codigo_cut']} {x['nombre']} has no row in codigos_postales.csv")
        if postal["codigo_postal_base"] and not (len(postal["codigo_postal_base"]) == 7 and postal["codigo_postal_base"].isdigit()):
            raise SystemExit(f"{postal['_donde']}: codigo_postal_base must be 7 digits or empty")
    def zona(x):
        z = 1 if int(x["poblacion_censo_2017"]) >= URBANA_HABITANTES else 0
        if x["codigo_provincia"] == GRAN_SANTIAGO_PROVINCIA or x["codigo_cut"] in GRAN_SANTIAGO_COMUNAS:
            z |= 2
        return z
    c.append("const dt_t_comuna dt_t_comunas[DT_T_N_COMUNAS] = {\n" + "\n".join(
        "    {%d, %d, %d, %d, %s, %s, {%s, %d}}," % (prov_code.index(x["codigo_provincia"]),
                                              reg_code.index(x["codigo_region"]), int(x["codigo_area_telefono"]), zona(x),
                                              cstr(x["codigo_cut"]), cstr(postales[x["codigo_cut"]]["codigo_postal_base"]),
                                              cstr(x["nombre"]), blen(x["nombre"]))
        for x in comunas) + "\n};\n")
    huella("regiones", "DT_T_N_REGIONES", "DT_T_N_REGIONES", [
        "const dt_t_region *r = &dt_t_regiones[i];",
        "h = dt__huella_u(dt__huella_u(dt__huella_u(h, r->codigo), r->comuna_first), r->comuna_count);",
        "h = dt__huella_s(dt__huella_z(h, r->cut, sizeof r->cut), r->nombre.s, r->nombre.n);",
        "h = dt__huella_alias(h, &r->comunas);"])
    huella("region_pesos", "DT_T_N_REGIONES", "1", ["h = dt__huella_alias(h, &dt_t_region_alias);"])
    huella("provincias", "DT_T_N_PROVINCIAS", "DT_T_N_PROVINCIAS", [
        "const dt_t_provincia *r = &dt_t_provincias[i];",
        "h = dt__huella_z(dt__huella_u(h, r->region), r->cut, sizeof r->cut);",
        "h = dt__huella_s(h, r->nombre.s, r->nombre.n);"])
    huella("comunas", "DT_T_N_COMUNAS", "DT_T_N_COMUNAS", [
        "const dt_t_comuna *r = &dt_t_comunas[i];",
        "h = dt__huella_u(dt__huella_u(dt__huella_u(dt__huella_u(h, r->provincia), r->region), r->area), r->zona);",
        "h = dt__huella_s(dt__huella_z(h, r->cut, sizeof r->cut), r->nombre.s, r->nombre.n);",
        "h = dt__huella_z(h, r->postal, sizeof r->postal);"])

    # Sex by Censo 2017 totals: one raw 32-bit draw below the threshold is a woman.
    mujeres = sum(int(x["mujeres_censo_2017"]) for x in comunas)
    total = sum(int(x["poblacion_censo_2017"]) for x in comunas)
    h.append(f"\n/* Censo 2017: {mujeres} women of {total}; floor(mujeres * 2^32 / total). */")
    h.append(f"#define DT_T_UMBRAL_MUJER {mujeres * (1 << 32) // total}u")
    huella("umbral_mujer", "1", "1", ["h = dt__huella_u(h, DT_T_UMBRAL_MUJER);"])

    # --- names ------------------------------------------------------------
    def slots_huella(name, count):
        """A weighted list of 16-byte slots: each entry's text, then the alias table."""
        huella(name, count, count, [f"h = dt__huella_s(h, dt_t_{name}[i].s, dt_t_{name}_len[i]);",
                                    f"if (i + 1 == {count}) h = dt__huella_alias(h, &dt_t_{name}_alias);"])

    for sexo in ("F", "M"):
        rows = [x for x in nombres if x["sexo"] == sexo]
        h.append(f"#define DT_T_N_NOMBRES_{sexo} {len(rows)}")
        h.append(f"extern const dt_t_slot dt_t_nombres_{sexo.lower()}[{len(rows)}];")
        h.append(f"extern const uint8_t dt_t_nombres_{sexo.lower()}_len[{len(rows)}];")
        c.append(f"const dt_t_slot dt_t_nombres_{sexo.lower()}[{len(rows)}] = {{\n{slots16([x['nombre'] for x in rows])}\n}};")
        c.append(f"const uint8_t dt_t_nombres_{sexo.lower()}_len[{len(rows)}] = {{\n{ints([blen(x['nombre']) for x in rows])}\n}};")
        emit_alias(f"dt_t_nombres_{sexo.lower()}_alias", [decimal_to_int(x["frecuencia_relativa_top500"], 8) for x in rows])
        slots_huella(f"nombres_{sexo.lower()}", f"DT_T_N_NOMBRES_{sexo}")
    h.append(f"#define DT_T_N_APELLIDOS {len(apellidos)}")
    h.append(f"extern const dt_t_slot dt_t_apellidos[{len(apellidos)}];")
    h.append(f"extern const uint8_t dt_t_apellidos_len[{len(apellidos)}];")
    c.append(f"const dt_t_slot dt_t_apellidos[{len(apellidos)}] = {{\n{slots16([x['apellido'] for x in apellidos])}\n}};")
    c.append(f"const uint8_t dt_t_apellidos_len[{len(apellidos)}] = {{\n{ints([blen(x['apellido']) for x in apellidos])}\n}};")
    emit_alias("dt_t_apellidos_alias", [decimal_to_int(x["frecuencia_relativa_top500"], 8) for x in apellidos])
    slots_huella("apellidos", "DT_T_N_APELLIDOS")

    # --- the names as words: one sorted index for finding them in text -------
    # Each given name and surname in the library's ASCII fold (dt__put_ascii_fold: Latin-1 letters to
    # their base letter, A-Z lowered, everything else dropped), sorted by bytes (strcmp), with its kinds:
    # 1 a woman's given name, 2 a man's, 4 a surname. dt__nombre_palabra (c/src/ns/detectar.c) finds a
    # word by binary search within its first two letters' bucket: no hashing, no order but this one.
    def pliegue(t):
        tabla = "aaaaaaaceeeeiiii" "dnooooo ouuuuy  " "aaaaaaaceeeeiiii" "dnooooo ouuuuy y"
        out = []
        for ch in t:
            o = ord(ch)
            if "a" <= ch <= "z" or "0" <= ch <= "9":
                out.append(ch)
            elif "A" <= ch <= "Z":
                out.append(ch.lower())
            elif 0xC0 <= o <= 0xFF and tabla[o - 0xC0] != " ":
                out.append(tabla[o - 0xC0])
        return "".join(out)

    palabras = {}
    for x in nombres:
        palabras.setdefault(pliegue(x["nombre"]), set()).add(1 if x["sexo"] == "F" else 2)
    for x in apellidos:
        palabras.setdefault(pliegue(x["apellido"]), set()).add(4)
    orden = sorted(palabras, key=lambda w: w.encode("ascii"))
    for w in orden:
        if len(w) < 2 or len(w) > 15 or not all("a" <= ch <= "z" for ch in w):
            raise SystemExit(f"{w!r}: a name's fold must be 2 to 15 letters a-z")
    cubo = [0] * (26 * 26 + 1)
    for w in orden:
        cubo[(ord(w[0]) - 97) * 26 + ord(w[1]) - 97 + 1] += 1
    for q in range(1, len(cubo)):
        cubo[q] += cubo[q - 1]
    h.append("\n/* The given names and surnames folded (dt__put_ascii_fold), sorted by strcmp; clase: 1 a woman's\n"
             " * given name, 2 a man's, 4 a surname (bits). _cubo[(a * 26 + b)] .. _cubo[(a * 26 + b) + 1]: the\n"
             " * entries whose first two letters are a, b (0..25). */")
    h.append("typedef struct dt_t_palabra { char s[16]; uint8_t clase; } dt_t_palabra;")
    h.append(f"#define DT_T_N_PALABRAS_NOMBRE {len(orden)}")
    h.append(f"extern const dt_t_palabra dt_t_palabras_nombre[{len(orden)}];")
    h.append(f"extern const uint16_t dt_t_palabras_nombre_cubo[{len(cubo)}];")
    c.append(f"const dt_t_palabra dt_t_palabras_nombre[{len(orden)}] = {{\n" +
             "\n".join("    {%s, %du}," % (cstr(w), sum(palabras[w])) for w in orden) + "\n};")
    c.append(f"const uint16_t dt_t_palabras_nombre_cubo[{len(cubo)}] = {{\n{ints(cubo)}\n}};")
    # the first three letters of every entry, as bits of a 26^3 bitmap: most words of prose are
    # refused by one bit before being folded and searched for
    tri = [0] * (26 * 26 * 26 // 8 + 1)
    for w in orden:
        b = ((ord(w[0]) - 97) * 26 + ord(w[1]) - 97) * 26 + ord(w[2]) - 97
        tri[b >> 3] |= 1 << (b & 7)
    h.append(f"extern const uint8_t dt_t_palabras_nombre_tri[{len(tri)}]; /* bit (a * 26 + b) * 26 + c: an entry starts abc */")
    c.append(f"const uint8_t dt_t_palabras_nombre_tri[{len(tri)}] = {{\n{ints(tri, 16)}\n}};")

    # --- streets ----------------------------------------------------------
    generales = [x["nombre"] for x in calles if x["categoria"] != "avenida_santiago"]
    avenidas = []
    for x in calles:
        if x["categoria"] == "avenida_santiago":
            n = x["nombre"]
            if n.startswith("Avenida "):
                avenidas.append(("Avenida", n[len("Avenida "):]))
            else:  # "Gran Avenida José Miguel Carrera", "Camino a Melipilla": the type is part of the name
                avenidas.append(("", n))
    filas_calles = [x for x in calles if x["categoria"] != "avenida_santiago"] + [x for x in calles if x["categoria"] == "avenida_santiago"]
    largo_via = fits(filas_calles, "nombre", [("direccion.direccion", "nombre_via")], anchos,
                     values=generales + [a[1] for a in avenidas])
    h.append(f"\n#define DT_T_N_CALLES {len(generales)}")
    h.append(f"#define DT_T_N_AVENIDAS_RM {len(avenidas)}")
    h.append("extern const dt_t_str dt_t_calles[DT_T_N_CALLES];")
    h.append("extern const dt_t_str dt_t_avenidas_rm[DT_T_N_AVENIDAS_RM];")
    h.append("extern const uint8_t dt_t_avenidas_rm_con_tipo[DT_T_N_AVENIDAS_RM];")
    c.append("const dt_t_str dt_t_calles[DT_T_N_CALLES] = {\n" + strs(generales) + "\n};")
    c.append("const dt_t_str dt_t_avenidas_rm[DT_T_N_AVENIDAS_RM] = {\n" + strs([a[1] for a in avenidas]) + "\n};")
    c.append("const uint8_t dt_t_avenidas_rm_con_tipo[DT_T_N_AVENIDAS_RM] = {\n" + ints([1 if a[0] else 0 for a in avenidas]) + "\n};\n")
    huella("calles", "DT_T_N_CALLES", "DT_T_N_CALLES", ["h = dt__huella_s(h, dt_t_calles[i].s, dt_t_calles[i].n);"])
    huella("avenidas_rm", "DT_T_N_AVENIDAS_RM", "DT_T_N_AVENIDAS_RM", [
        "h = dt__huella_u(dt__huella_s(h, dt_t_avenidas_rm[i].s, dt_t_avenidas_rm[i].n), dt_t_avenidas_rm_con_tipo[i]);"])
    prefijos = [x for x in formato if x["clave"] == "prefijo_via"]
    pesos = [decimal_to_int(x["peso_faker"], 2) for x in prefijos]
    acum = []
    s = 0
    for p in pesos:
        s += p
        acum.append(s)
    largo_tipo = fits(prefijos, "valor", [("direccion.direccion", "tipo_via")], anchos)
    # linea = [tipo ' '] via ' ' numero [', ' depto] ', ' comuna ', ' region, built in place in its
    # field: its longest possible value, from the longest parts (numero <= 14999, depto a
    # "Depto. PPUU" of at most 15 bytes), must fit too, as it does in persona and empresa.
    linea = largo_tipo + 1 + largo_via + 1 + 5 + 2 + 15 + 2 + largo_comuna + 2 + largo_region
    for call, field in (("direccion.direccion", "linea"), ("persona.persona", "direccion"), ("empresa.empresa", "direccion")):
        if linea > anchos[(call, field)] - 1:
            raise SystemExit(f"the longest address line could be {linea} bytes; the field {field} of {call} holds "
                             f"{anchos[(call, field)] - 1}: shorten the longest street, comuna or region, or widen the field")
    h.append(f"#define DT_T_N_TIPOS_VIA {len(prefijos)}")
    h.append(f"#define DT_T_TIPOS_VIA_TOTAL {s}u")
    h.append("extern const dt_t_str dt_t_tipos_via[DT_T_N_TIPOS_VIA];")
    h.append("extern const uint32_t dt_t_tipos_via_acum[DT_T_N_TIPOS_VIA]; /* cumulative integer weights */")
    c.append("const dt_t_str dt_t_tipos_via[DT_T_N_TIPOS_VIA] = {\n" + strs([x["valor"] for x in prefijos]) + "\n};")
    c.append("const uint32_t dt_t_tipos_via_acum[DT_T_N_TIPOS_VIA] = {\n" + ints(acum) + "\n};\n")
    huella("tipos_via", "DT_T_N_TIPOS_VIA", "DT_T_N_TIPOS_VIA", [
        "h = dt__huella_u(dt__huella_s(h, dt_t_tipos_via[i].s, dt_t_tipos_via[i].n), dt_t_tipos_via_acum[i]);"])

    # --- ages: INE's projection for 2026, by single year; the open group 100+ halving each year to 110 ---
    pesos_edad = [0] * 121
    for x in edades:
        edad = int(x["edad"])
        if x["edad_abierta"] == "si":
            abierto = int(x["total"])
            for k in range(0, 11):
                pesos_edad[edad + k] = abierto >> (k + 1)
        else:
            pesos_edad[edad] = int(x["total"])
    if pesos_edad[:100].count(0) or sum(pesos_edad) >= 1 << 32:
        raise SystemExit("c/data/edades.csv must give every age 0..99 and a 100+ group, in all below 2^32")
    h.append("\n/* Weight of each age 0..120 (INE projection 2026; 100+ spread to 110, none above): see fecha.c. */")
    h.append("extern const uint32_t dt_t_edades[121];")
    c.append("const uint32_t dt_t_edades[121] = {\n" + ints(pesos_edad) + "\n};\n")
    huella("edades", "121", "121", ["h = dt__huella_u(h, dt_t_edades[i]);"])

    # --- the minimum monthly wage (18 to 65 years) by the date it came into force ---------------
    minimos = [x for x in sueldos if x["serie"] == "ingreso_minimo_mensual" and x["grupo"] == "18_a_65_anios"]
    desde_prev = 0
    filas_min = []
    for x in minimos:
        y, m, d = (int(v) for v in x["vigente_desde"].split("-"))
        desde = y * 10000 + m * 100 + d
        if desde <= desde_prev or not x["valor_clp"].isdigit():
            raise SystemExit(f"{x['_donde']}: minimum wages must come in date order with an amount")
        filas_min.append((desde, int(x["valor_clp"])))
        desde_prev = desde
    h.append("\n/* The minimum monthly wage by the date it came into force (AAAAMMDD), in date order (sueldos.csv). */")
    h.append("typedef struct dt_t_minimo { uint32_t desde; uint32_t clp; } dt_t_minimo;")
    h.append(f"#define DT_T_N_MINIMOS {len(filas_min)}")
    h.append("extern const dt_t_minimo dt_t_minimos[DT_T_N_MINIMOS];")
    c.append("const dt_t_minimo dt_t_minimos[DT_T_N_MINIMOS] = {\n" + "\n".join(f"    {{{a}u, {b}u}}," for a, b in filas_min) + "\n};\n")
    huella("minimos", "DT_T_N_MINIMOS", "DT_T_N_MINIMOS", ["h = dt__huella_u(dt__huella_u(h, dt_t_minimos[i].desde), dt_t_minimos[i].clp);"])

    # --- mobiles: the blocks libphonenumber accepts, in CSV order; one draw over all their numbers ---
    moviles = [x for x in telefonos if x["categoria"] == "movil"]
    antes, bloques = 0, []
    for x in moviles:
        desde, hasta, n = int(x["desde"]), int(x["hasta"]), int(x["cantidad_numeros"])
        if not (x["prefijo"].startswith("9") and x["largo_numero"] == "9" and 900000000 <= desde and hasta - desde + 1 == n
                and str(desde).startswith(x["prefijo"]) and str(hasta).startswith(x["prefijo"])):
            raise SystemExit(f"{x['_donde']}: a movil block must be 9-digit numbers 9…, desde..hasta holding cantidad_numeros")
        bloques.append((desde, hasta, antes))
        antes += n
    ordenados = sorted(bloques)
    for (a, b, _), (c2, _d, _e) in zip(ordenados, ordenados[1:]):
        if c2 <= b:
            raise SystemExit(f"c/data/telefonos_validos.csv: movil blocks {a}..{b} and {c2}.. overlap")
    h.append(f"\n/* Mobile numbers libphonenumber accepts: {len(bloques)} blocks, {antes} numbers (telefonos_validos.csv). */")
    h.append("typedef struct dt_t_bloque { uint32_t desde; uint32_t antes; } dt_t_bloque; /* first number; numbers in earlier blocks */")
    h.append(f"#define DT_T_N_MOVILES {len(bloques)}")
    h.append(f"#define DT_T_MOVILES_TOTAL {antes}u")
    h.append("extern const dt_t_bloque dt_t_moviles[DT_T_N_MOVILES];")
    c.append("const dt_t_bloque dt_t_moviles[DT_T_N_MOVILES] = {\n" + "\n".join(
        f"    {{{d}u, {a}u}}," for d, _, a in bloques) + "\n};\n")
    huella("moviles", "DT_T_N_MOVILES", "DT_T_N_MOVILES", ["h = dt__huella_u(dt__huella_u(h, dt_t_moviles[i].desde), dt_t_moviles[i].antes);"])

    # --- email domains (personal mailboxes only), weighted by a documented judgement --------
    personales = [x["dominio"] for x in dominios if x["tipo"].startswith("webmail")]
    peso = {x["dominio"]: x for x in pesos_dominios}
    if set(peso) != set(personales):
        raise SystemExit(f"c/data/dominios_email_pesos.csv must weigh exactly the webmail domains of dominios_email.csv: "
                         f"{sorted(set(peso) ^ set(personales))}")
    acum_dom, total_dom = [], 0
    for d in personales:
        if not peso[d]["peso"].isdigit() or int(peso[d]["peso"]) < 1:
            raise SystemExit(f"{peso[d]['_donde']}: peso must be a positive integer")
        total_dom += int(peso[d]["peso"])
        acum_dom.append(total_dom)
    h.append(f"\n#define DT_T_N_DOMINIOS {len(personales)}")
    h.append(f"#define DT_T_DOMINIOS_TOTAL {total_dom}u")
    h.append("extern const dt_t_str dt_t_dominios[DT_T_N_DOMINIOS];")
    h.append("extern const uint32_t dt_t_dominios_acum[DT_T_N_DOMINIOS]; /* cumulative integer weights */")
    c.append("const dt_t_str dt_t_dominios[DT_T_N_DOMINIOS] = {\n" + strs(personales) + "\n};")
    c.append("const uint32_t dt_t_dominios_acum[DT_T_N_DOMINIOS] = {\n" + ints(acum_dom) + "\n};\n")
    huella("dominios", "DT_T_N_DOMINIOS", "DT_T_N_DOMINIOS", [
        "h = dt__huella_u(dt__huella_s(h, dt_t_dominios[i].s, dt_t_dominios[i].n), dt_t_dominios_acum[i]);"])

    # --- banks: current banks only (estado vigente, a bank or a foreign bank's branch) ----
    vigentes = [b for b in bancos if b["estado"] == "vigente" and b["tipo"] in ("banco", "banco_estatal", "sucursal_banco_extranjero")]
    estado = [i for i, b in enumerate(vigentes) if b["tipo"] == "banco_estatal"]
    if len(estado) != 1:
        raise SystemExit("expected exactly one state bank (CuentaRUT)")
    fits(vigentes, "nombre_comun", [("banco.banco", "nombre"), ("banco.cuenta", "banco")], anchos)
    fits(vigentes, "codigo", [("banco.banco", "codigo"), ("banco.cuenta", "codigo_banco")], anchos)
    # persons' accounts: only at retail banks, by peso_personas (a judgement anchored on CMF figures)
    acum_personas, total_personas = [], 0
    for b in vigentes:
        w = pesos_bancos.get(b["codigo"])
        if w is None:
            raise SystemExit(f"{b['_donde']}: bank {b['codigo']} has no row in bancos_peso.csv")
        peso = decimal_to_int(w["peso_personas"], 4)
        if peso and w["minorista"] != "si":
            raise SystemExit(f"{w['_donde']}: a bank that is not minorista cannot hold persons' accounts")
        total_personas += peso
        acum_personas.append(total_personas)
    h.append(f"\n#define DT_T_N_BANCOS {len(vigentes)}")
    h.append(f"#define DT_T_BANCOS_PERSONAS_TOTAL {total_personas}u")
    h.append("extern const uint32_t dt_t_bancos_personas_acum[DT_T_N_BANCOS]; /* cumulative weights of persons' accounts */")
    c.append("const uint32_t dt_t_bancos_personas_acum[DT_T_N_BANCOS] = {\n" + ints(acum_personas) + "\n};\n")
    h.append(f"#define DT_T_BANCO_ESTADO {estado[0]} /* the only bank with CuentaRUT */")
    h.append("typedef struct dt_t_banco { dt_t_str codigo, nombre; } dt_t_banco;")
    h.append("extern const dt_t_banco dt_t_bancos[DT_T_N_BANCOS];")
    c.append("const dt_t_banco dt_t_bancos[DT_T_N_BANCOS] = {\n" + "\n".join(
        "    {{%s, %d}, {%s, %d}}," % (cstr(b["codigo"]), blen(b["codigo"]), cstr(b["nombre_comun"]), blen(b["nombre_comun"]))
        for b in vigentes) + "\n};\n")
    huella("bancos", "DT_T_N_BANCOS", "DT_T_N_BANCOS", [
        "h = dt__huella_s(dt__huella_s(h, dt_t_bancos[i].codigo.s, dt_t_bancos[i].codigo.n), dt_t_bancos[i].nombre.s, dt_t_bancos[i].nombre.n);",
        "h = dt__huella_u(dt__huella_u(h, i == DT_T_BANCO_ESTADO), dt_t_bancos_personas_acum[i]);"])

    # --- companies ----------------------------------------------------------
    siglas = {"SpA": "SpA", "Ltda.": "Ltda.", "S.A.": "S.A.", "EIRL": "E.I.R.L."}
    usadas = [siglas[f["sigla"]] for f in formas if f["sigla"] in siglas]
    h.append(f"\n#define DT_T_N_FORMAS {len(usadas)}")
    h.append("extern const dt_t_str dt_t_formas[DT_T_N_FORMAS]; /* the last one is E.I.R.L. */")
    h.append(f"#define DT_T_FORMA_SA {usadas.index('S.A.')}")
    if usadas[-1] != "E.I.R.L.":
        raise SystemExit("E.I.R.L. must be the last legal form")
    c.append("const dt_t_str dt_t_formas[DT_T_N_FORMAS] = {\n" + strs(usadas) + "\n};\n")
    huella("formas", "DT_T_N_FORMAS", "DT_T_N_FORMAS", ["h = dt__huella_s(h, dt_t_formas[i].s, dt_t_formas[i].n);"])
    fits(giros, "giro", [("empresa.empresa", "giro")], anchos)
    h.append(f"#define DT_T_N_GIROS {len(giros)}")
    h.append("/* regiones: the table indices of the regions a company with this giro is placed in (all of\n"
             " * them unless giros.csv restricts it), drawn through `pesos` by population. */")
    h.append("typedef struct dt_t_giro { dt_t_str rubro, giro; const uint8_t *regiones; dt_t_alias pesos; } dt_t_giro;")
    h.append("extern const dt_t_giro dt_t_giros[DT_T_N_GIROS];")
    filas_giros = []
    for i, g in enumerate(giros):
        codigos = [x for x in g["regiones"].split("|") if x] or reg_code
        for x in codigos:
            if x not in reg_code:
                raise SystemExit(f"{g['_donde']}: region {x!r} is not in regiones.csv")
        idx = [reg_code.index(x) for x in codigos]
        c.append(f"static const uint8_t dt_t_giro{i}_regiones[{len(idx)}] = {{{', '.join(map(str, idx))}}};")
        emit_alias(f"dt_t_giro{i}_pesos", [pop[reg_code[j]] for j in idx], public=False)
        filas_giros.append("    {{%s, %d}, {%s, %d}, dt_t_giro%d_regiones, {%du, %du, dt_t_giro%d_pesos_prob, dt_t_giro%d_pesos_alias}}," % (
            cstr(g["rubro"]), blen(g["rubro"]), cstr(g["giro"]), blen(g["giro"]), i, len(idx), largest_k(len(idx)), i, i))
    c.append("const dt_t_giro dt_t_giros[DT_T_N_GIROS] = {\n" + "\n".join(filas_giros) + "\n};\n")
    huella("giros", "DT_T_N_GIROS", "DT_T_N_GIROS", [
        "const dt_t_giro *r = &dt_t_giros[i];",
        "h = dt__huella_s(dt__huella_s(h, r->rubro.s, r->rubro.n), r->giro.s, r->giro.n);",
        "for (uint32_t j = 0; j < r->pesos.n; j++) h = dt__huella_u(h, r->regiones[j]);",
        "h = dt__huella_alias(h, &r->pesos);"])

    # --- vehicles: plates (Registro Civil's check-digit tables), makes and models ----------
    letras = read("patentes_letras.csv")
    valor_letra = [255] * 26
    for x in letras:
        if len(x["letra"]) != 1 or not ("A" <= x["letra"] <= "Z") or not x["valor"].isdigit():
            raise SystemExit(f"{x['_donde']}: a letter A-Z and a digit")
        valor_letra[ord(x["letra"]) - 65] = int(x["valor"])
    nuevas = "".join(x["letra"] for x in letras)
    series = read("patentes_series_antiguas.csv")
    codigo_serie = [0] * (26 * 26)
    for x in series:
        sr, cod = x["serie"], x["codigo_d7d6d5"]
        if len(sr) != 2 or not sr.isalpha() or not sr.isupper() or len(cod) != 3 or not cod.isdigit() or int(cod) == 0:
            raise SystemExit(f"{x['_donde']}: a series of two letters and a code 001-999")
        if codigo_serie[(ord(sr[0]) - 65) * 26 + ord(sr[1]) - 65]:
            raise SystemExit(f"{x['_donde']}: series {sr} twice")
        codigo_serie[(ord(sr[0]) - 65) * 26 + ord(sr[1]) - 65] = int(cod)
    h.append(f"\n/* Plates: the current format's {len(nuevas)} letters, each letter's digit for the check digit (255: not\n"
             " * used), and the old format's series: the 3-digit code of each two-letter series (0: none). */")
    h.append(f"#define DT_T_N_LETRAS_PATENTE {len(nuevas)}")
    h.append(f"#define DT_T_N_SERIES_PATENTE {len(series)}")
    h.append("extern const char dt_t_letras_patente[DT_T_N_LETRAS_PATENTE + 1];")
    h.append("extern const uint8_t dt_t_valor_letra[26];")
    h.append("extern const uint16_t dt_t_codigo_serie[26 * 26];")
    h.append("extern const char dt_t_series_patente[DT_T_N_SERIES_PATENTE][3];")
    c.append(f"const char dt_t_letras_patente[DT_T_N_LETRAS_PATENTE + 1] = {cstr(nuevas)};")
    c.append("const uint8_t dt_t_valor_letra[26] = {\n" + ints(valor_letra) + "\n};")
    c.append("const uint16_t dt_t_codigo_serie[26 * 26] = {\n" + ints(codigo_serie, 16) + "\n};")
    c.append("const char dt_t_series_patente[DT_T_N_SERIES_PATENTE][3] = {\n" + "\n".join(
        f"    {cstr(x['serie'])}," for x in series) + "\n};\n")
    huella("patentes_letras", "26", "26", ["h = dt__huella_u(h, dt_t_valor_letra[i]);",
                                           "if (i < DT_T_N_LETRAS_PATENTE) h = dt__huella_u(h, (uint8_t)dt_t_letras_patente[i]);"])
    huella("patentes_series", "DT_T_N_SERIES_PATENTE", "DT_T_N_SERIES_PATENTE", [
        "h = dt__huella_s(h, dt_t_series_patente[i], 2);",
        "h = dt__huella_u(h, dt_t_codigo_serie[(dt_t_series_patente[i][0] - 'A') * 26 + dt_t_series_patente[i][1] - 'A']);"])

    marcas = read("vehiculos_marcas.csv")
    modelos = read("vehiculos_modelos.csv")
    colores = read("vehiculos_colores.csv")
    nombres_marcas = [m["marca"] for m in marcas]
    for x in modelos:
        if x["marca"] not in nombres_marcas:
            raise SystemExit(f"{x['_donde']}: make {x['marca']!r} is not in vehiculos_marcas.csv")
        if not (x["desde"].isdigit() and 1900 <= int(x["desde"]) <= 2200) or not x["fuente_desde"]:
            raise SystemExit(f"{x['_donde']}: desde must be a year with its fuente_desde")
    if not any(int(x["desde"]) <= 1985 for x in modelos):
        raise SystemExit("c/data/vehiculos_modelos.csv: vehiculo.vehiculo accepts hoy from 1985, so a model must be on sale by then")
    modelos.sort(key=lambda x: nombres_marcas.index(x["marca"]))  # stable: the CSV's order within a make
    fits(marcas, "marca", [("vehiculo.vehiculo", "marca")], anchos)
    fits(modelos, "modelo", [("vehiculo.vehiculo", "modelo")], anchos)
    fits(modelos, "tipo", [("vehiculo.vehiculo", "tipo")], anchos)
    fits(colores, "color", [("vehiculo.vehiculo", "color")], anchos)
    h.append(f"\n#define DT_T_N_MARCAS {len(marcas)}")
    h.append(f"#define DT_T_N_MODELOS {len(modelos)}")
    h.append(f"#define DT_T_N_COLORES {len(colores)}")
    h.append("/* A make: its name, its ANAC registrations and its models, dt_t_modelos[primero .. primero + cuantos). */")
    h.append("typedef struct dt_t_marca { dt_t_str nombre; uint32_t unidades; uint16_t primero, cuantos; } dt_t_marca;")
    h.append("/* A model: its name, type and first model year on sale (vehiculos_modelos.csv's desde). */")
    h.append("typedef struct dt_t_modelo { dt_t_str nombre, tipo; int16_t desde; } dt_t_modelo;")
    h.append("extern const dt_t_marca dt_t_marcas[DT_T_N_MARCAS];")
    h.append("extern const dt_t_modelo dt_t_modelos[DT_T_N_MODELOS];")
    h.append("extern const dt_t_str dt_t_colores[DT_T_N_COLORES];")
    filas = []
    for m in marcas:
        idx = [i for i, x in enumerate(modelos) if x["marca"] == m["marca"]]
        if not idx:
            raise SystemExit(f"{m['_donde']}: make {m['marca']} has no model in vehiculos_modelos.csv")
        unidades = int(m["unidades"])
        if not 0 < unidades < 1 << 24:
            raise SystemExit(f"{m['_donde']}: unidades must be a positive count below 2^24")
        filas.append("    {{%s, %d}, %d, %d, %d}," % (cstr(m["marca"]), blen(m["marca"]), unidades, idx[0], len(idx)))
    c.append("const dt_t_marca dt_t_marcas[DT_T_N_MARCAS] = {\n" + "\n".join(filas) + "\n};")
    c.append("const dt_t_modelo dt_t_modelos[DT_T_N_MODELOS] = {\n" + "\n".join(
        "    {{%s, %d}, {%s, %d}, %d}," % (cstr(x["modelo"]), blen(x["modelo"]), cstr(x["tipo"]), blen(x["tipo"]), int(x["desde"]))
        for x in modelos) + "\n};")
    c.append("const dt_t_str dt_t_colores[DT_T_N_COLORES] = {\n" + strs([x["color"] for x in colores]) + "\n};\n")
    huella("marcas", "DT_T_N_MARCAS", "DT_T_N_MARCAS", [
        "h = dt__huella_u(dt__huella_u(dt__huella_s(h, dt_t_marcas[i].nombre.s, dt_t_marcas[i].nombre.n), dt_t_marcas[i].primero), dt_t_marcas[i].cuantos);",
        "h = dt__huella_u(h, dt_t_marcas[i].unidades);"])
    huella("modelos", "DT_T_N_MODELOS", "DT_T_N_MODELOS", [
        "h = dt__huella_s(dt__huella_s(h, dt_t_modelos[i].nombre.s, dt_t_modelos[i].nombre.n), dt_t_modelos[i].tipo.s, dt_t_modelos[i].tipo.n);",
        "h = dt__huella_u(h, (uint32_t)dt_t_modelos[i].desde);"])
    huella("colores", "DT_T_N_COLORES", "DT_T_N_COLORES", ["h = dt__huella_s(h, dt_t_colores[i].s, dt_t_colores[i].n);"])

    # --- previsión: AFPs by contributors, health by beneficiaries ----------------------------
    prevision = [x for x in read("prevision.csv") if x["tipo"] == "afp"]
    salud = read("salud.csv")
    fits(prevision, "nombre", [("prevision.prevision", "afp")], anchos)
    h.append(f"\n#define DT_T_N_AFP {len(prevision)}")
    h.append("extern const dt_t_str dt_t_afp[DT_T_N_AFP];")
    c.append("const dt_t_str dt_t_afp[DT_T_N_AFP] = {\n" + strs([x["nombre"] for x in prevision]) + "\n};")
    emit_alias("dt_t_afp_alias", [int(x["cotizantes"]) for x in prevision])
    huella("afp", "DT_T_N_AFP", "DT_T_N_AFP", ["h = dt__huella_s(h, dt_t_afp[i].s, dt_t_afp[i].n);",
                                               "if (i + 1 == DT_T_N_AFP) h = dt__huella_alias(h, &dt_t_afp_alias);"])
    fonasa = next(int(x["afiliados_o_beneficiarios"]) for x in salud if x["tipo"] == "fonasa")
    tramos = [x for x in salud if x["tipo"] == "fonasa_tramo"]
    suma_tramos = sum(int(x["afiliados_o_beneficiarios"]) for x in tramos)
    grandes = [x for x in salud if x["tipo"] == "isapre_abierta" and x["afiliados_o_beneficiarios"]]
    menores = [x for x in salud if x["tipo"] == "isapre_abierta" and not x["afiliados_o_beneficiarios"]]
    residuo = next(int(x["afiliados_o_beneficiarios"]) for x in salud if x["tipo"] == "isapre_abierta_residuo")
    suma_menores = sum(decimal_to_int(x["porcentaje"], 3) for x in menores)
    # Who: FONASA's tramos (its December 2025 total split by the 2023 tramo shares), the four large open
    # Isapres by their September 2025 beneficiaries, the three small ones splitting the residue by their
    # June 2022 shares (derived, low confidence: docs/data.md).
    salud_filas = [("FONASA", x["nombre"].rsplit(" ", 1)[1], fonasa * int(x["afiliados_o_beneficiarios"]) // suma_tramos) for x in tramos]
    salud_filas += [(x["nombre"], "", int(x["afiliados_o_beneficiarios"])) for x in grandes]
    salud_filas += [(x["nombre"], "", residuo * decimal_to_int(x["porcentaje"], 3) // suma_menores) for x in menores]
    fits([{"nombre": n, "_donde": "c/data/salud.csv"} for n, _, _ in salud_filas], "nombre", [("prevision.prevision", "salud")], anchos)
    h.append(f"#define DT_T_N_SALUD {len(salud_filas)}")
    h.append("/* A health insurer: FONASA with its tramo (\"A\"..\"D\"), or an open Isapre (tramo \"\"). */")
    h.append("typedef struct dt_t_salud { dt_t_str nombre; char tramo[2]; } dt_t_salud;")
    h.append("extern const dt_t_salud dt_t_salud_filas[DT_T_N_SALUD];")
    c.append("const dt_t_salud dt_t_salud_filas[DT_T_N_SALUD] = {\n" + "\n".join(
        "    {{%s, %d}, %s}," % (cstr(n), blen(n), cstr(t)) for n, t, _ in salud_filas) + "\n};")
    emit_alias("dt_t_salud_alias", [w for _, _, w in salud_filas])
    huella("salud", "DT_T_N_SALUD", "DT_T_N_SALUD", [
        "h = dt__huella_z(dt__huella_s(h, dt_t_salud_filas[i].nombre.s, dt_t_salud_filas[i].nombre.n), dt_t_salud_filas[i].tramo, 2);",
        "if (i + 1 == DT_T_N_SALUD) h = dt__huella_alias(h, &dt_t_salud_alias);"])

    # --- tax documents: the SII's DTE types ------------------------------------------------------
    dtes = read("dte_tipos.csv")
    fits(dtes, "nombre", [("tributario.dte", "nombre_tipo")], anchos)
    h.append(f"\n#define DT_T_N_DTE {len(dtes)}")
    h.append("/* A DTE type: its SII code, name, whether its receptor is a persona and whether it is exempt. */")
    h.append("typedef struct dt_t_dte { uint8_t codigo; uint8_t a_persona; uint8_t exento; dt_t_str nombre; } dt_t_dte;")
    h.append("extern const dt_t_dte dt_t_dtes[DT_T_N_DTE];")
    for x in dtes:
        if x["receptor"] not in ("empresa", "persona") or x["montos"] not in ("afecto", "exento"):
            raise SystemExit(f"{x['_donde']}: receptor empresa|persona, montos afecto|exento")
    c.append("const dt_t_dte dt_t_dtes[DT_T_N_DTE] = {\n" + "\n".join(
        "    {%s, %d, %d, {%s, %d}}," % (x["codigo"], x["receptor"] == "persona", x["montos"] == "exento", cstr(x["nombre"]), blen(x["nombre"]))
        for x in dtes) + "\n};\n")
    huella("dte", "DT_T_N_DTE", "DT_T_N_DTE", [
        "h = dt__huella_u(dt__huella_u(dt__huella_u(h, dt_t_dtes[i].codigo), dt_t_dtes[i].a_persona), dt_t_dtes[i].exento);",
        "h = dt__huella_s(h, dt_t_dtes[i].nombre.s, dt_t_dtes[i].nombre.n);"])

    # --- remuneraciones: the month's UF and UTM, AFP commissions, topes, the tax table, rates --------
    def exacto(x, col, places):
        texto = x[col].strip()
        if not re.fullmatch(r"\d+" + (r"(\.\d{1,%d})?" % places if places else ""), texto):
            raise SystemExit(f"{x['_donde']}: {col} {texto!r} must be a decimal with at most {places} places")
        return decimal_to_int(texto, places)

    def periodo(x, col):
        if not re.fullmatch(r"\d{4}-(0[1-9]|1[0-2])", x[col]):
            raise SystemExit(f"{x['_donde']}: {col} must be YYYY-MM")
        return int(x[col].replace("-", ""))

    indicadores = read("indicadores_mensuales.csv")
    meses = [periodo(x, "periodo") for x in indicadores]
    for a_, b_ in zip(meses, meses[1:]):
        if b_ != (a_ + 1 if a_ % 100 < 12 else a_ + 89):
            raise SystemExit("c/data/indicadores_mensuales.csv: months must follow each other without a gap")
    comisiones = read("afp_comisiones.csv")
    nombres_afp = [x["nombre"] for x in prevision]
    for x in comisiones:
        if x["afp"] not in nombres_afp:
            raise SystemExit(f"{x['_donde']}: AFP {x['afp']!r} is not in prevision.csv")
    for n in nombres_afp:
        if not any(x["afp"] == n and periodo(x, "desde") <= meses[0] for x in comisiones):
            raise SystemExit(f"c/data/afp_comisiones.csv: AFP {n} has no commission in force in {meses[0]}")
    comisiones.sort(key=lambda x: (nombres_afp.index(x["afp"]), periodo(x, "desde")))
    topes = read("topes_imponibles.csv")
    if periodo(topes[0], "desde") > meses[0] or [periodo(x, "desde") for x in topes] != sorted(periodo(x, "desde") for x in topes):
        raise SystemExit("c/data/topes_imponibles.csv: in date order, the first in force by the first indicator month")
    impuesto = read("impuesto_unico.csv")
    tasas = {x["concepto"]: x for x in read("remuneracion_tasas.csv")}
    h.append(f"\n#define DT_T_N_INDICADORES {len(indicadores)}")
    h.append(f"#define DT_T_N_COMISIONES {len(comisiones)}")
    h.append(f"#define DT_T_N_TOPES {len(topes)}")
    h.append(f"#define DT_T_N_IMPUESTO {len(impuesto)}")
    h.append("/* A month (YYYYMM) with the UF of its last day in hundredths of a peso and its UTM in pesos. */")
    h.append("typedef struct dt_t_indicador { uint32_t periodo; uint32_t uf_centavos; uint32_t utm; } dt_t_indicador;")
    h.append("/* An AFP's commission in basis points (1/100 of a percent of taxable pay) from a month on. */")
    h.append("typedef struct dt_t_comision { uint8_t afp; uint32_t desde; uint16_t pb; } dt_t_comision;")
    h.append("/* The topes imponibles from a month on, in tenths of a UF. */")
    h.append("typedef struct dt_t_tope { uint32_t desde; uint16_t afp_decimas_uf, cesantia_decimas_uf; } dt_t_tope;")
    h.append("/* A bracket of the impuesto único: from desde (tenths of a UTM), rate per 1000, rebaja in hundredths of a UTM. */")
    h.append("typedef struct dt_t_tramo { uint32_t desde_decimas_utm; uint16_t tasa_por_mil; uint32_t rebaja_centesimas_utm; } dt_t_tramo;")
    h.append("extern const dt_t_indicador dt_t_indicadores[DT_T_N_INDICADORES];")
    h.append("extern const dt_t_comision dt_t_comisiones[DT_T_N_COMISIONES];")
    h.append("extern const dt_t_tope dt_t_topes[DT_T_N_TOPES];")
    h.append("extern const dt_t_tramo dt_t_impuesto[DT_T_N_IMPUESTO];")
    c.append("const dt_t_indicador dt_t_indicadores[DT_T_N_INDICADORES] = {\n" + "\n".join(
        f"    {{{m}u, {exacto(x, 'uf_ultimo_dia', 2)}u, {exacto(x, 'utm', 0)}u}}," for m, x in zip(meses, indicadores)) + "\n};")
    c.append("const dt_t_comision dt_t_comisiones[DT_T_N_COMISIONES] = {\n" + "\n".join(
        f"    {{{nombres_afp.index(x['afp'])}, {periodo(x, 'desde')}u, {exacto(x, 'comision_pct', 2)}}}," for x in comisiones) + "\n};")
    c.append("const dt_t_tope dt_t_topes[DT_T_N_TOPES] = {\n" + "\n".join(
        f"    {{{periodo(x, 'desde')}u, {exacto(x, 'tope_afp_uf', 1)}, {exacto(x, 'tope_cesantia_uf', 1)}}}," for x in topes) + "\n};")
    tramos_imp = [(exacto(x, "desde_utm", 1), exacto(x, "tasa_pct", 1), exacto(x, "rebaja_utm", 2)) for x in impuesto]
    if tramos_imp[0] != (0, 0, 0) or [t[0] for t in tramos_imp] != sorted(t[0] for t in tramos_imp):
        raise SystemExit("c/data/impuesto_unico.csv: brackets in order, the first exempt from 0")
    for (d0, t0, r0), (d1, t1, r1) in zip(tramos_imp, tramos_imp[1:]):
        # the tax is continuous at each limit: limit * rate - rebaja equal on both sides (in 1/10000 UTM)
        if d1 * t0 - r0 * 100 != d1 * t1 - r1 * 100:
            raise SystemExit(f"c/data/impuesto_unico.csv: the tax jumps at {d1 / 10} UTM")
    c.append("const dt_t_tramo dt_t_impuesto[DT_T_N_IMPUESTO] = {\n" + "\n".join(
        f"    {{{d}u, {t}, {r}u}}," for d, t, r in tramos_imp) + "\n};")
    for nombre, lugares, macro in (("afp_obligatoria", 2, "DT_T_AFP_OBLIGATORIA_PB"), ("salud_minima", 2, "DT_T_SALUD_MINIMA_PB"),
                                   ("cesantia_indefinido_trabajador", 2, "DT_T_CESANTIA_INDEFINIDO_PB"),
                                   ("cesantia_plazo_fijo_trabajador", 2, "DT_T_CESANTIA_PLAZO_FIJO_PB"),
                                   ("gratificacion", 2, "DT_T_GRATIFICACION_PB"), ("gratificacion_tope_imm", 2, "DT_T_GRATIFICACION_TOPE_CENTESIMAS_IMM")):
        h.append(f"#define {macro} {exacto(tasas[nombre], 'valor', lugares)}u /* remuneracion_tasas.csv: {nombre} */")
    isapres = [i for i, (_, t, _) in enumerate(salud_filas) if not t]
    h.append(f"#define DT_T_N_ISAPRES {len(isapres)}")
    h.append(f"#define DT_T_PRIMERA_ISAPRE {isapres[0]} /* the Isapres are dt_t_salud_filas[DT_T_PRIMERA_ISAPRE ..] */")
    if isapres != list(range(isapres[0], len(salud_filas))):
        raise SystemExit("c/data/salud.csv: the Isapres must follow FONASA's tramos")
    emit_alias("dt_t_isapres_alias", [salud_filas[i][2] for i in isapres])
    huella("indicadores", "DT_T_N_INDICADORES", "DT_T_N_INDICADORES", [
        "h = dt__huella_u(dt__huella_u(dt__huella_u(h, dt_t_indicadores[i].periodo), dt_t_indicadores[i].uf_centavos), dt_t_indicadores[i].utm);"])
    huella("comisiones_afp", "DT_T_N_COMISIONES", "DT_T_N_COMISIONES", [
        "h = dt__huella_u(dt__huella_u(dt__huella_u(h, dt_t_comisiones[i].afp), dt_t_comisiones[i].desde), dt_t_comisiones[i].pb);"])
    huella("topes_imponibles", "DT_T_N_TOPES", "DT_T_N_TOPES", [
        "h = dt__huella_u(dt__huella_u(dt__huella_u(h, dt_t_topes[i].desde), dt_t_topes[i].afp_decimas_uf), dt_t_topes[i].cesantia_decimas_uf);"])
    huella("impuesto_unico", "DT_T_N_IMPUESTO", "DT_T_N_IMPUESTO", [
        "h = dt__huella_u(dt__huella_u(dt__huella_u(h, dt_t_impuesto[i].desde_decimas_utm), dt_t_impuesto[i].tasa_por_mil), dt_t_impuesto[i].rebaja_centesimas_utm);",
        "if (i + 1 == DT_T_N_IMPUESTO) h = dt__huella_u(dt__huella_u(dt__huella_u(h, DT_T_AFP_OBLIGATORIA_PB), DT_T_SALUD_MINIMA_PB), DT_T_CESANTIA_INDEFINIDO_PB);",
        "if (i + 1 == DT_T_N_IMPUESTO) h = dt__huella_u(dt__huella_u(dt__huella_u(h, DT_T_CESANTIA_PLAZO_FIJO_PB), DT_T_GRATIFICACION_PB), DT_T_GRATIFICACION_TOPE_CENTESIMAS_IMM);"])
    huella("isapres", "DT_T_N_ISAPRES", "DT_T_N_ISAPRES", [
        "if (i + 1 == DT_T_N_ISAPRES) h = dt__huella_alias(h, &dt_t_isapres_alias);"])
    # --- dirt (sucio.comuna, docs/sucios.md): abbreviations, and the comunas an accent rule changes --
    # Each comuna has at most one abbreviation, so the dirt is a function of (comuna, form); a draw
    # among the comunas a form changes goes by Censo 2017 population, through cumulative totals.
    abreviaturas = read("comunas_abreviaturas.csv")
    por_cut = {x["codigo_cut"]: i for i, x in enumerate(comunas)}
    vistas = set()
    for x in abreviaturas:
        i = por_cut.get(x["codigo_cut"])
        if i is None or comunas[i]["nombre"] != x["comuna"]:
            raise SystemExit(f"{x['_donde']}: {x['codigo_cut']} {x['comuna']} is not a comuna of comunas.csv")
        if x["codigo_cut"] in vistas or not x["abreviatura"] or not x["fuentes"]:
            raise SystemExit(f"{x['_donde']}: one abbreviation per comuna, with its fuentes")
        vistas.add(x["codigo_cut"])
        clave = plegar(x["abreviatura"])
        if any(plegar(c["nombre"]) == clave for c in comunas):
            raise SystemExit(f"{x['_donde']}: {x['abreviatura']!r} folds to a comuna's name: it could not be told apart")
    fits(abreviaturas, "abreviatura", [("sucio.comuna", "sucio")], anchos)
    acum, filas = 0, []
    for x in abreviaturas:
        i = por_cut[x["codigo_cut"]]
        acum += int(comunas[i]["poblacion_censo_2017"])
        filas.append("    {%d, %du, {%s, %d}}," % (i, acum, cstr(x["abreviatura"]), blen(x["abreviatura"])))
    h.append(f"\n#define DT_T_N_ABREVIATURAS {len(abreviaturas)}")
    h.append(f"#define DT_T_ABREVIATURAS_TOTAL {acum}u /* their comunas' Censo 2017 population */")
    h.append("/* A comuna's common abbreviation (\"Stgo\"); acum: the population of its comuna and those before it. */")
    h.append("typedef struct dt_t_abreviatura { uint16_t comuna; uint32_t acum; dt_t_str abreviatura; } dt_t_abreviatura;")
    h.append("extern const dt_t_abreviatura dt_t_abreviaturas[DT_T_N_ABREVIATURAS];")
    c.append("const dt_t_abreviatura dt_t_abreviaturas[DT_T_N_ABREVIATURAS] = {\n" + "\n".join(filas) + "\n};\n")
    tildes = [(i, x) for i, x in enumerate(comunas) if any(ord(ch) > 127 for ch in x["nombre"])]
    acum, filas = 0, []
    for i, x in tildes:
        acum += int(x["poblacion_censo_2017"])
        filas.append((i, acum))
    h.append(f"#define DT_T_N_COMUNAS_TILDE {len(tildes)}")
    h.append(f"#define DT_T_COMUNAS_TILDE_TOTAL {acum}u")
    h.append("/* The comunas whose name has a letter outside ASCII (\"Ñuñoa\"), with cumulative Censo 2017 population. */")
    h.append("typedef struct dt_t_comuna_acum { uint16_t comuna; uint32_t acum; } dt_t_comuna_acum;")
    h.append("extern const dt_t_comuna_acum dt_t_comunas_tilde[DT_T_N_COMUNAS_TILDE];")
    c.append("const dt_t_comuna_acum dt_t_comunas_tilde[DT_T_N_COMUNAS_TILDE] = {\n" + "\n".join(
        "    {%d, %du}," % f for f in filas) + "\n};\n")
    huella("abreviaturas", "DT_T_N_ABREVIATURAS", "DT_T_N_ABREVIATURAS", [
        "h = dt__huella_u(dt__huella_u(h, dt_t_abreviaturas[i].comuna), dt_t_abreviaturas[i].acum);",
        "h = dt__huella_s(h, dt_t_abreviaturas[i].abreviatura.s, dt_t_abreviaturas[i].abreviatura.n);"])
    huella("comunas_tilde", "DT_T_N_COMUNAS_TILDE", "DT_T_N_COMUNAS_TILDE", [
        "h = dt__huella_u(dt__huella_u(h, dt_t_comunas_tilde[i].comuna), dt_t_comunas_tilde[i].acum);"])

    # --- the fingerprint's directory of tables ------------------------------
    h.append("\n/* Every table above, in a fixed order, with a walker that digests its whole content\n"
             " * (weights and alias tables included) through huella.h: see dt_referencia_at. */")
    h.append("typedef struct dt_t_tabla { const char *nombre; uint32_t filas; uint64_t (*huella)(uint64_t h); } dt_t_tabla;")
    h.append(f"#define DT_T_N_TABLAS {len(tablas)}")
    h.append("extern const dt_t_tabla dt_t_tablas[DT_T_N_TABLAS];")
    c.append("const dt_t_tabla dt_t_tablas[DT_T_N_TABLAS] = {\n" + "\n".join(
        f"    {{{cstr(n)}, {rows}, dt__huella_{n}}}," for n, rows in tablas) + "\n};\n")

    h.append("\n#endif")
    return "\n".join(c) + "\n", "\n".join(h) + "\n"


def main():
    global DATA
    if "--data" in sys.argv[1:]:  # another data directory, for the tests of the generator's checks
        DATA = sys.argv[sys.argv.index("--data") + 1]
    text_c, text_h = build()
    if "--dry-run" in sys.argv[1:]:
        print("the tables generate without error")
        return 0
    if "--check" in sys.argv[1:]:
        stale = [p for p, t in ((OUT_C, text_c), (OUT_H, text_h))
                 if not os.path.exists(p) or open(p, encoding="utf-8").read() != t]
        if stale:
            print("stale generated tables (run tools/gen/tablas.py and commit): " + ", ".join(stale))
            return 1
        print("generated tables are fresh")
        return 0
    for p, t in ((OUT_C, text_c), (OUT_H, text_h)):
        with open(p, "w", encoding="utf-8", newline="\n") as f:
            f.write(t)
    return 0


if __name__ == "__main__":
    sys.exit(main())
