/* The value rules of masking (docs/enmascarar.md, "fecha", "monto", "sustituir"): dates shifted and
 * amounts scaled by a keyed amount per entity (or per value), and values replaced by what a library
 * call gives from a generator seeded with a keyed hash of the value. Integer arithmetic only; every
 * refusal names what is wrong with the text, never the text itself. Pure functions of the key and
 * their arguments: thread-safe. */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "mascara/mascara.h"
#include "nucleo/calendario.h"

/* Messages keyed by a value rather than an entity start at 2^63, so they can never equal an entity's
 * message (a masked RUT body, below 2^27). */
#define DT__MV_POR_VALOR ((uint64_t)1 << 63)

static dt_status dt__mv_no(char *why, size_t whycap, const char *frase) {
    if (why) dt__sentence_out(frase, why, whycap, NULL);
    return DT_ERR_INVALID_ARG;
}

static int dt__mv_digitos(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return 0;
    return 1;
}

static int32_t dt__mv_num(const char *s, size_t n) {
    int32_t v = 0;
    for (size_t i = 0; i < n; i++) v = v * 10 + (s[i] - '0');
    return v;
}

/* The three date forms, by where their separators are: fills the positions of year, month and day
 * and the day number z since 1970-01-01. 0, or the index of the sentence in dt__mv_fecha_mal. */
static const char *const dt__mv_fecha_mal[] = {
    "", "fecha: not a date written YYYY-MM-DD, DD-MM-YYYY or DD/MM/YYYY",
    "fecha: no such day in the calendar (the year, month or day is out of range)"};
static int dt__mv_leer_fecha(const char *in, size_t len, size_t *pa, size_t *pm, size_t *pd, int64_t *z) {
    int iso = len == 10 && in[4] == '-' && in[7] == '-', dmy = len == 10 && (in[2] == '-' || in[2] == '/') && in[5] == in[2];
    *pa = iso ? 0 : 6, *pm = iso ? 5 : 3, *pd = iso ? 8 : 0;
    if (!(iso || dmy) || !dt__mv_digitos(in + *pa, 4) || !dt__mv_digitos(in + *pm, 2) || !dt__mv_digitos(in + *pd, 2))
        return 1;
    int32_t a = dt__mv_num(in + *pa, 4), m = dt__mv_num(in + *pm, 2), d = dt__mv_num(in + *pd, 2);
    if (a < 1 || m < 1 || m > 12 || d < 1 || d > dt__dias_mes(a, m)) return 2;
    *z = dt__dias_desde_civil(a, m, d);
    return 0;
}

/* An amount: the prefix kept as it is (an optional '-', an optional '$' and one space after it), then
 * digits, plain or with a dot between groups of three. Fills the prefix's length, whether it had
 * dots, and the magnitude v. 0, or the index of the sentence in dt__mv_monto_mal. */
static const char *const dt__mv_monto_mal[] = {
    "", "monto: not an amount (digits, or digits with a dot between groups of three, after an optional "
        "'-' and an optional '$')",
    "monto: the amount has more than 14 digits, more than this rule scales exactly"};
static int dt__mv_leer_monto(const char *in, size_t len, size_t *pre_out, int *puntos_out, uint64_t *v_out) {
    size_t i = 0;
    if (i < len && in[i] == '-') i++;
    if (i < len && in[i] == '$') {
        i++;
        if (i < len && in[i] == ' ') i++;
    }
    size_t pre = i, grupo = 0, digitos = 0;
    int puntos = 0, bien = pre < len && !(len > pre + 1 && in[pre] == '0'); /* "0123", "0.123": a code */
    uint64_t v = 0;
    for (; bien && i < len; i++) {
        if (in[i] == '.') { /* between groups of three: 1..3 digits first, then exactly 3 each */
            bien = grupo > 0 && grupo <= 3 && (puntos == 0 || grupo == 3);
            puntos++;
            grupo = 0;
        } else if (in[i] >= '0' && in[i] <= '9') {
            if (++digitos <= 14) v = v * 10 + (uint64_t)(in[i] - '0');
            grupo++;
        } else {
            bien = 0;
        }
    }
    if (!bien || (puntos && grupo != 3)) return 1;
    if (digitos > 14) return 2;
    *pre_out = pre, *puntos_out = puntos, *v_out = v;
    return 0;
}

/* An amount written with a decimal point (a numeric(p,s) column, a CSV of prices: 0.99, -1234.56,
 * 13.5000), which dt__mv_leer_monto refuses: the part before the point (0, or digits not starting with
 * 0), the point, one digit or more after it, 14 digits in all. Its digits as one integer into *v_out
 * and the digits after the point into *decimales_out: 0, or 1 when it is no such number. */
static int dt__mv_leer_decimal(const char *in, size_t len, size_t *pre_out, uint64_t *v_out, int *decimales_out) {
    size_t i = 0;
    if (i < len && in[i] == '-') i++;
    if (i < len && in[i] == '$') {
        i++;
        if (i < len && in[i] == ' ') i++;
    }
    size_t pre = i, enteros = 0, decimales = 0;
    uint64_t v = 0;
    while (i < len && in[i] >= '0' && in[i] <= '9') v = v * 10 + (uint64_t)(in[i++] - '0'), enteros++;
    if (enteros == 0 || (enteros > 1 && in[pre] == '0') || i >= len || in[i] != '.') return 1;
    for (i++; i < len && in[i] >= '0' && in[i] <= '9'; i++) v = v * 10 + (uint64_t)(in[i] - '0'), decimales++;
    if (i != len || decimales == 0 || enteros + decimales > 14) return 1;
    *pre_out = pre, *v_out = v, *decimales_out = (int)decimales;
    return 0;
}

/* w written with `decimales` digits after a point (w the amount's digits as one integer). */
static char *dt__mv_put_decimal(char *p, uint64_t w, int decimales) {
    uint64_t q = 1;
    for (int i = 0; i < decimales; i++) q *= 10;
    p = dt__put_u64(p, w / q);
    *p++ = '.';
    uint64_t r = w % q;
    for (int i = decimales - 1; i >= 0; i--, r /= 10) p[i] = (char)('0' + r % 10);
    return p + decimales;
}

/* A keyed draw uniform in {-n..-1, 1..n}: h mod 2n (h a 64-bit SipHash; the bias of the modulo is
 * below 2n / 2^64), then 0..n-1 -> -n..-1 and n..2n-1 -> 1..n. Never 0: a shift of 0 would leave
 * the real value in place for one entity in 2n+1. */
static int64_t dt__mv_desfase(const uint64_t clave[2], uint64_t m, int64_t n) {
    uint64_t r = dt__siphash24_palabra(clave[0], clave[1], m) % (uint64_t)(2 * n);
    return (int64_t)r < n ? (int64_t)r - n : (int64_t)r - n + 1;
}

dt_status dt_mascara_fecha(const dt_mascara_clave *k, const char *in, size_t len, uint32_t entidad, int32_t dias,
                           char *buf, size_t cap, size_t *out_len, char *why, size_t whycap) {
    if (why && whycap) why[0] = '\0';
    if (out_len) *out_len = 0;
    if (buf && cap) buf[0] = '\0';
    if (k == NULL || (in == NULL && len > 0) || (buf == NULL && cap > 0)) {
        if (why) dt__sentence_out("fecha: k is NULL, or in or buf is NULL with a length", why, whycap, NULL);
        return DT_ERR_NULL;
    }
    if (dias < 1 || dias > DT_MASCARA_FECHA_DIAS_MAX) {
        if (why && whycap) snprintf(why, whycap, "fecha: dias must be from 1 to %d, got %ld", DT_MASCARA_FECHA_DIAS_MAX, (long)dias);
        return DT_ERR_INVALID_ARG;
    }
    if (entidad > DT_RUT_CUERPO_MAX) return dt__mv_no(why, whycap, "fecha: entidad must be a RUT body up to 99999999, or 0");
    size_t pa, pm, pd;
    int64_t z;
    int mal = dt__mv_leer_fecha(in, len, &pa, &pm, &pd, &z);
    if (mal) return dt__mv_no(why, whycap, dt__mv_fecha_mal[mal]);
    int32_t a, m, d;
    uint64_t msg = entidad ? entidad : DT__MV_POR_VALOR + (uint64_t)(z + 1000000); /* z >= -719162 (0001-01-01) */
    z += dt__mv_desfase(k->fecha, msg, dias);
    dt__civil_desde_dias(z, &a, &m, &d);
    if (a < 1 || a > 9999) return dt__mv_no(why, whycap, "fecha: the shifted date falls outside the years 0001 to 9999");
    char t[10];
    memcpy(t, in, 10);
    dt__put_u32_width(t + pa, (uint32_t)a, 4);
    dt__put_u32_width(t + pm, (uint32_t)m, 2);
    dt__put_u32_width(t + pd, (uint32_t)d, 2);
    return dt__copy_out(t, 10, buf, cap, out_len);
}

dt_status dt_mascara_monto(const dt_mascara_clave *k, const char *in, size_t len, uint32_t entidad, int32_t porcentaje,
                           char *buf, size_t cap, size_t *out_len, char *why, size_t whycap) {
    if (why && whycap) why[0] = '\0';
    if (out_len) *out_len = 0;
    if (buf && cap) buf[0] = '\0';
    if (k == NULL || (in == NULL && len > 0) || (buf == NULL && cap > 0)) {
        if (why) dt__sentence_out("monto: k is NULL, or in or buf is NULL with a length", why, whycap, NULL);
        return DT_ERR_NULL;
    }
    if (porcentaje < 1 || porcentaje > DT_MASCARA_MONTO_PORCENTAJE_MAX) {
        if (why && whycap)
            snprintf(why, whycap, "monto: porcentaje must be from 1 to %d, got %ld", DT_MASCARA_MONTO_PORCENTAJE_MAX, (long)porcentaje);
        return DT_ERR_INVALID_ARG;
    }
    if (entidad > DT_RUT_CUERPO_MAX) return dt__mv_no(why, whycap, "monto: entidad must be a RUT body up to 99999999, or 0");
    size_t pre;
    int puntos;
    uint64_t v;
    int mal = dt__mv_leer_monto(in, len, &pre, &puntos, &v);
    if (mal) return dt__mv_no(why, whycap, dt__mv_monto_mal[mal]);
    /* factor (10000 + f) / 10000, f basis points in {-100p..-1, 1..100p}; rounded half up, then held
     * inside [ceil(v(100-p)/100), floor(v(100+p)/100)] so the bound holds exactly; v < 10^14 keeps
     * every product below 2^63 */
    uint64_t msg = entidad ? entidad : DT__MV_POR_VALOR + v;
    int64_t f = dt__mv_desfase(k->monto, msg, 100 * (int64_t)porcentaje);
    uint64_t w = (v * (uint64_t)(10000 + f) + 5000) / 10000;
    uint64_t lo = (v * (uint64_t)(100 - porcentaje) + 99) / 100, hi = v * (uint64_t)(100 + porcentaje) / 100;
    if (w < lo) w = lo;
    if (w > hi) w = hi;
    char t[64];
    memcpy(t, in, pre);
    char *e = puntos ? dt__put_miles(t + pre, w) : dt__put_u64(t + pre, w);
    return dt__copy_out(t, (size_t)(e - t), buf, cap, out_len);
}

/* ---- the per-cell forms (the rules' default: docs/enmascarar.md, "fecha" and "monto") ---- */

/* The draw of one cell: SipHash-2-4 under the rule's subkey of the message
 * 0x01 | entidad (LE32) | valor (LE64) | the column's name (its first 128 bytes), 13 bytes or more, so it never equals the
 * 8-byte message of the per-entity and per-value forms. Keyed by the cell (column, entity, value),
 * not by the entity alone: two values of one person move independently, so nothing between them
 * (an interval, a ratio) survives; the same value of the same person in the same column moves the
 * same way in every table and run. */
static int64_t dt__mv_desfase_celda(const uint64_t clave[2], uint32_t entidad, uint64_t valor, const char *col,
                                    size_t coln, int64_t n) {
    uint8_t k16[16], msg[13 + 128];
    if (coln > 128) coln = 128; /* a name's first 128 bytes stand for it: no allocation per cell */
    for (int i = 0; i < 8; i++) {
        k16[i] = (uint8_t)(clave[0] >> (8 * i));
        k16[8 + i] = (uint8_t)(clave[1] >> (8 * i));
    }
    msg[0] = 0x01;
    for (int i = 0; i < 4; i++) msg[1 + i] = (uint8_t)(entidad >> (8 * i));
    for (int i = 0; i < 8; i++) msg[5 + i] = (uint8_t)(valor >> (8 * i));
    if (coln) memcpy(msg + 13, col, coln);
    uint64_t h = dt__siphash24(k16, msg, 13 + coln);
    dt__borrar(k16, sizeof k16);
    uint64_t r = h % (uint64_t)(2 * n);
    return (int64_t)r < n ? (int64_t)r - n : (int64_t)r - n + 1;
}

dt_status dt__mv_fecha_celda(const dt_mascara_clave *k, const char *in, size_t len, uint32_t entidad, const char *col,
                             size_t coln, int32_t dias, int generalizar, char *buf, size_t cap, size_t *out_len,
                             char *why, size_t whycap) {
    if (why && whycap) why[0] = '\0';
    if (out_len) *out_len = 0;
    if (buf && cap) buf[0] = '\0';
    if (k == NULL || (in == NULL && len > 0) || (buf == NULL && cap > 0) || (col == NULL && coln > 0)) {
        if (why) dt__sentence_out("fecha: k is NULL, or in, buf or col is NULL with a length", why, whycap, NULL);
        return DT_ERR_NULL;
    }
    if (dias < 1 || dias > DT_MASCARA_FECHA_DIAS_MAX || generalizar < DT__MV_DIA || generalizar > DT__MV_ANIO)
        return dt__mv_no(why, whycap, "fecha: dias must be from 1 to 3650 and generalizar dia, mes or anio");
    size_t pa, pm, pd, hora = 0;
    int64_t z;
    /* a date with its time (a timestamp column: 1962-02-18 00:00:00, 2021-03-04T10:20:30.5+02): the date
     * masked, the time's digits written as zeros (the time of day generalised away, its form kept) */
    if (len > 11 && len <= 40 && (in[10] == ' ' || in[10] == 'T')) {
        hora = len - 10;
        for (size_t i = 11; i < len && hora; i++)
            if (!((in[i] >= '0' && in[i] <= '9') || in[i] == ':' || in[i] == '.' || in[i] == '+' || in[i] == '-' || in[i] == 'Z'))
                hora = 0;
    }
    /* a day written with a two-digit year and slashes (13/05/78, as Latin American exports write it): read
     * as POSIX's %y reads it (69..99 the 1900s, 00..68 the 2000s), written back with two digits. With
     * dashes it stays unread: 24-01-31 may as well be year first */
    char largo[10];
    const char *leido = in;
    int corto = 0;
    if (len == 8 && in[2] == '/' && in[5] == '/' && dt__mv_digitos(in, 2) && dt__mv_digitos(in + 3, 2) && dt__mv_digitos(in + 6, 2)) {
        memcpy(largo, in, 6);
        int yy = (in[6] - '0') * 10 + (in[7] - '0');
        largo[6] = yy >= 69 ? '1' : '2';
        largo[7] = yy >= 69 ? '9' : '0';
        largo[8] = in[6];
        largo[9] = in[7];
        leido = largo;
        corto = 1;
    }
    int mal = dt__mv_leer_fecha(leido, corto ? 10 : len - hora, &pa, &pm, &pd, &z);
    if (mal) return dt__mv_no(why, whycap, dt__mv_fecha_mal[mal]);
    int32_t a, m, d;
    z += dt__mv_desfase_celda(k->fecha, entidad, (uint64_t)(z + 1000000), col, coln, dias);
    dt__civil_desde_dias(z, &a, &m, &d);
    if (a < 1 || a > 9999) return dt__mv_no(why, whycap, "fecha: the shifted date falls outside the years 0001 to 9999");
    if (generalizar >= DT__MV_MES) d = 1;
    if (generalizar == DT__MV_ANIO) m = 1;
    char t[50];
    memcpy(t, leido, 10);
    memcpy(t + 10, in + 10, hora);
    dt__put_u32_width(t + pa, (uint32_t)a, 4);
    dt__put_u32_width(t + pm, (uint32_t)m, 2);
    dt__put_u32_width(t + pd, (uint32_t)d, 2);
    for (size_t i = 11; i < 10 + hora; i++)
        if (t[i] >= '0' && t[i] <= '9') t[i] = '0';
    if (corto) { /* dd/mm/yyyy back to dd/mm/yy */
        t[6] = t[8], t[7] = t[9];
        return dt__copy_out(t, 8, buf, cap, out_len);
    }
    return dt__copy_out(t, 10 + hora, buf, cap, out_len);
}

dt_status dt__mv_monto_celda(const dt_mascara_clave *k, const char *in, size_t len, uint32_t entidad, const char *col,
                             size_t coln, int32_t porcentaje, int32_t cifras, char *buf, size_t cap, size_t *out_len,
                             char *why, size_t whycap) {
    if (why && whycap) why[0] = '\0';
    if (out_len) *out_len = 0;
    if (buf && cap) buf[0] = '\0';
    if (k == NULL || (in == NULL && len > 0) || (buf == NULL && cap > 0) || (col == NULL && coln > 0)) {
        if (why) dt__sentence_out("monto: k is NULL, or in, buf or col is NULL with a length", why, whycap, NULL);
        return DT_ERR_NULL;
    }
    if (porcentaje < 1 || porcentaje > DT_MASCARA_MONTO_PORCENTAJE_MAX || cifras < 1 || cifras > 14)
        return dt__mv_no(why, whycap, "monto: porcentaje must be from 1 to 90 and cifras from 1 to 14");
    size_t pre;
    int puntos;
    uint64_t v;
    int decimales = -1;
    int mal = dt__mv_leer_monto(in, len, &pre, &puntos, &v);
    if (mal == 1 && dt__mv_leer_decimal(in, len, &pre, &v, &decimales) == 0) mal = 0, puntos = 0; /* 0.99, 1234.56 */
    if (mal) return dt__mv_no(why, whycap, dt__mv_monto_mal[mal]);
    /* the factor and its exact bound as dt_mascara_monto, the draw per cell */
    int64_t f = dt__mv_desfase_celda(k->monto, entidad, v, col, coln, 100 * (int64_t)porcentaje);
    uint64_t w = (v * (uint64_t)(10000 + f) + 5000) / 10000;
    uint64_t lo = (v * (uint64_t)(100 - porcentaje) + 99) / 100, hi = v * (uint64_t)(100 + porcentaje) / 100;
    if (w < lo) w = lo;
    if (w > hi) w = hi;
    /* then `cifras` significant digits, half up: the digits below them are noise, and kept they would
     * order two amounts of one bucket as their originals (w < 1.9e14, so q/2 + w stays exact) */
    uint64_t tope = 1, q = 1;
    for (int i = 0; i < cifras; i++) tope *= 10;
    while (w / q >= tope) q *= 10;
    w = (w + q / 2) / q * q;
    char t[64];
    memcpy(t, in, pre);
    char *e = decimales >= 0 ? dt__mv_put_decimal(t + pre, w, decimales) : puntos ? dt__put_miles(t + pre, w) : dt__put_u64(t + pre, w);
    return dt__copy_out(t, (size_t)(e - t), buf, cap, out_len);
}

/* The text sustituir hashes: ASCII whitespace trimmed at both ends and each inner run of it made one
 * space; A-Z and the Latin-1 capitals U+00C0..U+00DE (but U+00D7, the multiplication sign) lowered.
 * Nothing else changes: accents stay ("Jose" is not "José"), other scripts stay as they are. */
static size_t dt__mv_normal(const char *s, size_t n, char *out) {
    size_t a = 0, o = 0;
    while (a < n && (s[a] == ' ' || (s[a] >= '\t' && s[a] <= '\r'))) a++;
    while (n > a && (s[n - 1] == ' ' || (s[n - 1] >= '\t' && s[n - 1] <= '\r'))) n--;
    for (size_t i = a; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == ' ' || (c >= '\t' && c <= '\r')) {
            if (out[o - 1] != ' ') out[o++] = ' '; /* o > 0: s[a] is not whitespace */
        } else if (c >= 'A' && c <= 'Z') {
            out[o++] = (char)(c + 32);
        } else if (c == 0xC3 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9E &&
                   (unsigned char)s[i + 1] != 0x97) {
            out[o++] = (char)c;
            out[o++] = (char)((unsigned char)s[++i] + 0x20);
        } else {
            out[o++] = (char)c;
        }
    }
    return o;
}

dt_status dt_mascara_sustituir(const dt_mascara_clave *k, size_t llamada, const char *in, size_t len, char *buf,
                               size_t cap, size_t *out_len, char *why, size_t whycap) {
    if (why && whycap) why[0] = '\0';
    if (out_len) *out_len = 0;
    if (buf && cap) buf[0] = '\0';
    if (k == NULL || (in == NULL && len > 0) || (buf == NULL && cap > 0)) {
        if (why) dt__sentence_out("sustituir: k is NULL, or in or buf is NULL with a length", why, whycap, NULL);
        return DT_ERR_NULL;
    }
    const dt_call_info *info = dt_call_at(llamada);
    if (info == NULL || info->kind != DT_KIND_TEXT)
        return dt__mv_no(why, whycap, "sustituir: llamada must be the index of a call that gives one text (dt_call_find)");
    char *t = malloc(len ? len : 1);
    if (t == NULL) {
        if (why) dt__sentence_out("sustituir: out of memory", why, whycap, NULL);
        return DT_ERR_NO_MEMORY;
    }
    uint8_t clave[16];
    for (int i = 0; i < 8; i++) {
        clave[i] = (uint8_t)(k->sustituir[0] >> (8 * i));
        clave[8 + i] = (uint8_t)(k->sustituir[1] >> (8 * i));
    }
    size_t n = dt__mv_normal(in, len, t);
    uint64_t semilla = dt__siphash24(clave, (const uint8_t *)t, n);
    dt__borrar(clave, sizeof clave);
    dt__borrar(t, len ? len : 1);
    free(t);
    dt_gen *g = NULL;
    dt_status st = dt_new(semilla, &g);
    if (st != DT_OK) return dt__mv_no(why, whycap, "sustituir: out of memory");
    /* pinned, as the persona's: a call that depends on today must not move with the default */
    st = dt_set_hoy(g, 2026, 1, 1);
    char v[DT_MAX_TEXT];
    size_t m = 0;
    if (st == DT_OK) st = dt_call(g, llamada, NULL, 0, v, sizeof v, &m);
    dt_free(g);
    if (st != DT_OK) {
        if (why) dt__sentence_out("sustituir: the call gave no value", why, whycap, NULL);
        return st;
    }
    return dt__copy_out(v, m, buf, cap, out_len);
}

dt_status dt_mascara_sexo_leer(const char *s, size_t len, dt_sexo *out) {
    if ((s == NULL && len > 0) || out == NULL) return DT_ERR_NULL;
    *out = DT_SEXO_CUALQUIERA;
    while (len > 0 && (s[0] == ' ' || (s[0] >= '\t' && s[0] <= '\r'))) s++, len--;
    while (len > 0 && (s[len - 1] == ' ' || (s[len - 1] >= '\t' && s[len - 1] <= '\r'))) len--;
    static const char *const f[] = {"f", "femenino", "mujer"}, *const m[] = {"m", "masculino", "hombre"};
    char t[16];
    if (len >= sizeof t) return DT_ERR_INVALID_ARG;
    for (size_t i = 0; i < len; i++) t[i] = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] + 32) : s[i];
    t[len] = '\0';
    for (int i = 0; i < 3; i++) {
        if (strcmp(t, f[i]) == 0) *out = DT_SEXO_F;
        if (strcmp(t, m[i]) == 0) *out = DT_SEXO_M;
    }
    return *out == DT_SEXO_CUALQUIERA ? DT_ERR_INVALID_ARG : DT_OK;
}
