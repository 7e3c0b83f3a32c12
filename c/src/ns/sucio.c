/* sucio: valid values misspelt the ways people and old systems write them, paired with the clean
 * value (docs/sucios.md). Each kind of dirt is ONE pure function of (clean text, form): the calls
 * below and a dataset's `sucio` option (datos/tabla.c) both go through dt__ensuciar, so a dirty
 * cell and a sucio.* value with the same clean text and form are the same bytes. Integer and byte
 * arithmetic only: no locale, no <ctype.h> (whose answers depend on the locale). */
#include "internal.h"
#include "registro/registro.h"

/* The forms of each kind, 1..DT__SUCIO_FORMAS (0 is `cualquiera`), as spec/llamadas.toml orders them. */
_Static_assert(DT_SUCIO_RUT_SIN_GUION == DT__SUCIO_FORMAS, "sucio_rut: DT__SUCIO_FORMAS forms");
_Static_assert(DT_SUCIO_NOMBRE_ESPACIOS == DT__SUCIO_FORMAS, "sucio_nombre: DT__SUCIO_FORMAS forms");
_Static_assert(DT_SUCIO_COMUNA_ABREVIATURA == DT__SUCIO_FORMAS, "sucio_comuna: DT__SUCIO_FORMAS forms");
_Static_assert(DT_SUCIO_TEL_SIN_MAS == DT__SUCIO_FORMAS, "sucio_telefono: DT__SUCIO_FORMAS forms");

/* The `forma` field: the choice's name, as the registry spells it (a test compares them). */
static const char *const dt__nombres_forma[DT__SUCIO_N][DT__SUCIO_FORMAS + 1] = {
    [DT__SUCIO_RUT] = {"cualquiera", "sin_puntos", "minuscula", "espacios", "ceros", "sin_guion"},
    [DT__SUCIO_NOMBRE] = {"cualquiera", "mayusculas_sin_tildes", "mayusculas", "minusculas", "minusculas_sin_tildes", "espacios"},
    [DT__SUCIO_COMUNA] = {"cualquiera", "sin_tildes", "mayusculas", "mayusculas_sin_tildes", "minusculas", "abreviatura"},
    [DT__SUCIO_TELEFONO] = {"cualquiera", "antiguo", "parentesis", "internacional", "junto", "sin_mas"},
};

/* ---- case and accents of UTF-8 text ------------------------------------------------------------- */

/* The base letter of U+00C0..U+00FF (UTF-8 C3 80..C3 BF, indexed by the second byte - 0x80) for the
 * letters with a canonical decomposition (À..Å, Ç, È..Ï, Ñ, Ò..Ö, Ù..Ý, and their small forms, ÿ),
 * or 0: Æ, Ð, ×, Ø, Þ, ß do not decompose, so a cleaner's NFD leaves them alone and so does this. */
static const char dt__base_latin1[64] = {
    'A', 'A', 'A', 'A', 'A', 'A', 0,   'C', 'E', 'E', 'E', 'E', 'I', 'I', 'I', 'I',
    0,   'N', 'O', 'O', 'O', 'O', 'O', 0,   0,   'U', 'U', 'U', 'U', 'Y', 0,   0,
    'a', 'a', 'a', 'a', 'a', 'a', 0,   'c', 'e', 'e', 'e', 'e', 'i', 'i', 'i', 'i',
    0,   'n', 'o', 'o', 'o', 'o', 'o', 0,   0,   'u', 'u', 'u', 'u', 'y', 0,   'y'};

enum { DT__CASO_IGUAL, DT__CASO_MAYUS, DT__CASO_MINUS };

/* s in the case `caso`, without accents when `sin_tildes`. ASCII and Latin-1 letters change (every
 * letter of the reference tables is one of them); other bytes are copied. The length never grows. */
static char *dt__put_caso(char *p, const char *s, size_t n, int caso, int sin_tildes) {
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        unsigned char c2 = i + 1 < n ? (unsigned char)s[i + 1] : 0;
        if (c == 0xC3 && c2 >= 0x80 && c2 <= 0xBF) {
            unsigned k = c2 - 0x80u;
            i++;
            /* the small and capital Latin-1 letters are 32 apart, but for ÷/× (55/23) and ß, ÿ (31, 63),
             * which have no partner in Latin-1 */
            if (caso == DT__CASO_MAYUS && k >= 32 && k != 55 && k != 63) k -= 32;
            else if (caso == DT__CASO_MINUS && k < 31 && k != 23) k += 32;
            char base = sin_tildes ? dt__base_latin1[k] : 0;
            if (base) {
                *p++ = base;
            } else {
                *p++ = (char)0xC3;
                *p++ = (char)(0x80u + k);
            }
            continue;
        }
        if (caso == DT__CASO_MAYUS && c >= 'a' && c <= 'z') c = (unsigned char)(c - 32);
        else if (caso == DT__CASO_MINUS && c >= 'A' && c <= 'Z') c = (unsigned char)(c + 32);
        *p++ = (char)c;
    }
    return p;
}

/* ---- the four transforms ------------------------------------------------------------------------ */

/* A text the transform cannot read stays as it is: a dataset then picks another form or none. */
static char *dt__ensuciar_rut(const char *s, size_t n, int forma, char *p) {
    uint32_t cuerpo;
    char dv;
    if (dt_rut_leer(s, n, &cuerpo, &dv) != DT_OK) return dt__put(p, s, n);
    switch (forma) {
    case DT_SUCIO_RUT_SIN_PUNTOS: /* the clean text without its dots: "12345678-5" */
        for (size_t i = 0; i < n; i++)
            if (s[i] != '.') *p++ = s[i];
        return p;
    case DT_SUCIO_RUT_MINUSCULA: /* the clean text with a lower-case k: unchanged unless the check digit is K */
        p = dt__put(p, s, n);
        if (p[-1] == 'K') p[-1] = 'k';
        return p;
    case DT_SUCIO_RUT_ESPACIOS: /* around it only: the validator refuses a space inside on purpose (docs/rut.md) */
        *p++ = ' ';
        p = dt__put(p, s, n);
        *p++ = ' ';
        return p;
    case DT_SUCIO_RUT_CEROS: /* a fixed-width export's 9-digit body: a body has at most 8, so at least one zero */
        p = dt__put_u32_width(p, cuerpo, 9);
        *p++ = '-';
        *p++ = dv;
        return p;
    default: /* DT_SUCIO_RUT_SIN_GUION */
        return dt__put_rut(p, cuerpo, DT_RUT_LIMPIO);
    }
}

static char *dt__ensuciar_nombre(const char *s, size_t n, int forma, char *p) {
    switch (forma) {
    case DT_SUCIO_NOMBRE_MAYUSCULAS_SIN_TILDES: return dt__put_caso(p, s, n, DT__CASO_MAYUS, 1);
    case DT_SUCIO_NOMBRE_MAYUSCULAS: return dt__put_caso(p, s, n, DT__CASO_MAYUS, 0);
    case DT_SUCIO_NOMBRE_MINUSCULAS: return dt__put_caso(p, s, n, DT__CASO_MINUS, 0);
    case DT_SUCIO_NOMBRE_MINUSCULAS_SIN_TILDES: return dt__put_caso(p, s, n, DT__CASO_MINUS, 1);
    default: /* DT_SUCIO_NOMBRE_ESPACIOS: what forms and hand-typed lists leave: doubled and trailing spaces */
        for (size_t i = 0; i < n; i++) {
            *p++ = s[i];
            if (s[i] == ' ') *p++ = ' ';
        }
        *p++ = ' ';
        return p;
    }
}

static char *dt__ensuciar_comuna(const char *s, size_t n, int forma, char *p) {
    switch (forma) {
    case DT_SUCIO_COMUNA_SIN_TILDES: return dt__put_caso(p, s, n, DT__CASO_IGUAL, 1);
    case DT_SUCIO_COMUNA_MAYUSCULAS: return dt__put_caso(p, s, n, DT__CASO_MAYUS, 0);
    case DT_SUCIO_COMUNA_MAYUSCULAS_SIN_TILDES: return dt__put_caso(p, s, n, DT__CASO_MAYUS, 1);
    case DT_SUCIO_COMUNA_MINUSCULAS: return dt__put_caso(p, s, n, DT__CASO_MINUS, 0);
    default: /* DT_SUCIO_COMUNA_ABREVIATURA: the comuna's one abbreviation, if it has one */
        for (uint32_t i = 0; i < DT_T_N_ABREVIATURAS; i++) {
            const dt_t_str *c = &dt_t_comunas[dt_t_abreviaturas[i].comuna].nombre;
            if (c->n == n && memcmp(c->s, s, n) == 0) return dt__puts(p, &dt_t_abreviaturas[i].abreviatura);
        }
        return dt__put(p, s, n);
    }
}

/* The subscriber part grouped as the library writes it: 4 + 4 digits after 9 or 2, else 3 + 4. */
static char *dt__put_abonado(char *p, const char *sub, size_t largo) {
    size_t primero = largo == 8 ? 4 : 3;
    p = dt__put(p, sub, primero);
    *p++ = ' ';
    return dt__put(p, sub + primero, largo - primero);
}

/* Reads any of the library's spellings ("+56 9 1234 5678", "+56912345678", "9 1234 5678"): the
 * 9 national digits, the first (9 mobile, 2 Santiago) or first two (a region's code) the area. */
static char *dt__ensuciar_telefono(const char *s, size_t n, int forma, char *p) {
    char d[9];
    size_t nd = 0, i = n >= 3 && memcmp(s, "+56", 3) == 0 ? 3 : 0;
    for (; i < n; i++) {
        if (s[i] == ' ') continue;
        if (s[i] < '0' || s[i] > '9' || nd == 9) return dt__put(p, s, n);
        d[nd++] = s[i];
    }
    if (nd != 9 || d[0] < '2') return dt__put(p, s, n);
    size_t area = d[0] == '9' || d[0] == '2' ? 1 : 2;
    switch (forma) {
    case DT_SUCIO_TEL_ANTIGUO: /* the trunk 0 of long-distance and mobile dialling, dropped on 2016-02-06 */
        *p++ = '0';
        p = dt__put(p, d, area);
        *p++ = '-';
        return dt__put_abonado(p, d + area, 9 - area);
    case DT_SUCIO_TEL_PARENTESIS:
        *p++ = '(';
        p = dt__put(p, d, area);
        p = dt__put(p, ") ", 2);
        return dt__put_abonado(p, d + area, 9 - area);
    case DT_SUCIO_TEL_INTERNACIONAL:
        p = dt__put(p, "+56 ", 4);
        p = dt__put(p, d, area);
        *p++ = ' ';
        return dt__put_abonado(p, d + area, 9 - area);
    case DT_SUCIO_TEL_JUNTO: return dt__put(p, d, 9);
    default: /* DT_SUCIO_TEL_SIN_MAS: a spreadsheet reads "+56…" as a number and drops the + */
        p = dt__put(p, "56", 2);
        return dt__put(p, d, 9);
    }
}

char *dt__ensuciar(int tipo, int forma, const char *s, size_t n, char *p) {
    switch (tipo) {
    case DT__SUCIO_RUT: return dt__ensuciar_rut(s, n, forma, p);
    case DT__SUCIO_NOMBRE: return dt__ensuciar_nombre(s, n, forma, p);
    case DT__SUCIO_COMUNA: return dt__ensuciar_comuna(s, n, forma, p);
    case DT__SUCIO_TELEFONO: return dt__ensuciar_telefono(s, n, forma, p);
    default: return dt__put(p, s, n);
    }
}

/* ---- the calls ----------------------------------------------------------------------------------- */

/* `cualquiera` is one draw among the forms, equal weights; a given form draws nothing. */
static int dt__forma(dt_gen *g, int forma) { return forma ? forma : 1 + (int)dt__below(g, DT__SUCIO_FORMAS); }

/* The record's three common fields: the dirt of `limpio` in form f, the clean text, the form's name. */
#define DT__LLENAR(out, tipo, f, texto, n)                                            \
    do {                                                                              \
        char sucio_[2 * DT_MAX_TEXT];                                                 \
        char *fin_ = dt__ensuciar((tipo), (f), (texto), (n), sucio_);                 \
        dt__field((out)->sucio, sucio_, (size_t)(fin_ - sucio_));                     \
        dt__field((out)->limpio, (texto), (n));                                       \
        const char *forma_ = dt__nombres_forma[(tipo)][(f)];                          \
        dt__field((out)->forma, forma_, strlen(forma_));                              \
    } while (0)

/* A persona body whose check digit is K, uniform over those bodies: the body without its last digit
 * is drawn, and at most one of its ten last digits gives K (the last digit weighs 2, which is
 * invertible mod 11), so one draw in eleven has none and is drawn again. */
static uint32_t dt__cuerpo_k(dt_gen *g) {
    for (;;) {
        uint32_t base = (DT_RUT_PERSONA_MIN / 10 + dt__below(g, (DT_RUT_PERSONA_MAX - DT_RUT_PERSONA_MIN + 1) / 10)) * 10;
        for (uint32_t d = 0; d < 10; d++)
            if (dt__dv(base + d) == 'K') return base + d;
    }
}

void dt__sucio_rut(dt_gen *g, dt_sucio_rut_forma forma, dt_rut_sucio *out) {
    int f = dt__forma(g, forma);
    /* lower-casing the k only dirties a RUT that has one: the call draws such a RUT */
    uint32_t cuerpo = f == DT_SUCIO_RUT_MINUSCULA ? dt__cuerpo_k(g) : dt__gen_rut_cuerpo(g, DT_RUT_PERSONA);
    char limpio[16];
    char *e = dt__put_rut(limpio, cuerpo, DT_RUT_PUNTOS);
    DT__LLENAR(out, DT__SUCIO_RUT, f, limpio, (size_t)(e - limpio));
}

void dt__sucio_nombre(dt_gen *g, dt_sucio_nombre_forma forma, dt_nombre_sucio *out) {
    int f = dt__forma(g, forma);
    char limpio[128]; /* a name is at most 63 bytes; its writer copies 16-byte slots past the end */
    char *e = dt__persona_nombre_completo(g, DT_SEXO_CUALQUIERA, limpio);
    DT__LLENAR(out, DT__SUCIO_NOMBRE, f, limpio, (size_t)(e - limpio));
}

/* The first row whose cumulative total exceeds r (binary search; totals grow). */
#define DT__BUSCAR_ACUM(tabla, n, r, idx)              \
    do {                                               \
        uint32_t lo_ = 0, hi_ = (n) - 1;               \
        while (lo_ < hi_) {                            \
            uint32_t mid_ = (lo_ + hi_) / 2;           \
            if ((tabla)[mid_].acum > (r)) hi_ = mid_;  \
            else lo_ = mid_ + 1;                       \
        }                                              \
        (idx) = lo_;                                   \
    } while (0)

void dt__sucio_comuna(dt_gen *g, dt_sucio_comuna_forma forma, dt_comuna_sucia *out) {
    int f = dt__forma(g, forma);
    uint32_t ci, k;
    /* dropping accents and abbreviating change only some comunas: the call draws among those, by
     * population, so every value is dirty */
    if (f == DT_SUCIO_COMUNA_SIN_TILDES) {
        uint32_t r = dt__below(g, DT_T_COMUNAS_TILDE_TOTAL);
        DT__BUSCAR_ACUM(dt_t_comunas_tilde, DT_T_N_COMUNAS_TILDE, r, k);
        ci = dt_t_comunas_tilde[k].comuna;
    } else if (f == DT_SUCIO_COMUNA_ABREVIATURA) {
        uint32_t r = dt__below(g, DT_T_ABREVIATURAS_TOTAL);
        DT__BUSCAR_ACUM(dt_t_abreviaturas, DT_T_N_ABREVIATURAS, r, k);
        ci = dt_t_abreviaturas[k].comuna;
    } else {
        ci = dt__gen_comuna(g, dt__gen_region(g, 0));
    }
    const dt_t_comuna *c = &dt_t_comunas[ci];
    DT__LLENAR(out, DT__SUCIO_COMUNA, f, c->nombre.s, c->nombre.n);
    dt__field(out->codigo_comuna, c->cut, 5);
}

void dt__sucio_movil(dt_gen *g, dt_sucio_telefono_forma forma, dt_movil_sucio *out) {
    int f = dt__forma(g, forma);
    char limpio[32];
    char *e = dt__gen_movil(g, DT_TEL_E164, limpio);
    DT__LLENAR(out, DT__SUCIO_TELEFONO, f, limpio, (size_t)(e - limpio));
}

void dt__sucio_fijo(dt_gen *g, dt_sucio_telefono_forma forma, dt_fijo_sucio *out) {
    int f = dt__forma(g, forma);
    char limpio[32];
    char *e = dt__telefono_fijo(g, 0, DT_TEL_E164, limpio);
    DT__LLENAR(out, DT__SUCIO_TELEFONO, f, limpio, (size_t)(e - limpio));
}
