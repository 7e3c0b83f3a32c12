{
  "targets": [{
    "target_name": "datoteca",
    "sources": [
      "bindings/node/addon.cc",
      "c/src/gen.c", "c/src/fecha.c", "c/src/rut.c", "c/src/persona.c", "c/src/direccion.c",
      "c/src/telefono.c", "c/src/dinero.c", "c/src/banco.c", "c/src/empresa.c", "c/src/llamadas.c",
      "c/src/tablas.c"
    ],
    "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")", "c/include"],
    "defines": ["NAPI_VERSION=8", "NAPI_DISABLE_CPP_EXCEPTIONS"],
    "cflags": ["-O2", "-fvisibility=hidden"],
    "cflags_c": ["-std=c11"],
    "cflags_cc": ["-std=c++17", "-O2", "-fvisibility=hidden"],
    "cflags!": ["-fno-exceptions"]
  }]
}
