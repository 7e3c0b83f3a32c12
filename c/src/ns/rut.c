/* RUT: generation, check digit, parsing of what people type, formatting. */
#include "internal.h"

/* The one mod-11 of the library lives in dt__put_rut; the check digit is its last character. */
char dt__dv(uint32_t cuerpo) {
    char tmp[16];
    return dt__put_rut(tmp, cuerpo, DT_RUT_LIMPIO)[-1];
}

uint32_t dt__gen_rut_cuerpo(dt_gen *g, int tipo) {
    if (dt__es_unico(g, DT__U_RUT)) { /* a dataset's unique column: this row's place, no draw */
        if (tipo == DT_RUT_EMPRESA)
            return DT_RUT_EMPRESA_MIN + (uint32_t)dt__unico_en(g, DT__U_RUT, DT_RUT_EMPRESA_MAX - DT_RUT_EMPRESA_MIN + 1);
        return DT_RUT_PERSONA_MIN + (uint32_t)dt__unico_en(g, DT__U_RUT, DT_RUT_PERSONA_MAX - DT_RUT_PERSONA_MIN + 1);
    }
    if (tipo == DT_RUT_EMPRESA) return DT_RUT_EMPRESA_MIN + dt__below(g, DT_RUT_EMPRESA_MAX - DT_RUT_EMPRESA_MIN + 1);
    return DT_RUT_PERSONA_MIN + dt__below(g, DT_RUT_PERSONA_MAX - DT_RUT_PERSONA_MIN + 1);
}

/* Typical RUN (in thousands) of people born in a year, at ten-year anchors from 1900 to
 * 2030, interpolated linearly. RUNs are assigned in order: newborns got about 27 million
 * around 2020 and some 400,000 numbers are used a year (Chiletec, see c/data/PROVENANCE.md);
 * people born before the 1970s got theirs as children or adults, which flattens the curve.
 * The anchors before 2020 are approximations from general knowledge (docs/data.md). */
static const uint32_t dt__run_anio[14] = {800,  1100, 1500,  2500,  4000,  6000,  8500,
                                          11000, 14000, 17300, 20500, 23800, 27000, 31000};
#define DT__RUN_DISPERSION 600000u /* ± around the typical RUN of the year */

/* The typical RUN of people born in `anio` (1900..2029), interpolated between the anchors. */
static int64_t dt__run_tipico(int32_t anio) {
    if (anio < 1900) anio = 1900;
    if (anio > 2029) anio = 2029;
    int32_t k = (anio - 1900) / 10, resto = (anio - 1900) % 10;
    return ((int64_t)dt__run_anio[k] * 10 + ((int64_t)dt__run_anio[k + 1] - dt__run_anio[k]) * resto) * 100;
}

void dt__rut_nacido_dominio(int32_t anio_hoy, int32_t edad_min, int32_t edad_max, uint32_t *lo, uint32_t *hi) {
    int64_t a = dt__run_tipico(anio_hoy - edad_max - 1) - DT__RUN_DISPERSION;
    int64_t b = dt__run_tipico(anio_hoy - edad_min) + DT__RUN_DISPERSION, emitido = dt__run_tipico(anio_hoy);
    if (b > emitido) b = emitido;
    if (b > DT_RUT_PERSONA_MAX) b = DT_RUT_PERSONA_MAX;
    if (a < DT_RUT_PERSONA_MIN) a = DT_RUT_PERSONA_MIN;
    if (a > b) a = b;
    *lo = (uint32_t)a;
    *hi = (uint32_t)b;
}

int32_t dt__anio_de_run(uint32_t cuerpo) {
    int32_t anio = 1900;
    while (anio < 2029 && dt__run_tipico(anio + 1) <= (int64_t)cuerpo) anio++;
    return anio;
}

/* One bounded draw, uniform over the typical RUN of the birth year ± DT__RUN_DISPERSION, kept
 * inside the persona range and never above what had been issued by the reference year: the RUN
 * newborns get in `anio_hoy` (RUNs are assigned in order, so nobody holds a newer one). */
uint32_t dt__gen_rut_cuerpo_nacido(dt_gen *g, int32_t anio, int32_t anio_hoy) {
    int64_t centro = dt__run_tipico(anio), emitido = dt__run_tipico(anio_hoy);
    int64_t lo = centro - DT__RUN_DISPERSION, hi = centro + DT__RUN_DISPERSION;
    if (hi > emitido) hi = emitido;
    if (hi > DT_RUT_PERSONA_MAX) hi = DT_RUT_PERSONA_MAX;
    if (lo < DT_RUT_PERSONA_MIN) lo = DT_RUT_PERSONA_MIN;
    if (lo > hi) lo = hi; /* born after the reference year: cannot happen for an age >= 0 */
    return (uint32_t)(lo + dt__below(g, (uint32_t)(hi - lo + 1)));
}

/* One pass over the digits gives both the text and the check digit: weights 2..7 from the right,
 * DV = 11 - sum mod 11, 11 -> 0, 10 -> K. At most 9 digits: a RUT has 8 (cuerpo <=
 * DT_RUT_CUERPO_MAX), invalido.rut's largo writes a 9-digit body with its own mod 11. */
char *dt__put_rut(char *p, uint32_t cuerpo, int formato) {
    static const uint8_t pesos[9] = {2, 3, 4, 5, 6, 7, 2, 3, 4};
    char d[9];
    int n = 0;
    uint32_t suma = 0;
    do {
        uint32_t q = cuerpo / 10, digito = cuerpo - q * 10;
        suma += digito * pesos[n];
        d[n++] = (char)('0' + digito);
        cuerpo = q;
    } while (cuerpo);
    for (int i = n - 1; i >= 0; i--) {
        *p++ = d[i];
        if (formato == DT_RUT_PUNTOS && i && i % 3 == 0) *p++ = '.';
    }
    if (formato != DT_RUT_LIMPIO) *p++ = '-';
    uint32_t r = 11 - suma % 11;
    *p++ = r == 11 ? '0' : r == 10 ? 'K' : (char)('0' + r);
    return p;
}

char *dt__rut(dt_gen *g, dt_rut_tipo tipo, dt_rut_formato formato, char *p) {
    return dt__put_rut(p, dt__gen_rut_cuerpo(g, tipo), formato);
}

/* ASCII whitespace: space, tab, newline, vertical tab, form feed, carriage return. */
static int dt__es_espacio(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* The length of the dash that ends s[i..n): 1 for '-', 3 for the dashes people paste from
 * documents (U+2010 to U+2015 and U+2212 in UTF-8), 0 if there is none. */
static size_t dt__guion_final(const char *s, size_t i, size_t n) {
    if (n > i && s[n - 1] == '-') return 1;
    if (n - i >= 3) {
        const unsigned char *u = (const unsigned char *)s + n - 3;
        if (u[0] == 0xE2 && ((u[1] == 0x80 && u[2] >= 0x90 && u[2] <= 0x95) || (u[1] == 0x88 && u[2] == 0x92))) return 3;
    }
    return 0;
}
static int dt__es_digito(char c) { return c >= '0' && c <= '9'; }

dt_status dt_rut_leer(const char *s, size_t len, uint32_t *cuerpo_out, char *dv_out) {
    if (s == NULL && len > 0) return DT_ERR_NULL;
    size_t i = 0, n = len;
    while (i < n && dt__es_espacio(s[i])) i++;
    while (n > i && dt__es_espacio(s[n - 1])) n--;
    if (n - i < 2) return DT_ERR_INVALID_RUT;
    /* check digit */
    char dv = s[n - 1];
    if (dv == 'k') dv = 'K';
    if (!dt__es_digito(dv) && dv != 'K') return DT_ERR_INVALID_RUT;
    n--;
    n -= dt__guion_final(s, i, n);
    /* body: digits, optionally with a dot before every group of three from the right */
    size_t digitos = 0, puntos = 0, desde_punto = 0;
    uint32_t cuerpo = 0;
    int con_puntos = 0;
    for (size_t j = n; j > i; j--) {
        char c = s[j - 1];
        if (c == '.') {
            if (desde_punto != 3 || j - 1 == i) return DT_ERR_INVALID_RUT;
            puntos++;
            con_puntos = 1;
            desde_punto = 0;
        } else if (dt__es_digito(c)) {
            desde_punto++;
            digitos++;
            if (digitos > 8) return DT_ERR_INVALID_RUT;
        } else {
            return DT_ERR_INVALID_RUT;
        }
    }
    if (digitos == 0 || s[i] == '0') return DT_ERR_INVALID_RUT;
    if (con_puntos && puntos != (digitos - 1) / 3) return DT_ERR_INVALID_RUT; /* all groups dotted */
    for (size_t j = i; j < n; j++)
        if (s[j] != '.') cuerpo = cuerpo * 10 + (uint32_t)(s[j] - '0');
    if (dt__dv(cuerpo) != dv) return DT_ERR_INVALID_RUT;
    if (cuerpo_out) *cuerpo_out = cuerpo;
    if (dv_out) *dv_out = dv;
    return DT_OK;
}

dt_status dt_rut_validar(const char *s, size_t len) { return dt_rut_leer(s, len, NULL, NULL); }

/* ---- utilities (the registry checked the arguments: c/src/registro/utilidades.c) ---- */

dt_status dt__util_validar_rut(const char *s, size_t n, const int64_t *a, char *p, char **end) {
    (void)a;
    *end = p;
    return dt_rut_leer(s, n, NULL, NULL);
}

dt_status dt__util_rut_dv(const char *s, size_t n, const int64_t *a, char *p, char **end) {
    (void)s, (void)n;
    *p = dt__dv((uint32_t)a[0]);
    *end = p + 1;
    return DT_OK;
}

dt_status dt__util_formatear_rut(const char *s, size_t n, const int64_t *a, char *p, char **end) {
    uint32_t cuerpo;
    dt_status st = dt_rut_leer(s, n, &cuerpo, NULL);
    *end = st == DT_OK ? dt__put_rut(p, cuerpo, (int)a[0]) : p;
    return st;
}
