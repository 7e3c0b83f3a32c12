"""Every code block of docs/faker.md runs (issue #42, item 7): each Python block as a script of its own
in a fresh interpreter, as a reader would paste it, with its asserts (the values the page shows) in
force; each shell block line by line through the CLI, its `# output` comment compared with what the CLI
prints. A block in another language fails: a new kind of example needs a way to be run here."""
import os
import re
import shlex
import subprocess
import sys

import pytest

from conftest import ROOT

PAGINA = os.path.join(ROOT, "docs", "faker.md")
CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
BLOQUE = re.compile(r"^```(?P<lengua>\w*)[ \t]*\n(?P<texto>.*?)^```", re.M | re.S)


def _bloques():
    texto = open(PAGINA, encoding="utf-8").read()
    return [pytest.param(m.group("lengua"), m.group("texto"), id=f"docs/faker.md:{texto.count(chr(10), 0, m.start()) + 1}")
            for m in BLOQUE.finditer(texto)]


BLOQUES = _bloques()


def test_the_page_has_its_blocks():
    lenguas = [b.values[0] for b in BLOQUES]
    assert lenguas.count("python") >= 5 and lenguas.count("sh") >= 1, f"docs/faker.md blocks: {lenguas} (the pattern broke?)"


@pytest.mark.parametrize("lengua, texto", BLOQUES)
def test_a_block_runs(lengua, texto, tmp_path):
    if lengua == "python":
        guion = tmp_path / "ejemplo.py"
        guion.write_text(texto, encoding="utf-8")
        r = subprocess.run([sys.executable, str(guion)], capture_output=True, text=True, cwd=str(tmp_path))
        assert r.returncode == 0, f"the block fails as a script:\n{texto}\n{r.stdout}{r.stderr}"
    elif lengua == "sh":
        if not os.path.exists(CLI):
            pytest.skip("the CLI is not built (make build)")
        for linea in texto.splitlines():
            orden, _, salida = linea.partition("#")
            argumentos = shlex.split(orden)
            assert argumentos[:1] == ["datoteca"] and salida.strip(), f"a shell line this test cannot check: {linea!r}"
            r = subprocess.run([CLI, *argumentos[1:]], capture_output=True, text=True)
            assert r.returncode == 0 and r.stdout.strip() == salida.strip(), \
                f"{orden.strip()!r}: the page says {salida.strip()!r}, the CLI printed {r.stdout.strip()!r} {r.stderr}"
    else:
        pytest.fail(f"a {lengua or 'plain'} block: nothing here runs it")
