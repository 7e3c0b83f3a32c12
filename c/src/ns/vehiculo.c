/* vehiculo: plates (PPU) with the Registro Civil's check digit, and the vehicle record. */
#include "internal.h"

static const char dt__punto[2] = {(char)0xC2, (char)0xB7}; /* U+00B7 MIDDLE DOT in UTF-8 */

/* The Registro Civil's check digit: the plate as a number (the current format's letters by their
 * digit, a motorcycle's with a 0 inserted before its two digits, an old series by its 3-digit code),
 * then the RUT's mod 11 (weights 2..7 from the right; 11 -> 0, 10 -> K). */
char dt__ppu_dv(const dt__ppu *p) {
    uint32_t n;
    if (p->tipo == DT_PATENTE_ANTIGUA) {
        n = (uint32_t)dt_t_codigo_serie[(p->letras[0] - 'A') * 26 + (p->letras[1] - 'A')] * 10000u + p->numero;
    } else {
        n = 0;
        for (int i = 0; i < p->nletras; i++) n = n * 10 + dt_t_valor_letra[p->letras[i] - 'A'];
        n = n * (p->tipo == DT_PATENTE_MOTO ? 1000u : 100u) + p->numero; /* a motorcycle: LLL0NN */
    }
    uint32_t suma = 0, peso = 2;
    for (; n; n /= 10) {
        suma += (n % 10) * peso;
        peso = peso == 7 ? 2 : peso + 1;
    }
    uint32_t r = 11 - suma % 11;
    return r == 11 ? '0' : r == 10 ? 'K' : (char)('0' + r);
}

char *dt__put_ppu(char *p, const dt__ppu *v, int formato) {
    p = dt__put(p, v->letras, v->nletras);
    if (formato == DT_PATENTE_PUNTO || formato == DT_PATENTE_CON_DV) p = dt__put(p, dt__punto, 2);
    else if (formato == DT_PATENTE_GUION) *p++ = '-';
    p = dt__put_u32_width(p, v->numero, v->tipo == DT_PATENTE_ANTIGUA ? 4 : 2);
    if (formato == DT_PATENTE_CON_DV) {
        *p++ = '-';
        *p++ = dt__ppu_dv(v);
    }
    return p;
}

/* One draw. Current format: 4 of the 18 letters and 10..99 (patentes_formatos.csv); motorcycles: 3
 * letters and 00..99; old: one of the series and 0000..9999 (their regexes). */
void dt__gen_ppu(dt_gen *g, int tipo, dt__ppu *out) {
    out->tipo = tipo;
    uint32_t r;
    if (tipo == DT_PATENTE_ANTIGUA) {
        r = dt__below(g, DT_T_N_SERIES_PATENTE * 10000u);
        memcpy(out->letras, dt_t_series_patente[r / 10000u], 2);
        out->nletras = 2;
        out->numero = (uint16_t)(r % 10000u);
        return;
    }
    const uint32_t L = DT_T_N_LETRAS_PATENTE;
    out->nletras = tipo == DT_PATENTE_MOTO ? 3 : 4;
    uint32_t combinaciones = tipo == DT_PATENTE_MOTO ? L * L * L * 100u : L * L * L * L * 90u;
    r = dt__below(g, combinaciones);
    out->numero = (uint16_t)(tipo == DT_PATENTE_MOTO ? r % 100u : 10u + r % 90u);
    r /= tipo == DT_PATENTE_MOTO ? 100u : 90u;
    for (int i = out->nletras - 1; i >= 0; i--) {
        out->letras[i] = dt_t_letras_patente[r % L];
        r /= L;
    }
}

char *dt__vehiculo_patente(dt_gen *g, dt_patente_tipo tipo, dt_patente_formato formato, char *p) {
    dt__ppu v;
    dt__gen_ppu(g, tipo, &v);
    return dt__put_ppu(p, &v, formato);
}

static int dt__es_espacio(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* Parse as dt_patente_leer documents; 1 on success with *v filled and *dv the given check digit
 * (0 when none was given). */
static int dt__ppu_leer(const char *s, size_t len, dt__ppu *v, char *dv) {
    const unsigned char *u = (const unsigned char *)s;
    size_t a = 0, b = len;
    while (a < b && dt__es_espacio(u[a])) a++;
    while (b > a && dt__es_espacio(u[b - 1])) b--;
    /* separators only between parts: the plate starts and ends with a letter or a digit */
    if (a == b || !((u[a] >= 'A' && u[a] <= 'Z') || (u[a] >= 'a' && u[a] <= 'z') || (u[a] >= '0' && u[a] <= '9')))
        return 0;
    unsigned char z = u[b - 1];
    if (!((z >= 'A' && z <= 'Z') || (z >= 'a' && z <= 'z') || (z >= '0' && z <= '9'))) return 0;
    char c[16];
    size_t n = 0;
    /* A separator ('·', '.' or '-') stands only between the letters and the digits, or before a check
     * digit, once at each; a space inside is refused, as in a RUT (two values run together). */
    size_t sep[2], nsep = 0;
    for (size_t i = a; i < b; i++) {
        unsigned char x = u[i];
        int punto = x == 0xC2 && i + 1 < b && u[i + 1] == 0xB7;
        if (x == '.' || x == '-' || punto) {
            if (nsep == 2 || (nsep == 1 && sep[0] == n)) return 0;
            sep[nsep++] = n;
            i += (size_t)punto;
            continue;
        }
        if (n == sizeof c) return 0;
        if (x >= 'a' && x <= 'z') x = (unsigned char)(x - 'a' + 'A');
        if (!((x >= 'A' && x <= 'Z') || (x >= '0' && x <= '9'))) return 0;
        c[n++] = (char)x;
    }
    size_t nl = 0;
    while (nl < n && c[nl] >= 'A' && c[nl] <= 'Z') nl++;
    size_t nd = 0;
    while (nl + nd < n && c[nl + nd] >= '0' && c[nl + nd] <= '9') nd++;
    size_t resto = n - nl - nd;
    if (nl < 2 || nl > 4 || resto > 1 || (resto == 1 && c[n - 1] != 'K')) return 0;
    size_t esperado = nl == 2 ? 4 : 2;
    *dv = 0;
    if (resto == 1) {
        if (nd != esperado) return 0;
        *dv = 'K';
    } else if (nd == esperado + 1) {
        *dv = c[nl + nd - 1];
        nd--;
    } else if (nd != esperado) {
        return 0;
    }
    for (size_t k = 0; k < nsep; k++)
        if (sep[k] != nl && !(*dv && sep[k] == n - 1)) return 0;
    v->nletras = (uint8_t)nl;
    memcpy(v->letras, c, nl);
    v->numero = 0;
    for (size_t i = 0; i < nd; i++) v->numero = (uint16_t)(v->numero * 10 + (c[nl + i] - '0'));
    if (nl == 2) {
        v->tipo = DT_PATENTE_ANTIGUA;
        if (dt_t_codigo_serie[(c[0] - 'A') * 26 + (c[1] - 'A')] == 0) return 0;
    } else {
        v->tipo = nl == 4 ? DT_PATENTE_AUTO : DT_PATENTE_MOTO;
        if (nl == 4 && v->numero < 10) return 0; /* the current format's digits are 10 to 99, as generated */
        for (size_t i = 0; i < nl; i++)
            if (dt_t_valor_letra[c[i] - 'A'] == 255) return 0;
    }
    return 1;
}

dt_status dt_patente_leer(const char *s, size_t len, dt_patente_tipo *tipo, char *dv) {
    if (s == NULL && len > 0) return DT_ERR_NULL;
    dt__ppu v;
    char dado;
    if (s == NULL || !dt__ppu_leer(s, len, &v, &dado)) return DT_ERR_INVALID_PATENTE;
    char calculado = dt__ppu_dv(&v);
    if (dado && dado != calculado) return DT_ERR_INVALID_PATENTE;
    if (tipo) *tipo = (dt_patente_tipo)v.tipo;
    if (dv) *dv = calculado;
    return DT_OK;
}

dt_status dt_patente_validar(const char *s, size_t len) { return dt_patente_leer(s, len, NULL, NULL); }

/* ---- utilities (the registry checked the arguments: c/src/registro/utilidades.c) ---- */

dt_status dt__util_validar_patente(const char *s, size_t n, const int64_t *a, char *p, char **end) {
    (void)a;
    *end = p;
    return dt_patente_leer(s, n, NULL, NULL);
}

dt_status dt__util_patente_dv(const char *s, size_t n, const int64_t *a, char *p, char **end) {
    (void)a;
    dt_status st = dt_patente_leer(s, n, NULL, p);
    *end = st == DT_OK ? p + 1 : p;
    return st;
}

dt_status dt__util_formatear_patente(const char *s, size_t n, const int64_t *a, char *p, char **end) {
    dt__ppu v;
    char dado;
    *end = p;
    if (s == NULL || !dt__ppu_leer(s, n, &v, &dado) || (dado && dado != dt__ppu_dv(&v))) return DT_ERR_INVALID_PATENTE;
    *end = dt__put_ppu(p, &v, (int)a[0]);
    return DT_OK;
}

/* The first model year a vehicle of reference year `hoy` can have: the model's first on sale, and no
 * earlier than its plate's format (2008 for the current plates, 1985 for the old: the registry refuses
 * a hoy before 1985). */
static int32_t dt__anio_minimo(const dt_t_modelo *mo, int32_t hoy) {
    int32_t placa = hoy >= 2008 ? 2008 : 1985;
    return mo->desde > placa ? mo->desde : placa;
}

/* Draws: make (below the summed registrations of the makes with a model on sale by hoy's year), model
 * (below the count of that make's models on sale), model year (below the years from its first to hoy's),
 * color (below), plate (one draw). The tables hold a model on sale by 1985 (the CSV's own check). */
void dt__vehiculo_vehiculo(dt_gen *g, dt_vehiculo *out) {
    const int32_t hoy = g->hoy_anio;
    uint32_t disponibles[DT_T_N_MARCAS], total = 0;
    for (size_t i = 0; i < DT_T_N_MARCAS; i++) {
        disponibles[i] = 0;
        for (uint16_t k = 0; k < dt_t_marcas[i].cuantos; k++)
            disponibles[i] += dt_t_modelos[dt_t_marcas[i].primero + k].desde <= hoy;
        if (disponibles[i]) total += dt_t_marcas[i].unidades;
    }
    uint32_t r = dt__below(g, total);
    size_t im = 0;
    for (;; im++) {
        if (!disponibles[im]) continue;
        if (r < dt_t_marcas[im].unidades) break;
        r -= dt_t_marcas[im].unidades;
    }
    const dt_t_marca *m = &dt_t_marcas[im];
    uint32_t km = dt__below(g, disponibles[im]);
    const dt_t_modelo *mo = &dt_t_modelos[m->primero];
    for (;; mo++) {
        if (mo->desde > hoy) continue;
        if (km == 0) break;
        km--;
    }
    int32_t desde = dt__anio_minimo(mo, hoy);
    int32_t anio = desde + (int32_t)dt__below(g, (uint32_t)(hoy - desde + 1));
    const dt_t_str *color = &dt_t_colores[dt__below(g, DT_T_N_COLORES)];
    dt__ppu v;
    dt__gen_ppu(g, g->hoy_anio >= 2008 ? DT_PATENTE_AUTO : DT_PATENTE_ANTIGUA, &v);
    char tmp[32];
    char *e = dt__put_ppu(tmp, &v, DT_PATENTE_PUNTO);
    dt__field(out->patente, tmp, (size_t)(e - tmp));
    out->dv[0] = dt__ppu_dv(&v);
    out->dv[1] = '\0';
    dt__field(out->marca, m->nombre.s, m->nombre.n);
    dt__field(out->modelo, mo->nombre.s, mo->nombre.n);
    dt__field(out->anio, tmp, (size_t)(dt__put_u64(tmp, (uint64_t)anio) - tmp));
    dt__field(out->tipo, mo->tipo.s, mo->tipo.n);
    dt__field(out->color, color->s, color->n);
}
