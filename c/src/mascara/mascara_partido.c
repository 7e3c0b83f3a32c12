/* A RUT in two columns (body and check digit) and an identifier made from a RUT body (a CuentaRUT
 * number, a code such as CL-12345678): docs/enmascarar.md, "A RUT split in two columns" and
 * "Identifiers made from a RUT". Both put the body through the `rut` rule's permutation
 * (dt_mascara_rut_cuerpo), so the same person's body masks to the same masked body in a formatted RUT,
 * a split one and a derived number, and joins between them survive masking. The plan (reglas.c) calls
 * these per value; nothing here keeps or prints a value. */
#include "internal.h"
#include "mascara/mascara.h"
#include "mascara/partido.h"

static int dt__mp_digito(char c) { return c >= '0' && c <= '9'; }
static int dt__mp_espacio(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static int dt__mp_alnum(char c) {
    return dt__mp_digito(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A run of digits starting at s[i]: digits, and dots each between two digits. `ok` when it reads as a
 * body: 1 to 8 digits after its leading zeros, not 0, and (with dots) no leading zero and groups of
 * three from the right, the first of one to three. `ancho` counts its digits, leading zeros too. */
typedef struct dt__mp_tramo {
    size_t ini, fin, ancho, ceros; /* ceros: its leading zeros */
    int puntos, ok;
    uint32_t cuerpo;
} dt__mp_tramo;

static void dt__mp_leer_tramo(const char *s, size_t n, size_t i, dt__mp_tramo *t) {
    size_t j = i, sig = 0, grupo = 0;
    uint32_t v = 0;
    int ok = 1;
    t->puntos = 0;
    t->ancho = 0;
    while (j < n && (dt__mp_digito(s[j]) || (s[j] == '.' && j > i && j + 1 < n && dt__mp_digito(s[j + 1])))) {
        if (s[j] == '.') { /* the first group one to three digits, every later one three */
            if (t->puntos ? grupo != 3 : grupo > 3) ok = 0;
            t->puntos = 1;
            grupo = 0;
        } else {
            t->ancho++;
            grupo++;
            if (sig || s[j] != '0') {
                if (++sig <= 8) v = v * 10 + (uint32_t)(s[j] - '0');
            }
        }
        j++;
    }
    if (t->puntos && (grupo != 3 || s[i] == '0')) ok = 0;
    t->ini = i;
    t->fin = j;
    t->ceros = t->ancho - sig;
    t->cuerpo = v;
    t->ok = ok && sig >= 1 && sig <= 8;
}

/* The body `v` as the run it replaces was written: dotted if it was; padded with zeros to its width
 * when it had leading zeros (a fixed-width field keeps its width), else as many digits as it has (a
 * CuentaRUT number stays equal to its holder's masked body). Returns the end. */
static char *dt__mp_poner(char *p, uint32_t v, const dt__mp_tramo *t) {
    char d[12];
    size_t k = 0;
    do d[k++] = (char)('0' + v % 10);
    while ((v /= 10) > 0);
    if (!t->puntos && t->ceros > 0)
        for (size_t z = k; z < t->ancho; z++) *p++ = '0';
    while (k > 0) {
        *p++ = d[--k];
        if (t->puntos && k > 0 && k % 3 == 0) *p++ = '.';
    }
    return p;
}

static int dt__mp_indice_dv(char c) { return c == 'k' || c == 'K' ? 10 : c - '0'; }
static char dt__mp_dv_de(int i) { return i == 10 ? 'K' : (char)('0' + i); }

static uint32_t dt__mp_enmascarar(const dt_mascara_clave *k, uint32_t cuerpo) {
    uint32_t m = cuerpo;
    dt_mascara_rut_cuerpo(k, cuerpo, &m); /* a body read here is in 1..DT_RUT_CUERPO_MAX */
    return m;
}

int dt__mp_cuerpo_de(const char *s, size_t n, uint32_t *cuerpo) {
    size_t i = 0;
    while (i < n && dt__mp_espacio(s[i])) i++;
    while (n > i && dt__mp_espacio(s[n - 1])) n--;
    if (i == n || !dt__mp_digito(s[i])) return -1;
    dt__mp_tramo t;
    dt__mp_leer_tramo(s, n, i, &t);
    if (!t.ok || t.fin != n) return -1;
    *cuerpo = t.cuerpo;
    return 0;
}

int dt__mp_partido(const dt_mascara_clave *k, const char *c, size_t cn, const char *dv, size_t dn, int invalido,
                   char *oc, size_t *ocn, char *od, size_t *odn, const char **por_que) {
    *ocn = *odn = 0;
    size_t i = 0, f = cn;
    while (i < f && dt__mp_espacio(c[i])) i++;
    while (f > i && dt__mp_espacio(c[f - 1])) f--;
    dt__mp_tramo t;
    if (i < f && dt__mp_digito(c[i])) dt__mp_leer_tramo(c, f, i, &t);
    if (i == f || !dt__mp_digito(c[i]) || !t.ok || t.fin != f) {
        *por_que = i == f ? "the body is empty while its check digit is not"
                          : "the body is not a RUT body (1 to 8 digits; dots only between groups of three)";
        return -1;
    }
    size_t a = 0, b = dn;
    while (a < b && dt__mp_espacio(dv[a])) a++;
    while (b > a && dt__mp_espacio(dv[b - 1])) b--;
    if (b - a > 1 || (b == a + 1 && !dt__mp_digito(dv[a]) && dv[a] != 'k' && dv[a] != 'K')) {
        *por_que = "its check digit column does not hold a check digit (0-9 or K)";
        return -1;
    }
    if (b == a && !invalido) {
        *por_que = "its check digit column is empty";
        return -1;
    }
    uint32_t m = dt__mp_enmascarar(k, t.cuerpo);
    char *p = dt__put(oc, c, i);
    p = dt__mp_poner(p, m, &t);
    p = dt__put(p, c + f, cn - f);
    *ocn = (size_t)(p - oc);
    memcpy(od, dv, dn);
    *odn = dn;
    if (b == a) return 1; /* invalido: the body masked, the missing check digit still missing */
    int correcto = dt__mp_indice_dv(dt__dv(t.cuerpo)), dado = dt__mp_indice_dv(dv[a]);
    if (correcto != dado && !invalido) {
        *por_que = "its check digit does not match the body";
        return -1;
    }
    /* a wrong check digit stays wrong by the same distance, as the rule rut keeps it (invalido) */
    int w = (dt__mp_indice_dv(dt__dv(m)) + dado - correcto + 11) % 11;
    od[a] = w == 10 && dv[a] == 'k' ? 'k' : dt__mp_dv_de(w);
    return correcto == dado ? 0 : 1;
}

/* After a run ending at s[fin]: a dash and the run's own check digit, then the end or a character that
 * is not a letter or digit. Its position, or 0 when there is none. */
static size_t dt__mp_dv_tras(const char *s, size_t n, size_t fin, uint32_t cuerpo) {
    if (fin + 1 >= n || s[fin] != '-') return 0;
    char d = s[fin + 1];
    if (!dt__mp_digito(d) && d != 'k' && d != 'K') return 0;
    if (fin + 2 < n && dt__mp_alnum(s[fin + 2])) return 0;
    return dt__mp_indice_dv(d) == dt__mp_indice_dv(dt__dv(cuerpo)) ? fin + 1 : 0;
}

int dt__mp_buscar(const char *s, size_t n, int con_cuerpo, uint32_t cuerpo, uint32_t *objetivo, const char **por_que) {
    size_t tramos = 0, iguales = 0;
    dt__mp_tramo unico = {0, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < n;) {
        if (!dt__mp_digito(s[i])) {
            i++;
            continue;
        }
        dt__mp_tramo t;
        dt__mp_leer_tramo(s, n, i, &t);
        tramos++;
        if (t.ok && con_cuerpo && t.cuerpo == cuerpo) iguales++;
        unico = t;
        size_t d = t.ok ? dt__mp_dv_tras(s, n, t.fin, t.cuerpo) : 0;
        i = d ? d + 1 : t.fin;
    }
    if (con_cuerpo && iguales == 0) {
        *por_que = "it does not hold the RUT body of its row's RUT column (as a whole run of digits)";
        return -1;
    }
    if (!con_cuerpo && (tramos != 1 || !unico.ok)) {
        *por_que = tramos == 0 ? "it holds no digits, so no RUT body"
                   : tramos > 1 ? "it holds more than one run of digits, so which is the RUT body is not known"
                                : "its run of digits is not a RUT body (1 to 8 digits after leading zeros)";
        return -1;
    }
    *objetivo = con_cuerpo ? cuerpo : unico.cuerpo;
    return 0;
}

int dt__mp_derivado(const dt_mascara_clave *k, const char *s, size_t n, int con_cuerpo, uint32_t cuerpo, char *out,
                    size_t *on, const char **por_que) {
    *on = 0;
    uint32_t objetivo;
    if (dt__mp_buscar(s, n, con_cuerpo, cuerpo, &objetivo, por_que) != 0) return -1;
    uint32_t m = dt__mp_enmascarar(k, objetivo);
    char *p = out;
    for (size_t i = 0; i < n;) {
        if (!dt__mp_digito(s[i])) {
            *p++ = s[i++];
            continue;
        }
        dt__mp_tramo t;
        dt__mp_leer_tramo(s, n, i, &t);
        size_t d = t.ok ? dt__mp_dv_tras(s, n, t.fin, t.cuerpo) : 0;
        if (!t.ok || t.cuerpo != objetivo) {
            p = dt__put(p, s + i, t.fin - i);
            i = t.fin;
            continue;
        }
        p = dt__mp_poner(p, m, &t);
        i = t.fin;
        if (d) { /* the dash, then the masked body's check digit (a 'k' stays lower case) */
            *p++ = s[i];
            char nuevo = dt__dv(m);
            *p++ = nuevo == 'K' && s[d] == 'k' ? 'k' : nuevo;
            i = d + 1;
        }
    }
    *on = (size_t)(p - out);
    return 0;
}
