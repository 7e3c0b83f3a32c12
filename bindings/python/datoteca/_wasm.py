"""The WebAssembly back end of the Python package: build-wasm/datoteca.wasm (the same C core) run by
wasmtime, for a platform where no native libdatoteca loads, or when DATOTECA_BACKEND=wasm forces it.

`cargar(path)` returns `(ffi, lib)`: the part of cffi's FFI and of the loaded library that the package
uses (ffi.new, string, unpack, buffer, gc, release, sizeof, NULL; lib.dt_* and the DT_ constants), over
the module's linear memory, so _lib.py and every module on it are the same code for both builds (as
bindings/node/wasm.js is for Node). Like cffi it only converts and calls; it never draws a number or
judges a value. Struct offsets are wasm32's, asserted at build time by wasm/disposicion.c.

Not in this build, each refused with one sentence (docs/wasm.md): Arrow (pyarrow reads C pointers, and
the rows live in the module's memory), masking (Enmascarador), proponer_reglas and the command line.

Thread-safety: one module instance per process; every call into it holds one lock (wasmtime lets go
of the GIL while WebAssembly runs, and one instance must not run two calls at once), so objects used
on different threads are safe, and take turns.
Memory: a block from ffi.new is freed after its Python object dies, at the next call under the lock
(a finalizer may run while another call is inside the module).
"""
from __future__ import annotations

import importlib
import struct
import threading
import weakref
from typing import Any, Callable, Dict, List, Optional, Tuple

from ._comun_gen import CODES, STATE_SIZE, DatotecaError
from ._wasm_exports_gen import EXPORTS

_U32 = 0xFFFFFFFF
_U64 = 0xFFFFFFFFFFFFFFFF
_I64_MIN = -(2**63)

# Scalars: (size, struct format). wasm32: size_t and pointers are 4 bytes, int is 4.
_ESCALARES: Dict[str, Tuple[int, str]] = {
    "char": (1, "b"), "uint8_t": (1, "B"), "int": (4, "i"), "int32_t": (4, "i"), "uint32_t": (4, "I"),
    "size_t": (4, "I"), "int64_t": (8, "q"), "uint64_t": (8, "Q"),
}
# The structs the package reads or fills: size and {field: (offset, type)}; a type ending in '*' is a
# pointer. Each offset is one of wasm/disposicion.c's assertions.
_STRUCTS: Dict[str, Tuple[int, Dict[str, Tuple[int, str]]]] = {
    "dt_param_info": (40, {"name": (0, "char *"), "def": (8, "int64_t"), "min": (16, "int64_t"),
                           "max": (24, "int64_t"), "choices": (32, "char * *")}),
    "dt_call_info": (24, {"name": (0, "char *"), "kind": (4, "int"), "nparams": (8, "size_t"),
                          "params": (12, "dt_param_info *"), "nfields": (16, "size_t"), "fields": (20, "char * *")}),
    "dt_referencia_info": (16, {"name": (0, "char *"), "rows": (4, "uint32_t"), "digest": (8, "uint64_t")}),
    "dt_tabla_opciones": (64, {"tamano": (0, "size_t"), "llamada": (4, "size_t"), "args": (8, "int64_t *"),
                               "nargs": (12, "size_t"), "seed": (16, "uint64_t"), "seed_texto": (24, "char *"),
                               "seed_texto_len": (28, "size_t"), "hoy_anio": (32, "int32_t"),
                               "hoy_mes": (36, "int32_t"), "hoy_dia": (40, "int32_t"), "campos": (44, "char *"),
                               "unico": (48, "char *"), "nulos": (52, "char *"), "sucio": (56, "char *")}),
    "dt_columna_info": (20, {"nombre": (0, "char *"), "tipo_sql": (4, "char *"), "nulable": (8, "int"),
                             "unico": (12, "int"), "nulos_por_mil": (16, "uint32_t")}),
    "dt_esquema_columna_info": (28, {"nombre": (0, "char *"), "tipo_sql": (4, "char *"), "nulable": (8, "int"),
                                     "unico": (12, "int"), "clave_primaria": (16, "int"),
                                     "ref_tabla": (20, "char *"), "ref_columna": (24, "char *")}),
}
# Functions returning a pointer, and to what; every other export returns a status, a count or nothing.
_DEVUELVEN_PUNTERO = {"dt_version": "char", "dt_status_str": "char", "dt_call_at": "dt_call_info",
                      "dt_util_at": "dt_call_info", "dt_esquema_tabla": "char"}
# What needs the native build, by the prefix of the C functions it calls (the sentence names it).
_SOLO_NATIVO = (("dt_mascara_", "masking (Enmascarador)"), ("dt_detector_", "proponer_reglas()"),
                ("dt_cli_", "the command line"), ("dt_tabla_arrow", "Arrow (Tabla.arrow, datoteca.arrow)"),
                ("dt_esquema_arrow", "Arrow (Esquema.arrow)"), ("dt_arrow_", "Arrow"))
_CONSTANTES = {name: status for status, name in CODES.items()}
_CONSTANTES.update(DT_STATE_SIZE=STATE_SIZE, DT_ESQUEMA_TOML=1, DT_ESQUEMA_JSON=2)

# The module imports three WASI functions (stdio's close, seek, write, linked in by snprintf); no
# exported function writes to a file, so each answers "bad file descriptor".
_EBADF = 8


def solo_nativo(que: str) -> DatotecaError:
    """The refusal of something only the native build has (one sentence, naming the way out)."""
    return DatotecaError(f"datoteca: {que} is not in the WebAssembly build for Python; "
                         "install a native build (a platform wheel) or set DATOTECA_BACKEND=native")


def _tamano(tipo: str) -> int:
    if tipo.endswith("*"):
        return 4
    if tipo in _ESCALARES:
        return _ESCALARES[tipo][0]
    return _STRUCTS[tipo][0]


class CData:
    """A pointer into linear memory: its address, what it points to (`tipo`), how many of them when
    it is an array (`n`). Indexing reads and writes elements, attributes read and write a struct's
    fields, equality compares addresses (ffi.NULL is address 0)."""

    __slots__ = ("_m", "_addr", "_tipo", "_n", "_fin", "__weakref__")

    def __init__(self, m: "_Modulo", addr: int, tipo: str, n: Optional[int] = None) -> None:
        object.__setattr__(self, "_m", m)
        object.__setattr__(self, "_addr", addr)
        object.__setattr__(self, "_tipo", tipo)
        object.__setattr__(self, "_n", n)
        object.__setattr__(self, "_fin", None)

    def _leer(self, addr: int, tipo: str) -> Any:
        m = self._m
        if tipo.endswith("*"):
            return CData(m, m.u32(addr), tipo[:-1].rstrip())
        if tipo in _ESCALARES:
            size, fmt = _ESCALARES[tipo]
            return struct.unpack("<" + fmt, m.leer(addr, size))[0]
        return CData(m, addr, tipo)  # a struct in place (info.params[i])

    def _escribir(self, addr: int, tipo: str, value: Any) -> None:
        if isinstance(value, CData):
            value = value._addr
        if tipo.endswith("*"):
            self._m.escribir(addr, struct.pack("<I", value))
        else:
            self._m.escribir(addr, struct.pack("<" + _ESCALARES[tipo][1], value))

    def __getitem__(self, i: int) -> Any:
        return self._leer(self._addr + i * _tamano(self._tipo), self._tipo)

    def __setitem__(self, i: int, value: Any) -> None:
        self._escribir(self._addr + i * _tamano(self._tipo), self._tipo, value)

    def __getattr__(self, name: str) -> Any:
        off, tipo = _STRUCTS[self._tipo][1][name]
        return self._leer(self._addr + off, tipo)

    def __setattr__(self, name: str, value: Any) -> None:
        off, tipo = _STRUCTS[self._tipo][1][name]
        self._escribir(self._addr + off, tipo, value)

    def __len__(self) -> int:
        return self._n or 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CData) and other._addr == self._addr

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._addr)

    def __repr__(self) -> str:
        return f"<datoteca wasm {self._tipo} * 0x{self._addr:x}>"


class _Modulo:
    """One instance of datoteca.wasm in a wasmtime store: its memory, malloc/free, and the lock every
    call takes."""

    def __init__(self, path: str) -> None:
        # only this back end needs it; typed Any so mypy reads the same with or without wasmtime installed
        wasmtime: Any = importlib.import_module("wasmtime")

        self.store = wasmtime.Store(wasmtime.Engine())
        module = wasmtime.Module.from_file(self.store.engine, path)
        linker = wasmtime.Linker(self.store.engine)
        for imp in module.imports:
            if imp.module != "wasi_snapshot_preview1" or imp.name not in ("fd_close", "fd_seek", "fd_write"):
                raise ImportError(f"datoteca: {path} imports {imp.module}.{imp.name}: it is not the build for this loader")
            linker.define_func(imp.module, imp.name, imp.type, lambda *a: _EBADF)
        instance = linker.instantiate(self.store, module)
        x = instance.exports(self.store)
        missing = [n for n in EXPORTS if n not in x]
        if missing:
            raise ImportError(f"datoteca: {path} lacks {', '.join(missing)}: it is not the build for this loader")
        self.x = x
        self.memory = x["memory"]
        self.lock = threading.RLock()
        self.pendientes: List[int] = []  # blocks whose Python object died, freed at the next call
        if "_initialize" in x:
            x["_initialize"](self.store)
        self._malloc = x["malloc"]
        self._free = x["free"]

    def leer(self, addr: int, n: int) -> bytes:
        return bytes(self.memory.read(self.store, addr, addr + n))

    def escribir(self, addr: int, data: bytes) -> None:
        self.memory.write(self.store, data, addr)

    def u32(self, addr: int) -> int:
        return int(struct.unpack("<I", self.leer(addr, 4))[0])

    def cadena(self, addr: int, limite: Optional[int]) -> bytes:
        """The bytes at addr up to its NUL (or `limite` bytes), as ffi.string."""
        fin = self.memory.data_len(self.store)
        out = b""
        paso = limite if limite is not None else 256
        while True:
            stop = min(addr + paso, fin) if limite is None else min(addr + limite, fin)
            chunk = self.leer(addr, stop - addr)
            k = chunk.find(b"\0")
            if k >= 0:
                return out + chunk[:k]
            out += chunk
            if limite is not None or stop >= fin:
                return out
            addr = stop

    def malloc(self, n: int) -> int:
        with self.lock:
            self._liberar()
            p = int(self._malloc(self.store, max(n, 1))) & _U32
        if p == 0:
            raise MemoryError("datoteca: out of WebAssembly memory")
        return p

    def _liberar(self) -> None:
        while self.pendientes:
            self._free(self.store, self.pendientes.pop())

    def funcion(self, name: str) -> Callable[..., Any]:
        f = self.x[name]
        params = f.type(self.store).params
        i64 = tuple(str(p) == "i64" for p in params)
        devuelve = _DEVUELVEN_PUNTERO.get(name)
        results = f.type(self.store).results
        sin_signo64 = len(results) == 1 and str(results[0]) == "i64"  # every 64-bit result is a uint64_t
        store, lock = self.store, self.lock

        def llamar(*args: Any) -> Any:
            temporales = []
            conv = []
            for a, es64 in zip(args, i64):
                if isinstance(a, CData):
                    a = a._addr
                elif isinstance(a, (bytes, bytearray)):
                    # as cffi: a bytes argument is a char * to a NUL-ended copy, alive for the call
                    p = self.malloc(len(a) + 1)
                    self.escribir(p, bytes(a) + b"\0")
                    temporales.append(p)
                    a = p
                elif es64 and a > 2**63 - 1:
                    a -= 2**64  # a uint64_t travels as wasm's signed i64
                conv.append(a)
            with lock:
                self._liberar()
                try:
                    r = f(store, *conv)
                finally:
                    for p in temporales:
                        self._free(store, p)
            if devuelve is not None:
                return CData(self, int(r) & _U32, devuelve)
            if sin_signo64:
                return int(r) & _U64
            return r

        llamar.__name__ = name
        return llamar


class FFI:
    """The part of cffi.FFI the package uses, over one module's memory."""

    def __init__(self, m: _Modulo) -> None:
        self._m = m
        self.NULL = CData(m, 0, "char")

    def new(self, decl: str, init: Any = None) -> CData:
        decl = decl.strip()
        if decl.endswith("[]"):
            tipo = decl[:-2].strip()
            if isinstance(init, int):
                n, datos = init, b""
            elif isinstance(init, (bytes, bytearray)):
                n, datos = len(init) + 1, bytes(init) + b"\0"
            else:
                valores = list(init)
                n, fmt = len(valores), _ESCALARES[tipo][1]
                datos = struct.pack(f"<{n}{fmt}", *valores)
        else:
            if not decl.endswith("*"):
                raise TypeError(f"datoteca wasm: ffi.new({decl!r}) is not a pointer or an array")
            tipo, n, datos = decl[:-1].strip(), 1, b""
        size = max(n, 1) * _tamano(tipo)
        p = self._m.malloc(size)
        self._m.escribir(p, datos + bytes(size - len(datos)))
        c = CData(self._m, p, tipo, n)
        weakref.finalize(c, self._m.pendientes.append, p)
        return c

    def string(self, p: CData) -> bytes:
        if p._addr == 0:
            raise RuntimeError("cannot use string() on <cdata NULL>")
        return self._m.cadena(p._addr, p._n)

    def unpack(self, p: CData, n: int) -> bytes:
        return self._m.leer(p._addr, n)

    def buffer(self, p: CData) -> bytes:
        return self._m.leer(p._addr, (p._n or 1) * _tamano(p._tipo))

    def sizeof(self, tipo: str) -> int:
        return _tamano(tipo.strip())

    def gc(self, p: CData, destructor: Callable[[CData], Any]) -> CData:
        """A new reference to p whose death (or ffi.release) calls destructor(p) once."""
        c = CData(self._m, p._addr, p._tipo, p._n)
        object.__setattr__(c, "_fin", weakref.finalize(c, self._destruir, destructor, p._addr, p._tipo))
        return c

    def _destruir(self, destructor: Callable[[CData], Any], addr: int, tipo: str) -> None:
        # the C free functions take the lock themselves, and are re-entrant on this thread
        destructor(CData(self._m, addr, tipo))

    def release(self, p: CData) -> None:
        if p._fin is not None:
            p._fin()

    def cast(self, tipo: str, value: Any) -> Any:
        raise solo_nativo("Arrow and masking (C pointers handed to pyarrow)")

    def from_buffer(self, *a: Any) -> Any:
        raise solo_nativo("masking (Enmascarador)")


class Lib:
    """The library's functions (lib.dt_call(...)) and the DT_ constants the package reads."""

    def __init__(self, m: _Modulo) -> None:
        self._m = m

    def __getattr__(self, name: str) -> Any:
        if name in _CONSTANTES:
            return _CONSTANTES[name]
        for prefijo, que in _SOLO_NATIVO:
            if name.startswith(prefijo):
                def refusal(*a: Any, _que: str = que) -> Any:
                    raise solo_nativo(_que)
                return refusal
        if name.startswith("DT_MASCARA_"):
            raise solo_nativo("masking (Enmascarador)")
        if name not in EXPORTS:
            raise AttributeError(f"datoteca wasm: the module has no {name}")
        f = self._m.funcion(name)
        setattr(self, name, f)  # built once per name
        return f


def cargar(path: str) -> Tuple[FFI, Lib]:
    """(ffi, lib) over a new instance of the datoteca.wasm at path. ImportError when wasmtime is not
    installed or the file is not this loader's build."""
    try:
        import wasmtime  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
    except ImportError:
        raise ImportError("datoteca: the WebAssembly build needs the wasmtime package (pip install wasmtime)") from None
    m = _Modulo(path)
    return FFI(m), Lib(m)
