"""Every fenced code block of README.md and docs/*.md is run here, or run by the test named for it, or
listed in NO_CORRE with the reason it is not run, so no example can drift (issue #42, item 6). A block
is keyed by its page and the first 10 hex digits of the SHA-256 of its text: editing a listed block
makes its entry stale, and the inventory test fails until someone looks at it again. A block that is
neither run nor listed fails the inventory test too.

How each kind runs (each in a fresh temporary directory that holds copies of the repository's
esquemas/ and ejemplos/, and, at its top, the files the pages name bare: esquemas/*.toml and
ejemplos/enmascarar/* ; ARCHIVOS adds what one block needs more):

- python: a script of its own in a fresh interpreter with the checkout's package (the environment's
  PYTHONPATH and DATOTECA_LIBRARY). A statement that is one expression with a trailing comment that is
  a Python literal (`d.rut()  # '13.354.725-8'`) must give that value; other comments are prose. A
  `>>>` block runs as a doctest. A block that uses names an earlier page defines gets the prelude in
  CONTEXTO, stated there.
- js: a script of its own under node, with `datoteca` resolving to the checkout (and the repository's
  node_modules, for the libraries the pages compare with); `.mjs` when it imports, else `.cjs`. The same
  literal rule holds for a `// comment`. A block that imports vitest is a test file, run by Vitest.
- sh (and an untagged block whose lines start with `$ `, a transcript): line by line in one bash
  process, with the built CLI first on PATH (DATOTECA_CLI). A line that installs or builds, or needs a
  service (psql), is not run: SALTA_LINEA says why, and the summary lists it. In a transcript the lines
  after a command are its output (stdout and stderr): compared exactly unless NO_EXACTA says why not;
  an output that starts with `datoteca:` is an error, so the command must fail.
- c: a program with main() is compiled against c/include, linked with the built library and run; the
  line a `printf(...); /* X */` comment shows must be a line of its output. A fragment is compiled and
  linked inside a function whose parameters are the names it uses undeclared (CONTEXTO), not run.
- sql: run in SQLite (Python's sqlite3) when it is SQLite's SQL; PostgreSQL-only blocks are listed.
- toml and json blocks are test_docs_ejemplos.py's; docs/faker.md's blocks are test_docs_faker.py's.
- Output, grammar and layout blocks (untagged or `text`, without `$ ` lines; ebnf) are not code.

Blocks of one page that build on each other run concatenated in page order where JUNTOS says so.
Run with -s, or read the inventory test's output, for the summary: blocks per kind, run, skipped and why."""
import ast
import collections
import glob
import hashlib
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import tokenize

import pytest

from conftest import ROOT

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
LIB = os.environ.get("DATOTECA_LIBRARY", os.path.join(ROOT, "build-c", "libdatoteca.so.3"))
ADDON = os.path.join(ROOT, "build", "Release", "datoteca.node")
CLAVE_PRUEBA = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"  # the published test key
# A key for the blocks that make or read clave.hex without showing its value: fixed, so a failure
# replays; not the test key, which the CLI refuses without --clave-de-prueba.
CLAVE_FIJA = hashlib.sha256(b"datoteca docs").hexdigest()

VALLA = re.compile(r"^(?P<sangria>[ \t]*)(?P<valla>`{3,}|~{3,})(?P<info>[^\n`]*)\n(?P<texto>.*?)^(?P=sangria)(?P=valla)[ \t]*$",
                   re.M | re.S)


class Bloque:
    def __init__(self, pagina, linea, lengua, texto):
        self.pagina, self.linea, self.lengua, self.texto = pagina, linea, lengua, texto
        self.clave = f"{pagina}@{hashlib.sha256(texto.encode()).hexdigest()[:10]}"
        self.id = f"{pagina}:{linea}"
        self.primera = next((l.strip() for l in texto.splitlines() if l.strip()), "")


def _paginas():
    return ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))


def _bloques():
    out = []
    for pagina in _paginas():
        texto = open(os.path.join(ROOT, pagina), encoding="utf-8").read()
        for m in VALLA.finditer(texto):
            sangria = m.group("sangria")
            cuerpo = "".join(l[len(sangria):] if l.startswith(sangria) else l for l in m.group("texto").splitlines(True))
            lengua = (m.group("info").split() or [""])[0].lower()
            out.append(Bloque(pagina, texto.count("\n", 0, m.start()) + 1, lengua, cuerpo))
    return out


BLOQUES = _bloques()
POR_CLAVE = {b.clave: b for b in BLOQUES}


# --- What is not run here, and why. Keyed by page@sha256[:10] of the block's text, so an edited block
# comes back for review; the comment names the block's line and first words for the reader. ---

NO_CORRE = {
    # Builds and installs: the build itself, not an example of use.
    "README.md@25d00fbe7d": "make demo / make test / make check: the build and the test runs (.ci/run runs make test)",  # :21
    "README.md@102a813ecb": "builds and installs into /opt, then compiles app.c through pkg-config: tests/c/install_consumers.sh "
                            "installs to a prefix and builds a consumer through pkg-config; app.c, the README's C block, runs here",  # :46
    # Other languages, run elsewhere or by nothing.
    "README.md@73a1d1458c": "Java fragment: this layer has no Java runner (bindings/java's tests call the same API)",  # :190
    "README.md@b7ad60f5c5": "Go fragment (no package, no main): this layer has no Go runner",  # :212
    "README.md@a05db8969a": "Go test fragment: this layer has no Go runner",  # :223
    "docs/go.md@6556401ae6": "run by tests/go/desde_clon.sh, in a scratch module outside the repository ('From a clone')",  # :29
    "docs/go.md@104a079e6f": "Go fragment (no package, no main): this layer has no Go runner",  # :53
    "docs/go.md@d2eec8a61d": "Go fragment (no package, no main): this layer has no Go runner",  # :136
    "docs/go.md@65f32cdb37": "Go test fragment: this layer has no Go runner",  # :150
    "docs/java.md@98546052d1": "Java fragment: this layer has no Java runner",  # :46
    "docs/java.md@84310fdacb": "Java test fragment (JUnit): this layer has no Java runner",  # :100
    "docs/java.md@f9ab03afed": "Maven coordinates (XML), not code",  # :29
    # Services this file does not start.
    "docs/hacia.md@decb3575fe": "a PostgreSQL server and a .pgpass: test_hacia.py runs inferir and --hacia against a server "
                                "it starts, with PGPASSWORD and a password in the URL",  # :31
    "docs/hacia.md@e307d28365": "a MariaDB server and a ~/.my.cnf: test_inferir_mariadb.py runs inferir and test_hacia_mariadb.py "
                                "--hacia against a server they start, with a ~/.my.cnf and a password in the URL",  # :38
    "docs/copia.md@ba6ed2bdd0": "production servers (prod.interno) and an app.db: tests/python/test_detectar_url.py runs "
                                "detectar on sqlite: and postgresql:// URLs of the reference application",  # :9
    "docs/copia.md@b274003679": "a prod.db and its reglas.toml: tests/python/test_detectar_url.py runs detectar and this copiar "
                                "on the reference application and judges the copy with SQLite",  # :81
    "docs/copia.md@1b43c24e14": "a prod.db, its reglas.toml and clave.hex: tests/python/test_detectar_url.py writes this dump "
                                "and loads it into an empty database",  # :101
    "docs/copia.md@fa10ee6fb1": "a prod.db, its reglas.toml and clave.hex: tests/python/test_detectar_url.py runs these "
                                "subsets on the reference application and checks their foreign keys",  # :130
    "docs/copia.md@0198841137": "a production server and a staging server (prod.interno, staging.interno): "
                                "tests/python/test_copiar_pg.py runs detectar and this copiar between two clusters it starts",  # :145
    "docs/copia.md@ba09de0391": "a $PROD server: tests/python/test_copiar_pg.py writes this dump and loads it with this psql "
                                "into a fresh database of a second cluster",  # :197
    "docs/copia.md@4e69ffeefb": "a $PROD server and a staging server: tests/python/test_copiar_pg.py runs this subset between "
                                "two clusters it starts and checks its counts and constraints",  # :213
    "docs/copia.md@ca16b80f89": "a production MariaDB server and a staging one: tests/python/test_copiar_mariadb.py runs "
                                "detectar and this copiar against a server it starts",  # :221
    "docs/copia.md@6b75f8eec4": "a prod.db, its reglas.toml and clave.hex: tests/python/test_detectar_url.py runs this --donde "
                                "on the reference application and checks it keeps every pyme cliente and no other",  # :144
    "docs/copia.md@af573b001c": "a production server and a staging server: tests/python/test_copiar_pg.py runs these steps "
                                "(detectar, a key file, an empty database, copiar with --subconjunto clientes=10% --con-hijos) "
                                "between two clusters it starts",  # :9
    "docs/postgres.md@a281b51f8c": "a production database app with the extension and a key file under /etc: "
                                   "tests/python/test_postgres_copia.py runs detectar and this CALL on the reference application",  # :280
    "docs/copia.md@ee699537b0": "psql's \\copy from a $PROD server: tests/python/test_detectar_url.py exports every table of "
                                "the reference application and runs this enmascarar --tabla on it, then its leak check",  # :55
    "docs/inferir.md@e031081115": "a tienda.db and a PostgreSQL server: tests/node/inferir.test.mjs runs inferir and inferirConNotas "
                                  "with each option against SQLite, test_npm.py from the installed package against PostgreSQL "
                                  "and MariaDB servers it starts",  # :180
    "docs/postgres.md@ed79768786": "PostgreSQL with the datoteca extension installed (make install-postgres, as root): "
                                   "test_postgres_ext.py creates it",  # :30
    "docs/postgres.md@971ce05f91": "PostgreSQL with the datoteca extension: test_postgres_ext.py seeds a table in one statement",  # :46
    "docs/postgres.md@b24b2f28d6": "PostgreSQL with the datoteca extension: test_postgres_llenar.py fills a million rows",  # :62
    "docs/postgres.md@8b1a539c2e": "PostgreSQL with the datoteca extension: test_postgres_ext.py loads a schema in one call",  # :127
    "docs/postgres.md@94420a60f5": "PostgreSQL with the datoteca extension: test_postgres_ext.py masks through it",  # :156
    "docs/postgres.md@3d5de3d3fe": "PostgreSQL with the datoteca extension and a server-side key file: test_postgres_ext.py "
                                   "makes a masked copy of two tables",  # :209
    "docs/enmascarar.md@dfff149000": "needs a SparkSession (a JVM start): datoteca.spark.enmascarar runs in test_spark.py",  # :1647
    "docs/esquemas.md@4a16951576": "needs a SparkSession (a JVM start): the datoteca_esquema source runs in test_spark.py",  # :515
    "docs/scale.md@4732616262": "needs a SparkSession (a JVM start): the datoteca source runs in test_spark.py",  # :66
    # The WebAssembly build and the browser.
    "docs/wasm.md@4d7e53c36b": "the WebAssembly build's cargar(): tests/wasm/run.sh runs this block, from the page, in an "
                               "installed app (make test-wasm builds datoteca.wasm)",  # :38
    "docs/wasm.md@390b78e9f8": "a Vite app's imports ('?url' is the bundler's): ejemplos/wasm-vite, built and run in "
                               "Chromium by tests/wasm/navegador.sh",  # :78
    "docs/wasm.md@7cfbc686b7": "Vitest's browser mode in Chromium: tests/wasm/vitest_navegador.sh",  # :106
    "docs/wasm.md@bb0d44a1f6": "pip download / pip install of the WebAssembly wheel: tests/wasm/wheel.sh builds and installs it",  # :188
}

# Lines of a shell block that are not run, by how they start (after a `$ ` prompt), and why.
SALTA_LINEA = [
    (r"(sudo )?make |cmake |postgres/need_pgxs\.sh", "builds or installs the project (a build step, not an example of use)"),
    (r"pip |npm |apt-get |go get |mvn ", "installs packages"),
    (r"git |\.venv/bin/python tools/", "a maintainer's step on the repository itself"),
    (r"go mod |go run ", "a Go module's steps: tests/go/desde_clon.sh runs docs/go.md's, outside the repository"),
]

# Commands a shell line pipes into that this file replaces by a sink: the datoteca side of the line runs
# (its options, its exit status); what the sink would do is another test's.
SUMIDEROS = {
    "psql": "a PostgreSQL server: psql here reads and discards its input; the same DDL and COPY load a server in "
            "test_basesdedatos.py and test_esquema_bases.py",
}

# The recipes below are keyed by (page, first line of the block), so a fixed block keeps its recipe;
# test_every_recipe_names_one_block fails when one no longer matches.

# Names a block uses that its page defines elsewhere: the prelude it runs after (python, js), or the
# parameters of the function a C fragment is compiled in.
CONTEXTO = {
    ("docs/invalidos.md", ">>> d = Datoteca(seed=42)"): "from datoteca import Datoteca",
    ("docs/invalidos.md", "new Datoteca({ seed: 42 }).invalido.movil({ defecto: 'prefijo' }) // { valor: '+56 09 5337 8755', defecto: 'prefijo' }"):
        "const { Datoteca } = require('datoteca');",
    ("docs/sucios.md", 'Tabla("persona.persona", seed=42, sucio={"rut": 100, "comuna": 50})'): "from datoteca import Tabla",
    ("docs/sucios.md", "import datoteca"): "v = '012345678-5'  # the page's `ceros` example of a RUT",
    ("docs/sucios.md", "import phonenumbers"): "v = '09-1234 5678'  # the page's `antiguo` example of a mobile",
    ("docs/sucios.md", "const { format, clean } = require('rut.js');       // rut.js 2.1: clean() drops leading zeros itself"):
        "const { formatearRut } = require('datoteca'); const v = '012345678-5';",
    ("docs/sucios.md", "const { PhoneNumberUtil, PhoneNumberFormat } = require('google-libphonenumber');"): "const v = '09-1234 5678';",
    ("docs/sucios.md", "new Datoteca({ seed: 42 }).sucio.fijo('antiguo');  // { sucio: '071-278 3203', limpio: '+56712783203', forma: 'antiguo' }"):
        "const { Datoteca } = require('datoteca');",
    ("docs/sucios.md", "new Tabla('persona.persona', { seed: 42, sucio: { rut: 100 } })"): "const { Tabla } = require('datoteca');",
    ("docs/remuneraciones.md", "const d = new Datoteca({ seed: 42, hoy: '2025-07-31' });"): "const { Datoteca } = require('datoteca');",
    ("docs/esquemas.md", "dt_esquema *e;"): "const char *texto, size_t len, char *buf",
    ("docs/scale.md", "dt_tabla *t;                        /* dt_tabla_new, as in datasets.md */"): "void",
    ("docs/sucios.md", "dt_tabla_opciones o = {sizeof o, llamada, NULL, 0, 42};"): "const char *llamada",
}

# A block that continues an earlier one of its page runs after it, in page order.
JUNTOS = {
    ("docs/scale.md", "import { DateDay, Field, Int64, RecordBatch, Schema, Struct, Table, Utf8, makeData } from 'apache-arrow';"):
        ("docs/scale.md", "import { Tabla } from 'datoteca';"),
    ("README.md", "test.for(['F', 'M'])('alta con sexo %s', (sexo, { datoteca }) => {"):
        ("README.md", "import { test } from 'datoteca/vitest';"),
}

# Text replaced before a block runs (the page is unchanged), with the reason beside it.
SUSTITUIR = {
    ("docs/scale.md", "import datoteca, pyarrow as pa, polars as pl, duckdb"):
        [("t.arrow(10_000_000)", "t.arrow(100_000)")],     # 10,000,000 DTEs to Parquet take minutes; the path is the same
    ("docs/scale.md", "import { Tabla } from 'datoteca';"):
        [("desde < 10_000_000", "desde < 1_000_000")],     # one 1,000,000-row slice runs the loop as ten do
    ("docs/enmascarar.md", "$ cd ejemplos/enmascarar && (umask 077; openssl rand -hex 32 > /tmp/clave.hex)"):
        [("/tmp/", "$DOCS_TMP/")],                         # the test's own directory, not the machine's /tmp
    ("docs/enmascarar.md", "$ cd ejemplos/enmascarar && openssl rand -hex 32 > /tmp/clave.hex && chmod 600 /tmp/clave.hex"):
        [("/tmp/", "$DOCS_TMP/")],
}

# Transcripts whose shown output is not byte-exact, and why (their commands still run and must succeed).
NO_EXACTA = {
    ("docs/enmascarar.md", "$ cd ejemplos/enmascarar && openssl rand -hex 32 > /tmp/clave.hex && chmod 600 /tmp/clave.hex"):
        "a fresh random key, so the masked copy and its linkage numbers change with it; the JSON is wrapped by hand",
}

# Comments that look like a literal but show a shape, not a value.
NO_LITERAL = {
    ("docs/scale.md", "import { Tabla } from 'datoteca';"): {"'YYYY-MM-DD'"},
}

# Files a block needs beyond the common ones: name -> (source, mode). A source is "copy:<repo path>",
# "jsonl:<repo csv>" (its rows as JSON Lines), "parquet:<repo csv>" or the text itself.
_MUESTRA = "ejemplos/enmascarar/clientes.csv"
_REGLAS = "copy:ejemplos/enmascarar/reglas-clientes.toml"
ARCHIVOS = {
    ("docs/enmascarar.md", "$ datoteca detectar muestra.csv > reglas.toml      # then review every rule"):
        {"muestra.csv": ("copy:" + _MUESTRA, 0o644), "real.csv": ("copy:" + _MUESTRA, 0o644)},
    ("docs/enmascarar.md", "$ datoteca enmascarar --reglas reglas.toml --clave-archivo clave.hex --entrada real.jsonl --salida enmascarado.jsonl"):
        {"reglas.toml": (_REGLAS, 0o644), "clave.hex": (CLAVE_FIJA + "\n", 0o600), "real.jsonl": ("jsonl:" + _MUESTRA, 0o644)},
    ("docs/enmascarar.md", "$ datoteca enmascarar --reglas r.toml --clave-archivo clave.hex"):
        {"r.toml": (_REGLAS, 0o644), "clave.hex": (CLAVE_FIJA + "\n", 0o644)},  # the block shows a mode-644 key refused
    ("docs/enmascarar.md", "$ datoteca enmascarar --reglas r.toml --clave-archivo $(cat clave.hex)"):
        {"r.toml": (_REGLAS, 0o644), "clave.hex": (CLAVE_FIJA + "\n", 0o600)},
    ("docs/enmascarar.md", "import datoteca, pyarrow.parquet as pq"):
        {"clientes.parquet": ("parquet:" + _MUESTRA, 0o644), "c.parquet": ("parquet:" + _MUESTRA, 0o644)},
    ("docs/enmascarar.md", "import polars as pl"):
        {"reglas.toml": (_REGLAS, 0o644), "clave.hex": (CLAVE_FIJA + "\n", 0o600)},
    ("docs/enmascarar.md", "const { Enmascarador } = require('datoteca');"):
        {"reglas.toml": ("version = 1\n[politica]\nsin_regla = \"mantener\"\n[columnas]\nrut = { regla = \"rut\" }\n"
                         "nombres = { regla = \"persona\", campo = \"nombres\", entidad = \"rut\" }\nnotas = { regla = \"borrar\" }\n", 0o644),
         "clave.hex": (CLAVE_FIJA + "\n", 0o600)},
}


# Environment a block's commands assume, and why.
ENTORNO = {
    ("docs/enmascarar.md", "$ datoteca enmascarar --reglas reglas.toml --clave-archivo clave.hex --entrada real.jsonl --salida enmascarado.jsonl"):
        {"DATOTECA_CLAVE": CLAVE_FIJA},  # its second line takes the key from DATOTECA_CLAVE, as the page's list of options says
}

# The worked example of docs/enmascarar.md: its input block (two CSVs, a blank line between), the rules
# its prose describes ("reglas-clientes.toml gives id mantener, rut rut, and nombre_completo, email,
# telefono and comuna the rule persona with their own campo and entidad = "rut"; reglas-cuentas.toml
# gives numero and saldo mantener and rut_titular rut"), and the output block the commands must give.
_EJEMPLO = ("docs/enmascarar.md", "$ datoteca enmascarar --reglas reglas-clientes.toml --clave-archivo clave.hex --clave-de-prueba < clientes.csv > clientes-m.csv")
ARCHIVOS[_EJEMPLO] = {
    "clave.hex": (CLAVE_PRUEBA + "\n", 0o600),  # "With the test key 000102…1f"
    "clientes.csv": (("bloque", "docs/enmascarar.md", "id,rut,nombre_completo,email,telefono,comuna", 0), 0o644),
    "cuentas.csv": (("bloque", "docs/enmascarar.md", "id,rut,nombre_completo,email,telefono,comuna", 1), 0o644),
    "reglas-clientes.toml": ('version = 1\n[columnas]\nid = { regla = "mantener" }\nrut = { regla = "rut" }\n'
                             + "".join(f'{c} = {{ regla = "persona", campo = "{c}", entidad = "rut" }}\n'
                                       for c in ("nombre_completo", "email", "telefono", "comuna")), 0o644),
    "reglas-cuentas.toml": ('version = 1\n[columnas]\nnumero = { regla = "mantener" }\nrut_titular = { regla = "rut" }\n'
                            'saldo = { regla = "mantener" }\n', 0o644),
}

# Files a block writes that must equal an output block of its page (joined by a blank line).
DESPUES = {
    _EJEMPLO: (["clientes-m.csv", "cuentas-m.csv"], ("docs/enmascarar.md", "id,rut,nombre_completo,email,telefono,comuna", 1)),
}


def _bloque_de(pagina, primera, n=0):
    """The n-th block of a page that starts with this line."""
    return [x for x in BLOQUES if (x.pagina, x.primera) == (pagina, primera)][n]


def _receta(tabla, b, defecto=None):
    return tabla.get((b.pagina, b.primera), defecto)


def _no_literal(b):
    anterior = _receta(JUNTOS, b)
    return _receta(NO_LITERAL, b, set()) | (NO_LITERAL.get(anterior, set()) if anterior else set())


# --- Classification ---

def _clase(b):
    """What a block is: a kind this file runs, 'salida' (not code), or 'otro' (another test's)."""
    if b.clave in NO_CORRE:
        return "listado"
    if b.lengua in ("toml", "json"):
        return "otro"
    if b.pagina == "docs/faker.md":
        return "otro"
    if b.lengua in ("python", "py", "js", "javascript", "mjs", "ts", "typescript", "sh", "bash", "shell", "console", "c", "sql"):
        return {"py": "python", "javascript": "js", "mjs": "js", "typescript": "ts", "bash": "sh", "shell": "sh", "console": "sh"}.get(b.lengua, b.lengua)
    if b.lengua in ("", "text", "txt", "ebnf"):
        return "sh" if any(l.startswith("$ ") for l in b.texto.splitlines()) else "salida"
    return "desconocido"


OTRO = {"toml": "test_docs_ejemplos.py builds or parses it", "json": "test_docs_ejemplos.py builds or parses it"}


def _otro(b):
    return "test_docs_faker.py runs docs/faker.md's blocks" if b.pagina == "docs/faker.md" else OTRO[b.lengua]


# --- Shell: a block as steps ---

class Paso:
    def __init__(self, linea, orden):
        self.linea, self.orden, self.salida, self.salta = linea, orden, [], None


def _pasos(b):
    lineas = b.texto.splitlines()
    pasos = []
    if any(l.startswith("$ ") for l in lineas):  # a transcript: prompts, continuations, output
        for i, l in enumerate(lineas):
            if l.startswith("$ "):
                pasos.append(Paso(b.linea + 1 + i, l[2:]))
            elif pasos and not pasos[-1].salida and (l.startswith("> ") or l == ">"):
                pasos[-1].orden += "\n" + l[2:]
            elif pasos and l.strip():
                pasos[-1].salida.append(l)
    else:
        for i, l in enumerate(lineas):
            if not l.strip():
                continue
            if pasos and (pasos[-1].orden.rstrip().endswith("\\") or l.lstrip().startswith("#")):
                pasos[-1].orden += "\n" + l
            else:
                pasos.append(Paso(b.linea + 1 + i, l))
    for p in pasos:
        for patron, razon in SALTA_LINEA:
            if re.match(patron, p.orden.lstrip(), re.S):
                p.salta = razon
                break
    return pasos


# --- Python and JavaScript: comments that show a value ---

def _python_comparado(texto, etiqueta, no_literal=()):
    """The block with each `expr  # literal` statement made into a check of that value."""
    comentarios = {}
    for tok in tokenize.generate_tokens(io.StringIO(texto).readline):
        if tok.type == tokenize.COMMENT:
            comentarios[tok.start[0]] = tok.string[1:].strip()
    arbol = ast.parse(texto)
    cuerpo = []
    for nodo in arbol.body:
        com = comentarios.get(nodo.end_lineno)
        if isinstance(nodo, ast.Expr) and com is not None and com not in no_literal:
            try:
                esperado = ast.literal_eval(com)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                esperado = None
            else:
                llamada = ast.parse(f"__docs_igual(None, {com!r}, {etiqueta!r}, {nodo.lineno})").body[0]
                llamada.value.args[0] = nodo.value
                cuerpo.append(llamada)
                continue
            del esperado
        cuerpo.append(nodo)
    arbol.body = cuerpo
    return ast.unparse(ast.fix_missing_locations(arbol))


PY_IGUAL = textwrap.dedent('''\
    import ast as __ast
    def __docs_igual(actual, texto, etiqueta, linea):
        esperado = __ast.literal_eval(texto)
        if actual != esperado:
            raise AssertionError(f"{etiqueta}, line {linea} of the block: the page shows {esperado!r}, the code gives {actual!r}")
    ''')

# Loaded with node --require, so a .cjs and an .mjs block both see it as a global.
JS_IGUAL = textwrap.dedent('''\
    const util = require('node:util');
    globalThis.__docs_igual = function (calcular, texto, etiqueta, linea) {
      const actual = calcular();
      let esperado;
      try { esperado = new Function('return (' + texto + ');')(); } catch (e) { return actual; }  // prose, not a value
      if (!util.isDeepStrictEqual(actual, esperado))
        throw new Error(`${etiqueta}, line ${linea} of the block: the page shows ${texto}, the code gives ${util.inspect(actual)}`);
      return actual;
    };
    ''')
JS_LINEA = re.compile(r"^(?P<expr>(?!const |let |var |import |export |for |if |while |return |\}|\)|//)\S.*?);?\s*//\s*(?P<com>.+?)\s*$")


def _js_comparado(texto, etiqueta, no_literal=()):
    out = []
    for i, l in enumerate(texto.splitlines(), 1):
        m = JS_LINEA.match(l)
        if m and m.group("com") not in no_literal and "=>" not in m.group("expr") and m.group("expr").count("(") == m.group("expr").count(")"):
            out.append(f"__docs_igual(() => ({m.group('expr')}), {json.dumps(m.group('com'))}, {json.dumps(etiqueta)}, {i});")
        else:
            out.append(l)
    return "\n".join(out) + "\n"


# --- The working directory ---

def _csv_filas(ruta):
    import csv
    with open(os.path.join(ROOT, ruta), newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _preparar(b, dir_):
    """The common files, then the block's own (ARCHIVOS)."""
    for sub in ("esquemas", "ejemplos"):
        shutil.copytree(os.path.join(ROOT, sub), os.path.join(dir_, sub))
    for ruta in glob.glob(os.path.join(ROOT, "esquemas", "*.toml")) + glob.glob(os.path.join(ROOT, "ejemplos", "enmascarar", "*")):
        shutil.copy(ruta, dir_)
    for nombre, (fuente, modo) in _receta(ARCHIVOS, b, {}).items():
        destino = os.path.join(dir_, nombre)
        if isinstance(fuente, tuple):  # ("bloque", page, first line, part): a part of an input block
            partes = _bloque_de(fuente[1], fuente[2]).texto.split("\n\n")
            with open(destino, "w", encoding="utf-8") as f:
                f.write(partes[fuente[3]].rstrip("\n") + "\n")
        elif fuente.startswith("copy:"):
            shutil.copy(os.path.join(ROOT, fuente[5:]), destino)
        elif fuente.startswith("jsonl:"):
            with open(destino, "w", encoding="utf-8") as f:
                for fila in _csv_filas(fuente[6:]):
                    f.write(json.dumps(fila, ensure_ascii=False) + "\n")
        elif fuente.startswith("parquet:"):
            import pyarrow as pa
            import pyarrow.parquet as pq
            pq.write_table(pa.Table.from_pylist(_csv_filas(fuente[8:])), destino)
        else:
            with open(destino, "w", encoding="utf-8") as f:
                f.write(fuente)
        os.chmod(destino, modo)


def _texto(b):
    texto = b.texto
    anterior = _receta(JUNTOS, b)
    if anterior:
        texto = next(x.texto for x in BLOQUES if (x.pagina, x.primera) == anterior) + texto
    for viejo, nuevo in _receta(SUSTITUIR, b, []):
        assert viejo in texto, f"{b.id}: SUSTITUIR names {viejo!r}, which the block no longer has"
        texto = texto.replace(viejo, nuevo)
    return texto


def _entorno(dir_, b=None):
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(os.path.abspath(CLI)) + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = os.environ.get("PYTHONPATH", os.path.join(ROOT, "bindings", "python"))
    env["DATOTECA_LIBRARY"] = LIB
    env["DOCS_TMP"] = str(dir_)
    env.pop("DATOTECA_CLAVE", None)
    if b is not None:
        env.update(_receta(ENTORNO, b, {}))
    return env


def _falla(b, texto, r, que):
    return f"{b.id} ({b.clave}): {que}\n--- the block as run ---\n{texto}\n--- stdout ---\n{r.stdout[-4000:]}\n--- stderr ---\n{r.stderr[-4000:]}"


# --- Runners, one per kind ---

def _correr_python(b, dir_):
    texto = _texto(b)
    previo = _receta(CONTEXTO, b, "")
    if texto.lstrip().startswith(">>>"):
        archivo = dir_ / "bloque.txt"
        archivo.write_text(texto, encoding="utf-8")
        guion = (f"import doctest, sys\nglobs = {{}}\nexec({previo!r}, globs)\n"
                 f"r = doctest.testfile({str(archivo)!r}, module_relative=False, globs=globs, report=True)\n"
                 "sys.exit(1 if r.failed or not r.attempted else 0)\n")
    else:
        guion = PY_IGUAL + previo + "\n" + _python_comparado(texto, b.id, _no_literal(b))
    if re.search(r"^def test_", texto, re.M):  # a test file, as a reader's suite holds it: run by pytest
        (dir_ / "test_bloque.py").write_text(guion, encoding="utf-8")
        orden = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_bloque.py"]
    else:
        (dir_ / "bloque.py").write_text(guion, encoding="utf-8")
        orden = [sys.executable, "bloque.py"]
    r = subprocess.run(orden, cwd=dir_, env=_entorno(dir_, b), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, _falla(b, guion, r, "the Python block fails")
    if orden[1] == "-m":
        assert re.search(r"\b[1-9]\d* passed", r.stdout) and " failed" not in r.stdout, _falla(b, guion, r, "its tests did not pass")


def _node_modules(dir_):
    """dir_/node_modules: datoteca is the checkout; the rest are the repository's (apache-arrow, rut.js, …)."""
    nm = dir_ / "node_modules"
    nm.mkdir()
    for entrada in os.listdir(os.path.join(ROOT, "node_modules")):
        if entrada != "datoteca" and not entrada.startswith("."):
            os.symlink(os.path.join(ROOT, "node_modules", entrada), nm / entrada)
    os.symlink(ROOT, nm / "datoteca")


def _correr_js(b, dir_):
    if not os.path.exists(ADDON):
        pytest.skip("the Node addon is not built (make node): the JavaScript blocks need it")
    texto = _texto(b)
    previo = _receta(CONTEXTO, b, "")
    _node_modules(dir_)
    esm = re.search(r"^\s*(import|export) ", texto, re.M) is not None
    if re.search(r"from ['\"](vitest|datoteca/vitest)['\"]", texto):
        (dir_ / "bloque.test.mjs").write_text(previo + texto, encoding="utf-8")
        orden = [os.path.join(ROOT, "node_modules", ".bin", "vitest"), "run", "--root", str(dir_)]
    else:
        nombre = "bloque.mjs" if esm else "bloque.cjs"
        (dir_ / "__docs.cjs").write_text(JS_IGUAL, encoding="utf-8")
        (dir_ / nombre).write_text(previo + "\n" + _js_comparado(texto, b.id, _no_literal(b)), encoding="utf-8")
        orden = ["node", "--require", str(dir_ / "__docs.cjs"), nombre]
    r = subprocess.run(orden, cwd=dir_, env=_entorno(dir_, b), capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, _falla(b, texto, r, "the JavaScript block fails")


def _correr_sh(b, dir_):
    if not os.path.exists(CLI):
        pytest.skip("the CLI is not built (make build)")
    pasos = _pasos(b)
    assert pasos, f"{b.id}: a shell block with no command"
    sustituir = _receta(SUSTITUIR, b, [])
    salidas = dir_ / ".salidas"
    salidas.mkdir()
    guion = []
    for k, p in enumerate(pasos):
        if p.salta:
            continue
        orden = p.orden
        for viejo, nuevo in sustituir:
            orden = orden.replace(viejo, nuevo)
        guion.append(f"{{ {orden}\n}} > {salidas}/{k}.out 2>&1 < /dev/null\necho $? > {salidas}/{k}.rc")
    guion[:0] = [f"{nombre}() {{ cat > /dev/null; }}" for nombre in SUMIDEROS]
    if not any(not p.salta for p in pasos):
        return
    texto = "\n".join(guion) + "\n"
    r = subprocess.run(["bash", "-c", texto], cwd=dir_, env=_entorno(dir_, b), capture_output=True, text=True, timeout=300)
    exacta = _receta(NO_EXACTA, b) is None
    for k, p in enumerate(pasos):
        if p.salta:
            continue
        assert (salidas / f"{k}.rc").exists(), _falla(b, texto, r, f"line {p.linea} did not run")
        rc = int((salidas / f"{k}.rc").read_text())
        salida = (salidas / f"{k}.out").read_text(encoding="utf-8", errors="replace")
        error = bool(p.salida) and p.salida[0].startswith("datoteca:")
        assert (rc != 0) == error, \
            f"{b.id}, line {p.linea}: {p.orden!r} exits {rc}" + (" (the page shows an error)" if error else "") + f"\n{salida[-3000:]}"
        if p.salida and exacta:
            assert salida.rstrip("\n").split("\n") == p.salida, \
                f"{b.id}, line {p.linea}: {p.orden!r}\n--- the page shows ---\n" + "\n".join(p.salida) + f"\n--- it prints ---\n{salida}"
    despues = _receta(DESPUES, b)
    if despues:
        archivos, (pagina, primera, n) = despues
        escrito = "\n".join((dir_ / a).read_text(encoding="utf-8") for a in archivos)
        mostrado = _bloque_de(pagina, primera, n)
        assert escrito == mostrado.texto, f"{b.id}: {', '.join(archivos)} differ from {mostrado.id}:\n{escrito}"


def _correr_c(b, dir_):
    if not os.path.exists(LIB):
        pytest.skip("the library is not built (make build)")
    principal = re.search(r"\bint\s+main\s*\(", b.texto) is not None
    if principal:
        fuente = b.texto
    else:
        parametros = _receta(CONTEXTO, b)
        assert parametros is not None, f"{b.id}: a C fragment without main() needs its parameters in CONTEXTO"
        fuente = ("#include <datoteca.h>\n#include <stdio.h>\n#include <stdint.h>\n#include <stddef.h>\n"
                  f"void docs_fragmento({parametros});\nvoid docs_fragmento({parametros}) {{\n{b.texto}}}\n"
                  "int main(void) { return 0; }\n")
    (dir_ / "bloque.c").write_text(fuente, encoding="utf-8")
    cc = os.environ.get("CC", "cc")
    r = subprocess.run([cc, "-std=c11", "-Wall", "-I", os.path.join(ROOT, "c", "include"), "bloque.c", LIB,
                        f"-Wl,-rpath,{os.path.dirname(os.path.abspath(LIB))}", "-o", "bloque"],
                       cwd=dir_, capture_output=True, text=True)
    assert r.returncode == 0, _falla(b, fuente, r, "the C block does not compile and link")
    if not principal:
        return
    r = subprocess.run([str(dir_ / "bloque")], cwd=dir_, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, _falla(b, fuente, r, "the C program fails")
    lineas = r.stdout.splitlines()
    for m in re.finditer(r"printf\(.*\);\s*/\*\s*(.*?)\s*\*/", b.texto):
        assert m.group(1) in lineas, f"{b.id}: the page shows {m.group(1)!r}, the program printed {lineas}"


def _correr_sql(b, dir_):
    con = sqlite3.connect(str(dir_ / "bloque.db"))
    try:
        con.executescript(b.texto)
    finally:
        con.close()


CORRER = {"python": _correr_python, "js": _correr_js, "sh": _correr_sh, "c": _correr_c, "sql": _correr_sql}
# A block another one continues (JUNTOS) runs inside it, not alone.
_CONTINUADOS = set(JUNTOS.values())
CORREN = [b for b in BLOQUES if _clase(b) in CORRER and (b.pagina, b.primera) not in _CONTINUADOS]


@pytest.mark.parametrize("b", CORREN, ids=[b.id for b in CORREN])
def test_a_docs_block_runs(b, tmp_path):
    _preparar(b, tmp_path)
    CORRER[_clase(b)](b, tmp_path)


# --- The inventory: every block accounted for ---

def test_every_fence_is_a_block():
    """The pattern finds every fenced block: twice as many fence lines as blocks, page by page."""
    for pagina in _paginas():
        texto = open(os.path.join(ROOT, pagina), encoding="utf-8").read()
        vallas = len(re.findall(r"^[ \t]*(```|~~~)", texto, re.M))
        bloques = sum(1 for b in BLOQUES if b.pagina == pagina)
        assert vallas == 2 * bloques, f"{pagina}: {vallas} fence lines but {bloques} blocks found (an unclosed or odd fence?)"


def test_every_block_is_run_or_listed(capsys):
    por_clase = collections.Counter()
    listados, lineas_saltadas, sin_dueno = [], [], []
    for b in BLOQUES:
        c = _clase(b)
        por_clase[(b.lengua or "(untagged)", c)] += 1
        if c == "listado":
            listados.append((b, NO_CORRE[b.clave]))
        elif c == "otro":
            listados.append((b, _otro(b)))
        elif c == "sh":
            for p in _pasos(b):
                if p.salta:
                    lineas_saltadas.append((b, p))
        elif c not in CORRER and c != "salida":
            sin_dueno.append(b)
    salta = {b.clave for b in BLOQUES if _clase(b) == "sh" and all(p.salta for p in _pasos(b))}
    corren = [b for b in CORREN if b.clave not in salta]
    resumen = [f"docs blocks: {len(BLOQUES)} fenced blocks in README.md and docs/*.md"]
    for (lengua, c), n in sorted(por_clase.items()):
        resumen.append(f"  {lengua:<10} {c:<12} {n}")
    resumen.append(f"run here: {len(corren)} runs, and {len(_CONTINUADOS)} blocks inside the block that continues them ({', '.join(f'{k} {v}' for k, v in sorted(collections.Counter(_clase(b) for b in corren).items()))}); "
                   f"run by another test: {sum(1 for b in BLOQUES if _clase(b) == 'otro')}; not code: {por_clase_total(por_clase, 'salida')}; "
                   f"listed, not run: {sum(1 for b in BLOQUES if _clase(b) == 'listado')}; "
                   f"shell blocks whose every line is skipped: {len(salta)}")
    for b, razon in listados:
        resumen.append(f"  not run here: {b.id} ({b.lengua or 'untagged'}): {razon}")
    for b in BLOQUES:
        if _clase(b) == "sh":
            for p in _pasos(b):
                for nombre, razon in SUMIDEROS.items():
                    if not p.salta and re.search(rf"\b{nombre}\b", p.orden):
                        resumen.append(f"  line run with {nombre} a sink: {b.pagina}:{p.linea}: {p.orden.splitlines()[0][:60]!r}: {razon}")
    for b, p in lineas_saltadas:
        resumen.append(f"  line not run: {b.pagina}:{p.linea}: {p.orden.splitlines()[0][:60]!r}: {p.salta}")
    with capsys.disabled():  # the summary is the point of this test: shown on every run
        print("\n" + "\n".join(resumen))
    assert not sin_dueno, "blocks neither run nor listed (add a runner, or list them in NO_CORRE with the reason):\n" + \
        "\n".join(f"  {b.id} [{b.lengua}] {b.clave}: {b.primera[:70]}" for b in sin_dueno)


def por_clase_total(por_clase, clase):
    return sum(n for (_, c), n in por_clase.items() if c == clase)


def test_every_listed_block_and_recipe_names_a_block():
    """A stale entry means an edited block: look at it again, then update its key."""
    stale = [k for k in NO_CORRE if k not in POR_CLAVE]
    assert not stale, "NO_CORRE keys that match no block (the block was edited or removed; review it, then update the key):\n" + \
        "\n".join(f"  {k}" for k in stale) + "\ncurrent keys of unlisted blocks:\n" + \
        "\n".join(f"  {b.clave} {b.id} [{b.lengua}] {b.primera[:60]}" for b in BLOQUES
                  if _clase(b) in ("desconocido",) or (b.lengua in ("go", "java", "xml") and b.clave not in NO_CORRE))
    primeras = collections.Counter((b.pagina, b.primera) for b in BLOQUES)
    for nombre, tabla in (("CONTEXTO", CONTEXTO), ("JUNTOS", JUNTOS), ("SUSTITUIR", SUSTITUIR), ("NO_EXACTA", NO_EXACTA),
                          ("NO_LITERAL", NO_LITERAL), ("ARCHIVOS", ARCHIVOS)):
        for clave in tabla:
            assert primeras[clave] == 1, f"{nombre}: {clave} names {primeras[clave]} blocks (one expected): the block changed?"


def test_the_readme_names_the_record_keys():
    """The README's comment on persona.persona() lists keys the record has (issue #42, item 6)."""
    import datoteca
    b = next(b for b in BLOQUES if b.pagina == "README.md" and b.lengua == "python" and "d.persona.persona(" in b.texto)
    comentario = re.search(r"d\.persona\.persona\(.*?\)\s*#\s*a dict:\s*(.*)", b.texto).group(1)
    nombres = [n.strip(" …") for n in comentario.split(",")]
    claves = set(datoteca.Datoteca(seed=42).persona.persona(sexo="F"))
    assert len(nombres) >= 5 and set(nombres) <= claves, f"README.md:{b.linea}: {sorted(set(nombres) - claves)} are not keys of the record {sorted(claves)}"
