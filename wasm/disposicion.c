/* The wasm32 layout of the structs bindings/node/wasm.js (and bindings/python/datoteca/_wasm.py) read
 * and write in linear memory. wasm/build.sh compiles this file (syntax only) before the library: a
 * change of a struct in c/include/datoteca.h stops the build here instead of misreading memory. */
#include <stddef.h>

#include "datoteca.h"

#define EN(tipo, campo, off) _Static_assert(offsetof(tipo, campo) == (off), #tipo "." #campo " moved: update the WASM loaders")
#define MIDE(tipo, n) _Static_assert(sizeof(tipo) == (n), #tipo " changed size: update the WASM loaders")

EN(dt_param_info, name, 0); EN(dt_param_info, def, 8); EN(dt_param_info, min, 16); EN(dt_param_info, max, 24);
EN(dt_param_info, choices, 32); MIDE(dt_param_info, 40);
EN(dt_call_info, name, 0); EN(dt_call_info, kind, 4); EN(dt_call_info, nparams, 8); EN(dt_call_info, params, 12);
EN(dt_call_info, nfields, 16); EN(dt_call_info, fields, 20); MIDE(dt_call_info, 24);
EN(dt_referencia_info, name, 0); EN(dt_referencia_info, rows, 4); EN(dt_referencia_info, digest, 8); MIDE(dt_referencia_info, 16);
EN(dt_tabla_opciones, tamano, 0); EN(dt_tabla_opciones, llamada, 4); EN(dt_tabla_opciones, args, 8);
EN(dt_tabla_opciones, nargs, 12); EN(dt_tabla_opciones, seed, 16); EN(dt_tabla_opciones, seed_texto, 24);
EN(dt_tabla_opciones, seed_texto_len, 28); EN(dt_tabla_opciones, hoy_anio, 32); EN(dt_tabla_opciones, hoy_mes, 36);
EN(dt_tabla_opciones, hoy_dia, 40); EN(dt_tabla_opciones, campos, 44); EN(dt_tabla_opciones, unico, 48);
EN(dt_tabla_opciones, nulos, 52); EN(dt_tabla_opciones, sucio, 56); MIDE(dt_tabla_opciones, 64);
EN(dt_columna_info, nombre, 0); EN(dt_columna_info, tipo_sql, 4); EN(dt_columna_info, nulable, 8);
EN(dt_columna_info, unico, 12); EN(dt_columna_info, nulos_por_mil, 16); MIDE(dt_columna_info, 20);
EN(dt_esquema_columna_info, nombre, 0); EN(dt_esquema_columna_info, tipo_sql, 4); EN(dt_esquema_columna_info, nulable, 8);
EN(dt_esquema_columna_info, unico, 12); EN(dt_esquema_columna_info, clave_primaria, 16);
EN(dt_esquema_columna_info, ref_tabla, 20); EN(dt_esquema_columna_info, ref_columna, 24); MIDE(dt_esquema_columna_info, 28);
EN(struct ArrowArray, length, 0); EN(struct ArrowArray, null_count, 8); EN(struct ArrowArray, n_buffers, 24);
EN(struct ArrowArray, n_children, 32); EN(struct ArrowArray, buffers, 40); EN(struct ArrowArray, children, 44);
EN(struct ArrowArray, release, 52); MIDE(struct ArrowArray, 64);
