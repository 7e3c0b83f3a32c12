/* invalido: near misses for negative tests (docs/invalidos.md). Each generator draws a valid value with
 * the generator its valid call uses, then breaks exactly one rule of it, so that a validator which
 * refuses the value can only be refusing it for the reason the record names. Integer arithmetic only;
 * the registry has checked the arguments. */
#include "internal.h"

/* A reason: the one asked for, or (for `cualquiera`, enum value 0) one of the k others with equal
 * weight, in one draw. The choice sets list cualquiera first, then the reasons 1..k. */
static int dt__defecto(dt_gen *g, int defecto, uint32_t k) {
    return defecto != 0 ? defecto : 1 + (int)dt__below(g, k);
}

/* The eleven check digits of the mod 11, in the order the wrong ones are drawn. */
static const char dt__dvs[12] = "0123456789K";

/* A check digit other than `bueno`: one draw below 10 over the ten others, so never the right one. */
static char dt__dv_errado(dt_gen *g, char bueno) {
    uint32_t i = bueno == 'K' ? 10u : (uint32_t)(bueno - '0');
    uint32_t k = dt__below(g, 10);
    return dt__dvs[k < i ? k : k + 1];
}

/* Insert `n` bytes of `s` at position `pos` of the text t[0..len), which has room; returns the new length. */
static size_t dt__insertar(char *t, size_t len, size_t pos, const char *s, size_t n) {
    memmove(t + pos + n, t + pos, len - pos);
    memcpy(t + pos, s, n);
    return len + n;
}

/* ---- RUT ---- */

static const char *const dt__defectos_rut[] = {"", "dv", "largo", "caracteres"};
/* What `caracteres` puts in place of a digit: letters a reader could take for digits are as likely as
 * any (K is left out: it is a check digit), then symbols a form may let through. */
static const char dt__rut_ajenos[32] = "ABCDEFGHIJLMNOPQRSTUVWXYZ,/_#*+";

void dt__invalido_rut(dt_gen *g, dt_defecto_rut defecto, dt_rut_tipo tipo, dt_rut_formato formato,
                      dt_rut_invalido *out) {
    int d = dt__defecto(g, defecto, 3);
    /* A 7-digit body with a digit written twice would still be a RUT's length, so largo draws a
     * persona's body among the 8-digit ones (a company's always has 8). */
    uint32_t cuerpo = d == DT_DEFECTO_RUT_LARGO && tipo == DT_RUT_PERSONA ? 10000000u + dt__below(g, 20000000u)
                                                                           : dt__gen_rut_cuerpo(g, tipo);
    char tmp[32];
    char *e;
    if (d == DT_DEFECTO_RUT_DV) {
        e = dt__put_rut(tmp, cuerpo, formato);
        e[-1] = dt__dv_errado(g, e[-1]);
    } else if (d == DT_DEFECTO_RUT_LARGO) {
        /* A digit typed twice makes a 9-digit body; its check digit is its own mod 11, so the length
         * is the one thing wrong (every RUT body has at most 8 digits: rut.md). */
        char b[16];
        size_t n = (size_t)(dt__put_u64(b, cuerpo) - b);
        size_t k = dt__below(g, (uint32_t)n);
        n = dt__insertar(b, n, k, b + k, 1);
        uint32_t largo = 0;
        for (size_t i = 0; i < n; i++) largo = largo * 10 + (uint32_t)(b[i] - '0');
        e = dt__put_rut(tmp, largo, formato);
    } else {
        /* Slots are the body's digits and the check digit: every character but the dots and the dash. */
        char b[16];
        uint32_t slots = (uint32_t)(dt__put_u64(b, cuerpo) - b) + 1;
        uint32_t k = dt__below(g, slots);
        char c = dt__rut_ajenos[dt__below(g, 31)];
        e = dt__put_rut(tmp, cuerpo, formato);
        for (char *q = tmp;; q++) {
            if (*q == '.' || *q == '-') continue;
            if (k-- == 0) {
                *q = c;
                break;
            }
        }
    }
    dt__field(out->valor, tmp, (size_t)(e - tmp));
    dt__field(out->defecto, dt__defectos_rut[d], strlen(dt__defectos_rut[d]));
}

/* ---- plates ---- */

static const char *const dt__defectos_patente[] = {"", "dv", "numero", "letras", "largo"};
/* The letters the current format never uses (patentes.md): the vowels and M, N, Ñ (UTF-8), Q. */
static const char *const dt__letras_ajenas[9] = {"A", "E", "I", "O", "U", "M", "N", "\xC3\x91", "Q"};
static const char dt__punto[2] = {(char)0xC2, (char)0xB7}; /* U+00B7, as vehiculo.patente prints */

void dt__invalido_patente(dt_gen *g, dt_defecto_patente defecto, dt_patente_invalida *out) {
    int d = dt__defecto(g, defecto, 4);
    dt__ppu v;
    dt__gen_ppu(g, DT_PATENTE_AUTO, &v);
    char tmp[32];
    char *e = tmp;
    if (d == DT_DEFECTO_PATENTE_DV) {
        e = dt__put_ppu(tmp, &v, DT_PATENTE_PUNTO);
        *e++ = '-';
        *e++ = dt__dv_errado(g, dt__ppu_dv(&v));
    } else if (d == DT_DEFECTO_PATENTE_NUMERO) {
        v.numero = (uint16_t)dt__below(g, 10); /* 00-09: the strict reader refuses them */
        e = dt__put_ppu(tmp, &v, DT_PATENTE_PUNTO);
    } else if (d == DT_DEFECTO_PATENTE_LETRAS) {
        uint32_t k = dt__below(g, 4);
        const char *ajena = dt__letras_ajenas[dt__below(g, 9)];
        for (uint32_t i = 0; i < 4; i++) e = i == k ? dt__put(e, ajena, strlen(ajena)) : dt__putc(e, v.letras[i]);
        e = dt__put(e, dt__punto, 2);
        e = dt__put_u32_width(e, v.numero, 2);
    } else if (dt__below(g, 2) == 0) { /* largo: a fifth letter, among the format's own 18 */
        uint32_t k = dt__below(g, 5);
        char letra = dt_t_letras_patente[dt__below(g, DT_T_N_LETRAS_PATENTE)];
        memcpy(tmp, v.letras, 4);
        e = tmp + dt__insertar(tmp, 4, k, &letra, 1);
        e = dt__put(e, dt__punto, 2);
        e = dt__put_u32_width(e, v.numero, 2);
    } else { /* largo: one digit (which one is left out: below 2) */
        char dig[2];
        dt__put_u32_width(dig, v.numero, 2);
        uint32_t fuera = dt__below(g, 2);
        e = dt__put(tmp, v.letras, 4);
        e = dt__put(e, dt__punto, 2);
        *e++ = dig[1 - fuera];
    }
    dt__field(out->valor, tmp, (size_t)(e - tmp));
    dt__field(out->defecto, dt__defectos_patente[d], strlen(dt__defectos_patente[d]));
}

/* ---- phones ---- */

/* A number from its parts, grouped as telefono.c groups a valid one: "+56 " (e164: "+56"), the area
 * ("9", "2", "32", or "09"), then the subscriber's digits in a first group of `primero` and the rest
 * (e164: no spaces). The digits may be one more or one less than a valid number has. */
static char *dt__put_tel_partes(char *p, const char *area, const char *dig, size_t n, size_t primero, int formato) {
    if (formato != DT_TEL_NACIONAL) p = dt__put(p, formato == DT_TEL_E164 ? "+56" : "+56 ", formato == DT_TEL_E164 ? 3 : 4);
    p = dt__put(p, area, strlen(area));
    if (formato == DT_TEL_E164) return dt__put(p, dig, n);
    *p++ = ' ';
    p = dt__put(p, dig, primero);
    *p++ = ' ';
    return dt__put(p, dig + primero, n - primero);
}

/* One digit less (the one left out: below n) or more (its place: below n + 1, then the digit: below
 * 10), after one draw for which; returns the new count. dig has room for one more. */
static size_t dt__cambiar_largo(dt_gen *g, char *dig, size_t n) {
    if (dt__below(g, 2) == 0) {
        size_t k = dt__below(g, (uint32_t)n);
        memmove(dig + k, dig + k + 1, n - k - 1);
        return n - 1;
    }
    size_t k = dt__below(g, (uint32_t)n + 1);
    char c = (char)('0' + dt__below(g, 10));
    return dt__insertar(dig, n, k, &c, 1);
}

static const char *const dt__defectos_movil[] = {"", "largo", "bloque", "prefijo"};
#define DT__NUEVES 100000000u /* the 9-digit numbers that start with 9 */

/* The r-th (from 0) number 9XXXXXXXX outside every accepted block. Before block i's start there are
 * desde - 900,000,000 - antes refused numbers, which never decreases with i: the last block with at
 * most r of them before it is the one the number follows. */
static uint32_t dt__nueve_fuera(uint32_t r) {
    int64_t lo = -1, hi = DT_T_N_MOVILES - 1; /* the last block i with fuera(i) <= r, or -1 */
    while (lo < hi) {
        int64_t mid = (lo + hi + 1) / 2;
        if (dt_t_moviles[mid].desde - 900000000u - dt_t_moviles[mid].antes <= r) lo = mid;
        else hi = mid - 1;
    }
    if (lo < 0) return 900000000u + r;
    const dt_t_bloque *b = &dt_t_moviles[lo];
    uint32_t tam = (lo + 1 < DT_T_N_MOVILES ? dt_t_moviles[lo + 1].antes : DT_T_MOVILES_TOTAL) - b->antes;
    return b->desde + tam + (r - (b->desde - 900000000u - b->antes));
}

void dt__invalido_movil(dt_gen *g, dt_defecto_movil defecto, dt_tel_formato formato, dt_movil_invalido *out) {
    int d = dt__defecto(g, defecto, 3);
    char base[32], dig[16], tmp[48];
    size_t n = 8;
    const char *area = "9";
    if (d == DT_DEFECTO_MOVIL_BLOQUE) {
        uint32_t x = dt__nueve_fuera(dt__below(g, DT__NUEVES - DT_T_MOVILES_TOTAL));
        dt__put_u32_width(dig, x - 900000000u, 8);
    } else {
        dt__gen_movil(g, DT_TEL_E164, base); /* "+569" and 8 digits */
        memcpy(dig, base + 4, 8);
        if (d == DT_DEFECTO_MOVIL_LARGO) n = dt__cambiar_largo(g, dig, n);
        else area = "09"; /* prefijo: the trunk 0 of the 09 mobiles dialled until 2012 */
    }
    char *e = dt__put_tel_partes(tmp, area, dig, n, 4, formato);
    dt__field(out->valor, tmp, (size_t)(e - tmp));
    dt__field(out->defecto, dt__defectos_movil[d], strlen(dt__defectos_movil[d]));
}

static const char *const dt__defectos_fijo[] = {"", "area", "largo"};
/* Two-digit codes that serve no comuna (codigos_area.csv) and that libphonenumber's Chilean fixed-line
 * patterns refuse: 30-79 without the 23 codes in use and 44 (VoIP). 80-99 are left out because the
 * patterns accept 80-89 and 9[2458] followed by 2XX XXXX (and 9 starts the mobiles), and 2X is
 * Santiago's 2 and 8 digits. */
static const uint8_t dt__areas_inexistentes[26] = {30, 31, 36, 37, 38, 39, 40, 46, 47, 48, 49, 50, 54,
                                                   56, 59, 60, 62, 66, 68, 69, 70, 74, 76, 77, 78, 79};

void dt__invalido_fijo(dt_gen *g, dt_defecto_fijo defecto, dt_tel_formato formato, dt_fijo_invalido *out) {
    int d = dt__defecto(g, defecto, 2);
    char tmp[48];
    char *e;
    if (d == DT_DEFECTO_FIJO_AREA) {
        /* the subscriber as a regional line's: what telefono.fijo draws for a two-digit code */
        e = dt__gen_fijo_area(g, dt__areas_inexistentes[dt__below(g, 26)], formato, tmp);
    } else {
        uint32_t ci = dt__gen_comuna(g, dt__gen_region(g, 0));
        uint32_t area = dt_t_comunas[ci].area;
        char base[32], a[4], dig[16];
        dt__gen_fijo_area(g, area, DT_TEL_E164, base);
        *dt__put_u64(a, area) = '\0';
        size_t na = strlen(a), n = area < 10 ? 8 : 7;
        memcpy(dig, base + 3 + na, n);
        n = dt__cambiar_largo(g, dig, n);
        e = dt__put_tel_partes(tmp, a, dig, n, area < 10 ? 4 : 3, formato);
    }
    dt__field(out->valor, tmp, (size_t)(e - tmp));
    dt__field(out->defecto, dt__defectos_fijo[d], strlen(dt__defectos_fijo[d]));
}

/* ---- email ---- */

static const char *const dt__defectos_email[] = {"", "arroba", "dominio", "caracteres"};
/* Special-use names (RFC 2606, 6761, 6762, 7686) that can never be a mail domain's TLD. */
static const char *const dt__tld_reservados[5] = {"invalid", "test", "local", "localhost", "onion"};
/* Characters a dot-atom local part does not allow (RFC 5322 atext), a space first; no quote or
 * backslash, which would make a quoted local part's start or need escaping in every output. */
static const char dt__email_ajenos[9] = " ,;:()[]";

void dt__invalido_email(dt_gen *g, dt_defecto_email defecto, dt_email_invalido *out) {
    int d = dt__defecto(g, defecto, 3);
    char t[128];
    size_t n = (size_t)(dt__persona_email(g, t) - t);
    size_t nl = (size_t)((const char *)memchr(t, '@', n) - t); /* the local part's length */
    if (d == DT_DEFECTO_EMAIL_ARROBA) {
        if (dt__below(g, 2) == 0) {
            memmove(t + nl, t + nl + 1, n - nl - 1);
            n--;
        } else {
            n = dt__insertar(t, n, 1 + dt__below(g, (uint32_t)nl), "@", 1); /* after 1..nl characters */
        }
    } else if (d == DT_DEFECTO_EMAIL_DOMINIO) {
        size_t punto = n; /* the domain's last dot (the domains have one) */
        while (t[punto - 1] != '.') punto--;
        punto--;
        switch (dt__below(g, 5)) {
        case 0: /* no dot: the name and the TLD run together */
            memmove(t + punto, t + punto + 1, n - punto - 1);
            n--;
            break;
        case 1: n = dt__insertar(t, n, nl + 1, ".", 1); break;
        case 2: t[n++] = '.'; break;
        case 3: n = dt__insertar(t, n, punto, ".", 1); break;
        default: {
            const char *tld = dt__tld_reservados[dt__below(g, 5)];
            n = (size_t)(dt__put(t + punto + 1, tld, strlen(tld)) - t);
            break;
        }
        }
    } else {
        /* strictly inside the local part: a character at either end could be trimmed as noise */
        size_t k = 1 + dt__below(g, (uint32_t)nl - 1);
        n = dt__insertar(t, n, k, &dt__email_ajenos[dt__below(g, 8)], 1);
    }
    dt__field(out->valor, t, n);
    dt__field(out->defecto, dt__defectos_email[d], strlen(dt__defectos_email[d]));
}

/* ---- DTE ---- */

static const char *const dt__defectos_dte[] = {"", "iva", "total", "rut", "folio"};

static int64_t dt__leer_i64(const char *s) {
    int64_t v = 0;
    for (; *s; s++) v = v * 10 + (*s - '0');
    return v;
}

#define DT__COPIAR(campo) dt__field(out->campo, dte.campo, strlen(dte.campo))

void dt__invalido_dte(dt_gen *g, dt_defecto_dte defecto, dt_dte_invalido *out) {
    int d = dt__defecto(g, defecto, 4);
    dt_dte dte;
    dt__tributario_dte(g, &dte);
    int64_t neto = dt__leer_i64(dte.monto_neto), exento = dt__leer_i64(dte.monto_exento);
    int64_t iva = dt__leer_i64(dte.iva), total = dt__leer_i64(dte.monto_total);
    if (d == DT_DEFECTO_DTE_IVA) {
        /* one peso off the rounding; the total adds the wrong IVA up, so the IVA is the one rule broken */
        iva = iva == 0 ? 1 : iva + (dt__below(g, 2) ? 1 : -1);
        total = neto + exento + iva;
    } else if (d == DT_DEFECTO_DTE_TOTAL) {
        total += dt__below(g, 2) ? 1 : -1; /* totals are at least 1,000: never negative */
    } else if (d == DT_DEFECTO_DTE_RUT) {
        size_t k = strlen(dte.emisor_rut);
        dte.emisor_rut[k - 1] = dt__dv_errado(g, dte.emisor_rut[k - 1]);
    } else {
        dte.folio[0] = '0';
        dte.folio[1] = '\0';
    }
    DT__COPIAR(tipo);
    DT__COPIAR(nombre_tipo);
    DT__COPIAR(folio);
    DT__COPIAR(fecha_emision);
    DT__COPIAR(emisor_rut);
    DT__COPIAR(emisor_razon_social);
    DT__COPIAR(emisor_giro);
    DT__COPIAR(emisor_direccion);
    DT__COPIAR(receptor_rut);
    DT__COPIAR(receptor_nombre);
    DT__COPIAR(monto_neto);
    DT__COPIAR(monto_exento);
    char tmp[32];
    dt__field(out->iva, tmp, (size_t)(dt__put_u64(tmp, (uint64_t)iva) - tmp));
    dt__field(out->monto_total, tmp, (size_t)(dt__put_u64(tmp, (uint64_t)total) - tmp));
    dt__field(out->defecto, dt__defectos_dte[d], strlen(dt__defectos_dte[d]));
}
