"""The Python package on the WebAssembly build (build-wasm/datoteca.wasm through wasmtime): the contract
every runtime joins (fixtures/golden.json byte for byte and the whole fingerprint, tests/python/
golden_runner.py's stages), the build's choice (DATOTECA_BACKEND, backend()), and the sentence of each
thing only the native build has. tests/wasm/run.sh runs this file with DATOTECA_BACKEND=wasm, together
with tests/python's argument and error cases (tests/casos_argumentos.json, tests/casos_errores.json)."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))

import datoteca  # noqa: E402
import golden_runner  # noqa: E402

if datoteca.backend() != "wasm":  # a run on the native build would prove nothing here
    raise SystemExit(f"tests/wasm/test_python_wasm.py: datoteca loaded the {datoteca.backend()} build; "
                     "run it with DATOTECA_BACKEND=wasm (tests/wasm/run.sh does)")

NATIVA = "install a native build (a platform wheel) or set DATOTECA_BACKEND=native"


def test_the_contract_golden_bytes_and_fingerprint():
    """versions, table digests, the golden sequence (value by value with its draws, then byte for byte),
    303 call digests, the dataset cases, the shipped schemas: the first failing stage names its seed,
    call, row and column."""
    said = []
    assert golden_runner.check(said.append) == 0, "\n".join(said)
    assert said[-1].startswith("contract (python): ok: "), said[-1]


def test_the_module_is_the_wasm_file_and_the_same_version():
    from datoteca import _lib

    assert type(_lib.lib).__module__ == "datoteca._wasm"
    assert datoteca.version() == "3.0.0" and datoteca.data_version() == golden_runner.load(golden_runner.FINGERPRINT)["data_version"]


def _import(env_extra, code="import datoteca; print(datoteca.backend())"):
    env = {k: v for k, v in os.environ.items() if k not in ("DATOTECA_BACKEND", "DATOTECA_LIBRARY", "DATOTECA_WASM")}
    env.update(env_extra)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)


def test_an_unknown_backend_name_is_refused():
    r = _import({"DATOTECA_BACKEND": "otro"})
    assert r.returncode != 0 and "DATOTECA_BACKEND must be 'native' or 'wasm', got 'otro'" in r.stderr, r.stderr


def test_without_a_native_library_the_wasm_build_loads():
    """A platform with no native wheel: no libdatoteca anywhere the loader looks."""
    r = _import({"DATOTECA_LIBRARY": "/nonexistent/libdatoteca.so"})
    assert r.returncode == 0 and r.stdout == "wasm\n", r.stderr


def test_native_forced_without_a_native_library_is_an_error_not_wasm():
    r = _import({"DATOTECA_BACKEND": "native", "DATOTECA_LIBRARY": "/nonexistent/libdatoteca.so"})
    assert r.returncode != 0 and "DATOTECA_BACKEND=native, but the native library does not load" in r.stderr, r.stderr


def test_a_missing_wasm_file_says_where_to_point():
    r = _import({"DATOTECA_BACKEND": "wasm", "DATOTECA_WASM": "/nonexistent/datoteca.wasm"})
    assert r.returncode != 0 and "the WebAssembly build does not load" in r.stderr, r.stderr


def test_same_values_as_the_native_library():
    """Every call's first values for two seeds, and dataset rows, against the native build in its own
    process (the CLI is the outside judge in the argument cases; this compares the two bindings)."""
    code = ("import json, datoteca; d = datoteca.Datoteca('cruce'); "
            "print(json.dumps([datoteca.backend(), [d.call(c) for c in datoteca.calls()], "
            "datoteca.Datoteca(2**64 - 1).many('persona.persona', 50), datoteca.Tabla('persona.persona', seed=3, "
            "unico=['rut'], nulos={'email': 100}).filas(100, desde=10**6)], ensure_ascii=False))")
    wasm = _import({"DATOTECA_BACKEND": "wasm"}, code)
    lib = os.environ.get("DATOTECA_NATIVE_LIBRARY", os.path.join(ROOT, "build-c", "libdatoteca.so"))
    native = _import({"DATOTECA_BACKEND": "native", "DATOTECA_LIBRARY": lib}, code)
    assert wasm.returncode == 0, wasm.stderr
    assert native.returncode == 0, native.stderr
    import json

    (bw, w), (bn, n) = (json.loads(wasm.stdout)[0], json.loads(wasm.stdout)[1:]), (json.loads(native.stdout)[0], json.loads(native.stdout)[1:])
    assert (bw, bn) == ("wasm", "native")
    for what, a, b in zip(("calls", "many", "filas"), w, n):
        for i, (x, y) in enumerate(zip(a, b)):
            assert x == y, f"{what}[{i}]: wasm {x!r}, native {y!r}"
        assert len(a) == len(b), what


@pytest.mark.parametrize("que, intento", [
    ("masking (Enmascarador)", lambda: datoteca.Enmascarador({"columnas": {}}, clave="00" * 32)),
    ("proponer_reglas()", lambda: datoteca.proponer_reglas([{"rut": "1-9"}])),
    ("Arrow (Tabla.arrow, datoteca.arrow)", lambda: datoteca.Tabla("rut").arrow(10)),
    ("Arrow (Tabla.arrow, datoteca.arrow)", lambda: datoteca.arrow("rut", 10)),
    ("Arrow (Esquema.arrow)", lambda: datoteca.Esquema(os.path.join(ROOT, "esquemas", "retail.toml")).arrow("clientes")),
    ("the command line (python -m datoteca)", lambda: __import__("datoteca.__main__").__main__.main(["rut"])),
])
def test_what_only_the_native_build_has_is_refused_in_one_sentence(que, intento):
    with pytest.raises(datoteca.DatotecaError) as info:
        intento()
    assert str(info.value) == f"datoteca: {que} is not in the WebAssembly build for Python; {NATIVA}"


def test_objects_die_and_their_blocks_return():
    """Blocks of dead objects go back to the module's allocator: a loop of instances does not grow memory."""
    from datoteca import _lib

    m = _lib.lib._m
    for _ in range(2000):
        datoteca.Datoteca(1).persona.persona()
    antes = m.memory.data_len(m.store)
    for _ in range(20000):
        with datoteca.Datoteca(2) as d:
            d.persona.persona()
        datoteca.Tabla("rut").filas(1)
    assert m.memory.data_len(m.store) == antes
