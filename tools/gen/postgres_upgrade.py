"""The extension's upgrade scripts: `ALTER EXTENSION datoteca UPDATE` from every released version.

A released version's install script is kept, as it shipped, in postgres/versiones/datoteca--<v>.sql (the
release step copies it there: docs/release.md). For each, the back end writes
postgres/datoteca--<v>--<current>.sql: the statements of the current script that the released one lacks,
in the current script's order. That is the whole upgrade because the extension only grows between
minor versions, as the data does: a function of a released version keeps its name, arguments, result
and attributes (its C code may change; the library keeps its values). A statement of the released script
that the current one no longer has is refused here, naming it: a change to a released object needs a
new major version (a new extension script) or a hand-written upgrade, never a silent one.
"""
from __future__ import annotations

import os
import re
from typing import List, Tuple

from spec import GENERATED


def sentencias(sql: str) -> List[str]:
    """The script's statements, each stripped of its comment lines, psql meta-command lines and surrounding
    space: split at each top-level ';' (outside '…' strings, "…" identifiers and $tag$…$tag$ bodies)."""
    out, cur, i, n = [], [], 0, len(sql)
    while i < n:
        c = sql[i]
        # A comment, or a psql meta-command line (the script's \echo … \quit guard): not a statement.
        if (c == "-" and sql.startswith("--", i)) or (c == "\\" and (i == 0 or sql[i - 1] == "\n")):
            j = sql.find("\n", i)
            i = n if j < 0 else j + 1
            continue
        if c in "'\"":
            j = i + 1
            while j < n and not (sql[j] == c and not sql.startswith(c * 2, j)):
                j += 2 if sql.startswith(c * 2, j) else 1
            cur.append(sql[i:j + 1])
            i = j + 1
            continue
        if c == "$":
            m = re.match(r"\$[A-Za-z_]*\$", sql[i:])
            if m:
                j = sql.find(m.group(0), i + len(m.group(0)))
                assert j >= 0, f"an unterminated {m.group(0)} body"
                cur.append(sql[i:j + len(m.group(0))])
                i = j + len(m.group(0))
                continue
        if c == ";":
            s = "".join(cur).strip()
            if s:
                out.append(s)
            cur = []
            i += 1
            continue
        cur.append(c)
        i += 1
    s = "".join(cur).strip()
    if s:
        out.append(s)
    return out


def actualizacion(anterior: str, actual: str, desde: str, hasta: str) -> str:
    viejas, nuevas = sentencias(anterior), sentencias(actual)
    quedan = set(nuevas)
    perdidas = [s for s in viejas if s not in quedan and not s.startswith("COMMENT ON ")]
    if perdidas:
        raise SystemExit(f"postgres/versiones/datoteca--{desde}.sql: {len(perdidas)} statements of the released "
                         f"version {desde} are not in {hasta} (a released object changed or went): "
                         + perdidas[0].split("\n")[0][:160])
    ya = set(viejas)
    nuevo = [s for s in nuevas if s not in ya]
    cabeza = [f"-- {GENERATED}: tools/gen/postgres_upgrade.py.",
              f"-- ALTER EXTENSION datoteca UPDATE from {desde} to {hasta}: the statements {hasta} adds.",
              "",
              f"\\echo Use \"ALTER EXTENSION datoteca UPDATE TO '{hasta}'\" to load this file. \\quit",
              ""]
    return "\n".join(cabeza + [s + ";\n" for s in nuevo])


def outputs(actual: str, ver: str, root: str) -> List[Tuple[str, str]]:
    d = os.path.join(root, "postgres", "versiones")
    out = []
    if not os.path.isdir(d):
        return out
    for nombre in sorted(os.listdir(d)):
        m = re.fullmatch(r"datoteca--(\d+\.\d+\.\d+)\.sql", nombre)
        if not m or m.group(1) == ver:
            continue
        with open(os.path.join(d, nombre), encoding="utf-8") as f:
            anterior = f.read()
        out.append((os.path.join(root, "postgres", f"datoteca--{m.group(1)}--{ver}.sql"),
                    actualizacion(anterior, actual, m.group(1), ver)))
    return out
