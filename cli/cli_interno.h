/* What the CLI's two modes share: argument parsing helpers and the output buffer with its
 * JSON and CSV escaping. */
#ifndef DT_CLI_INTERNO_H
#define DT_CLI_INTERNO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "datoteca.h"

/* Output assembled in memory: written to `f` whenever it fills when `f` is set (the sequential
 * mode), grown instead when it is NULL (a --jobs worker's block). A failed write sets `error`
 * and later writes are dropped: the caller checks it and exits non-zero, never losing data silently. */
typedef struct outbuf {
    char *data, *p, *end;
    FILE *f;
    int error;
} outbuf;

int ob_init(outbuf *o, size_t cap, FILE *f); /* 0 on success */
void ob_free(outbuf *o);
void ob_flush(outbuf *o);
void ob_put(outbuf *o, const char *s, size_t n);
void ob_putc(outbuf *o, char c);
void json_string(outbuf *o, const char *s, size_t n);
/* A CSV cell: quoted when it holds a comma, a quote or a line break. `vacio_entre_comillas`
 * writes an empty text as "" so that PostgreSQL's COPY reads it as empty, not NULL. */
void csv_field(outbuf *o, const char *s, size_t n, int vacio_entre_comillas);

int parse_u64(const char *s, unsigned long long max, unsigned long long *out);
int parse_i64(const char *s, long long *out);
int parse_fecha(const char *s, int32_t out[3]);
/* Progress on stderr when it is a terminal (see cli_comun.c); start with {-1, 0}. */
typedef struct progreso_t {
    int activo;
    long long ultimo;
} progreso_t;
void progreso(progreso_t *p, unsigned long long hecho, unsigned long long total);
/* A seed: decimal, or 0x and 1 to 16 hexadecimal digits. */
int parse_seed(const char *s, unsigned long long *out);

/* What a command line asks for. Nothing here is specific to a call: the registry describes them. */
typedef struct peticion {
    size_t index;
    const dt_call_info *info;
    const char *key; /* the name of a plain value's column: the call's last part */
    unsigned long long seed, count;
    const char *seed_str;
    int seed_given, hoy_given;
    int32_t hoy[3];
    int formato;
    int64_t args[DT_MAX_PARAMS];
    size_t nargs;
} peticion;

/* The call named by `arg` into r (a namespace alone means its record: persona -> persona.persona);
 * --PARAM VALUE into r->args. 0, or 2 with the reason printed. */
int parse_call(const char *arg, peticion *r);
int parse_param(peticion *r, const char *opt, const char *val);
int param_index(const dt_call_info *info, const char *opt);
/* The options both modes take: --seed, --seed-str, --hoy and the call's own; anything else left is
 * an unexpected argument. 0, or 2 with the reason printed. */
int parse_comun(peticion *r, const char *opt, const char *val);
/* argv[i] must be one of the mode's own options (`propias`) or the call's, and have a value after it:
 * 0, or 2 with the reason printed. `modo` is "" or "tabla " for the help it points to. */
int check_opcion(const peticion *r, int argc, char **argv, int i, const char *const *propias, size_t n, const char *modo);
/* 2 (with the reason printed) when both --seed and --seed-str were given, else 0. */
int check_seeds(const peticion *r);
/* Print a call's help (parameters, ranges, defaults, fields, an example) to `f`. */
void call_help(FILE *f, const dt_call_info *c, const char *modo);

#endif
