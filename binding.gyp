{
  "targets": [{
    "target_name": "datoteca",
    "sources": [
      "bindings/node/addon.cc",
      "<!@(node -p \"require('fs').readFileSync('c/fuentes.txt', 'utf8').trim().split(/\\s+/).join(' ')\")"
    ],
    "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")", "c/include", "c/src"],
    "defines": ["NAPI_VERSION=8", "NAPI_DISABLE_CPP_EXCEPTIONS"],
    "cflags": ["-O2", "-fvisibility=hidden"],
    "cflags_c": ["-std=c11"],
    "cflags_cc": ["-std=c++17", "-O2", "-fvisibility=hidden"],
    "cflags!": ["-fno-exceptions"]
  }]
}
