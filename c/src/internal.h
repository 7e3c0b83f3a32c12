/* Internal declarations shared by the library's source files. Not installed. */
#ifndef DT_INTERNAL_H
#define DT_INTERNAL_H

#include <string.h>

#include "datoteca.h"
#include "ref/tablas.gen.h"

/* PCG32 XSH-RR 64/32, bit for bit the reference pcg32_random_r. */
typedef struct dt_rng {
    uint64_t state;
    uint64_t inc; /* always odd */
} dt_rng;

/* Unique columns of a dataset row (tabla.c): what is unique, the keys of the permutations and
 * the row. A dt_gen of the sequential API has none (unico == NULL) and draws as always. */
enum { DT__U_RUT, DT__U_EMAIL, DT__U_TEL, DT__U_N };
typedef struct dt__unico {
    uint64_t fila;
    uint64_t clave[DT__U_N];
    uint8_t activo[DT__U_N];
} dt__unico;

struct dt_gen {
    dt_rng rng;
    int32_t hoy_anio, hoy_mes, hoy_dia;
    const dt__unico *unico;
};

/* A keyed bijection of [0, n) (unico.c), n >= 1, i < n: a Feistel network over the smallest
 * even bit width holding n, walked until it lands inside [0, n). Integer only. */
uint64_t dt__permutar(uint64_t clave, uint64_t n, uint64_t i);
/* The splitmix64 finalizer: the mixing function of row streams, keys and null decisions. */
uint64_t dt__mezcla(uint64_t x);

static inline int dt__es_unico(const dt_gen *g, int k) { return g->unico != NULL && g->unico->activo[k]; }
/* This row's place in a unique column of n values (the caller's n must cover the row). */
static inline uint64_t dt__unico_en(const dt_gen *g, int k, uint64_t n) {
    return dt__permutar(g->unico->clave[k], n, g->unico->fila);
}

#define DT_PCG_MULT 6364136223846793005ULL

static inline uint32_t dt__next(dt_gen *g) {
    uint64_t old = g->rng.state;
    g->rng.state = old * DT_PCG_MULT + g->rng.inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

/* Two draws as one 64-bit value, the high word first. */
static inline uint64_t dt__next64(dt_gen *g) {
    uint64_t hi = dt__next(g);
    uint64_t lo = dt__next(g);
    return (hi << 32) | lo;
}

/* Unbiased integer in [0, n), n >= 1 (Lemire): one draw plus one per rejection. */
static inline uint32_t dt__below(dt_gen *g, uint32_t n) {
    uint64_t m = (uint64_t)dt__next(g) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)dt__next(g) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Weighted pick through an integer alias table: one bounded draw. */
static inline uint32_t dt__alias(dt_gen *g, const dt_t_alias *t) {
    uint32_t r = dt__below(g, t->n << t->k);
    uint32_t col = r >> t->k;
    uint32_t coin = r & ((1u << t->k) - 1u);
    return coin < t->prob[col] ? col : t->alias[col];
}

void dt__seed(dt_rng *rng, uint64_t initstate, uint64_t initseq);
uint64_t dt__fnv1a64(const char *s, size_t len);

/* ---- text building: callers size their scratch from the documented maxima ---- */

static inline char *dt__put(char *p, const char *s, size_t n) {
    memcpy(p, s, n);
    return p + n;
}
static inline char *dt__puts(char *p, const dt_t_str *s) { return dt__put(p, s->s, s->n); }
static inline char *dt__putc(char *p, char c) {
    *p = c;
    return p + 1;
}
/* Unsigned and signed decimal without padding. */
/* The minimum monthly wage in force on g's reference date; before the first date the table knows,
 * its first amount (docs/data.md). No draw. */
uint32_t dt__sueldo_minimo(const dt_gen *g);
char *dt__put_u64(char *p, uint64_t v);
char *dt__put_i64(char *p, int64_t v);
/* Exactly `width` digits, zero-padded. */
char *dt__put_u32_width(char *p, uint32_t v, int width);
/* Decimal with '.' between groups of three digits (Chilean thousands separator). */
char *dt__put_miles(char *p, uint64_t v);
/* Lower-case ASCII fold of UTF-8 text for email parts: letters and digits kept,
 * á→a, ñ→n, ü→u …, everything else (spaces, apostrophes) dropped. */
char *dt__put_ascii_fold(char *p, const char *s, size_t n);

/* Copy `n` bytes and a NUL into the caller's buffer, or report the needed size. */
dt_status dt__copy_out(const char *tmp, size_t n, char *buf, size_t cap, size_t *len);
/* A sentence into the caller's buffer, truncated to cap (NUL-terminated when cap > 0); *len its full length. */
void dt__sentence_out(const char *why, char *buf, size_t cap, size_t *len);
/* Finish a text call: copy `n` bytes from `tmp` into the caller's buffer, or restore
 * the stream and report the needed size. */
dt_status dt__emit(dt_gen *g, const dt_rng *saved, const char *tmp, size_t n,
                   char *buf, size_t cap, size_t *len);
/* Validate (buf, cap) before generating. */
static inline dt_status dt__check_out(const dt_gen *g, const char *buf, size_t cap) {
    if (g == NULL || (buf == NULL && cap > 0)) return DT_ERR_NULL;
    return DT_OK;
}
/* Copy a text and a NUL into a record's fixed char array. tools/gen_tables.py refuses table data
 * that would not fit (naming the CSV, line and field), so the bound never cuts a value; it is
 * here so that no edit of a CSV can write past a struct field. `dst` must be the array itself. */
static inline void dt__field_n(char *dst, size_t cap, const char *src, size_t n) {
    if (n >= cap) n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}
#define dt__field(dst, src, n) dt__field_n((dst), sizeof(dst), (src), (n))


/* ---- generators used across namespaces: they write into `p` and return the end ---- */

int dt__sexo(dt_gen *g, int sexo);                    /* resolves CUALQUIERA (one draw) */
char *dt__gen_nombre(dt_gen *g, int sexo_resuelto, char *p);
char *dt__gen_nombres(dt_gen *g, int sexo_resuelto, char *p, char **primero_fin);
char *dt__gen_apellido(dt_gen *g, char *p);
char *dt__gen_email(dt_gen *g, const char *nombre, size_t nn, const char *apellido, size_t na, char *p);
uint32_t dt__gen_rut_cuerpo(dt_gen *g, int tipo);
uint32_t dt__gen_rut_cuerpo_nacido(dt_gen *g, int32_t anio, int32_t anio_hoy);
char *dt__put_rut(char *p, uint32_t cuerpo, int formato);
char dt__dv(uint32_t cuerpo);
uint32_t dt__gen_region(dt_gen *g, int32_t region); /* index into dt_t_regiones */
uint32_t dt__gen_comuna(dt_gen *g, uint32_t region_index); /* index into dt_t_comunas */
void dt__gen_direccion(dt_gen *g, int32_t region, dt_direccion *out, uint32_t *comuna_index);
/* An address's draws, before any text: a person record writes only its line and comuna. */
typedef struct dt__sorteo_direccion {
    uint32_t region, comuna;  /* indices into dt_t_regiones, dt_t_comunas */
    const dt_t_str *tipo, *nombre;
    uint32_t numero;
    uint32_t piso, unidad;    /* piso 0: no depto */
} dt__sorteo_direccion;
void dt__sortear_direccion(dt_gen *g, int32_t region, dt__sorteo_direccion *d);
/* The address's linea (no NUL; under 192 bytes) at p; returns the end. */
char *dt__put_linea(char *p, const dt__sorteo_direccion *d);
/* A company as its record and a DTE's emisor draw it (empresa.c). */
typedef struct dt__empresa_base {
    char razon[96], fantasia[80];
    const dt_t_str *giro;
    uint32_t cuerpo;  /* RUT body */
    uint32_t comuna;  /* index into dt_t_comunas */
    dt_direccion direccion;
} dt__empresa_base;
void dt__gen_empresa_base(dt_gen *g, dt__empresa_base *out);
void dt__gen_empresa_nombre_rut(dt_gen *g, dt__empresa_base *out); /* names and RUT only */
char *dt__gen_movil(dt_gen *g, int formato, char *p);
char *dt__gen_fijo_area(dt_gen *g, uint32_t area, int formato, char *p);
char *dt__gen_fecha_nacimiento(dt_gen *g, int32_t edad_min, int32_t edad_max, char *p, int32_t *edad);
/* A birth date for a given age (one draw: the day), written at p. */
char *dt__gen_fecha_edad(dt_gen *g, int32_t edad, char *p);
/* Dataset mode: the persona RUT bodies a unique column permutes for ages edad_min..edad_max on
 * hoy (the typical RUNs of the youngest and oldest birth years, widened by the dispersion). */
void dt__rut_nacido_dominio(int32_t anio_hoy, int32_t edad_min, int32_t edad_max, uint32_t *lo, uint32_t *hi);
/* The birth year a RUN body points to: the last year whose typical RUN is at most the body. */
int32_t dt__anio_de_run(uint32_t cuerpo);
/* Unique mode: the capacities of a unique email number and company RUT (docs/datasets.md). */
#define DT__EMAIL_UNICOS 100000000u
int64_t dt__range(dt_gen *g, int64_t lo, int64_t hi); /* lo <= hi */
/* A plate reduced to its parts (vehiculo.c; invalido.c perturbs them). */
typedef struct dt__ppu {
    char letras[4];
    uint8_t nletras;
    uint16_t numero; /* the digits as a number: 2 digits (new, moto) or 4 (old) */
    int tipo;
} dt__ppu;
void dt__gen_ppu(dt_gen *g, int tipo, dt__ppu *out);     /* one draw */
char dt__ppu_dv(const dt__ppu *p);                       /* the Registro Civil's check digit */
char *dt__put_ppu(char *p, const dt__ppu *v, int formato); /* at most 12 bytes, no NUL */

#include "registro/generadores.gen.h"

/* Text that grows as it is written (a DDL, a rules proposal): start from {NULL, 0, 0, 0}; after an
 * allocation fails every later dt__tx is a no-op and sin_memoria is 1. The caller frees p. */
typedef struct dt__creciente {
    char *p;
    size_t n, cap;
    int sin_memoria;
} dt__creciente;
#if defined(__MINGW_PRINTF_FORMAT)
void dt__tx(dt__creciente *x, const char *fmt, ...) __attribute__((format(__MINGW_PRINTF_FORMAT, 2, 3)));
#elif defined(__GNUC__) || defined(__clang__)
void dt__tx(dt__creciente *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#else
void dt__tx(dt__creciente *x, const char *fmt, ...);
#endif

/* The kind of personal data s[0, n) looks like (the `detectar` utility, c/src/ns/detectar.c): "rut",
 * "email", "telefono", "patente", "fecha", "comuna", "nombre_completo", "nombre", "apellido", "texto"
 * or "". Static strings; pure and thread-safe. */
const char *dt__detectar(const char *s, size_t n);
/* What else s[0, n) holds, as bits (c/src/ns/detectar.c): a capitalised given name followed by a surname
 * (or after Sr., Sra., don, doña); a date in a common spelling; a run of 7 or more digits; a RUT,
 * email, phone or plate among its words; 4 or more words (prose). Pure and thread-safe. */
enum { DT__SENAL_NOMBRE = 1, DT__SENAL_FECHA = 2, DT__SENAL_DIGITOS = 4, DT__SENAL_DATO = 8, DT__SENAL_PROSA = 16 };
unsigned dt__detectar_senales(const char *s, size_t n);
/* A text that looks like a value (a number, a RUT, an email, a phone, a date, a name...) rather than a
 * column's name: a header line that is data. */
int dt__parece_dato(const char *s, size_t n);
/* A word's kinds among the library's given names and surnames (c/src/ns/detectar.c): bit 1 a woman's
 * given name, 2 a man's, 4 a surname, 0 none; case and Latin-1 accents ignored. Pure. */
unsigned dt__nombre_palabra(const char *s, size_t n);

/* SQL names (c/src/nucleo/sql_nombre.c). A name of a table or column: 1 to DT__SQL_NOMBRE_MAX bytes of
 * ASCII letters, digits, '_' and well-formed UTF-8 letters beyond ASCII, not starting with a digit
 * (what PostgreSQL keeps of a name: 63 bytes). dt__sql_nombre writes s[0, n) as SQL must spell it, bare
 * or double-quoted (a keyword, upper case, beyond ASCII), NUL-terminated, into out of at least
 * DT__SQL_CITADO_MAX bytes, and returns its length. Pure and thread-safe; NULL is never valid. */
#define DT__SQL_NOMBRE_MAX 63
#define DT__SQL_CITADO_MAX (2 * DT__SQL_NOMBRE_MAX + 3)
int dt__sql_nombre_valido(const char *s, size_t n);
size_t dt__sql_nombre(const char *s, size_t n, char *out);

#endif
