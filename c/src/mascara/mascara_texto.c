/* Free text: the RUTs, emails, phones and plates inside it found and replaced in place by what their
 * column rules give (dt_mascara_rut, _email, _telefono, _patente), every other byte kept. The
 * recognition grammar is docs/enmascarar.md's "What texto finds": one left-to-right pass, each
 * recognizer tried only where a token can start and reading a bounded number of bytes, so the time is
 * linear in the text whatever its bytes (no backtracking; invalid UTF-8 is just bytes that start no
 * token). A candidate is replaced only when its column rule accepts it (a RUT's check digit, a
 * plate's letters, a phone's area code), so the rule's own reader is the last word. */
#include "internal.h"
#include "mascara/mascara.h"

const char *dt__mc_email_falla(const char *s, size_t a, size_t b);

static int dt__mt_dig(unsigned char c) { return c >= '0' && c <= '9'; }
static int dt__mt_let(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int dt__mt_alnum(unsigned char c) { return dt__mt_dig(c) || dt__mt_let(c); }
static int dt__mt_local(unsigned char c) {
    return dt__mt_alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-';
}
static int dt__mt_dominio(unsigned char c) { return dt__mt_alnum(c) || c == '.' || c == '-'; }

/* The byte at i, or 0 past the end (0 starts and continues nothing). */
#define AT(i) ((i) < n ? (unsigned char)s[i] : 0u)

/* A dash dt_rut_leer accepts at i: its length (1 or 3), else 0. */
static size_t dt__mt_guion(const char *s, size_t n, size_t i) {
    if (AT(i) == '-') return 1;
    if (AT(i) == 0xE2 && ((AT(i + 1) == 0x80 && AT(i + 2) >= 0x90 && AT(i + 2) <= 0x95) || (AT(i + 1) == 0x88 && AT(i + 2) == 0x92)))
        return 3;
    return 0;
}

/* An email whose local part's run starts at i (the byte before is not a local character): its span. */
static int dt__mt_email(const char *s, size_t n, size_t i, size_t *ini, size_t *fin) {
    if (i > 0 && s[i - 1] == '@') return 0; /* a@b@c.cl is no address */
    while (AT(i) == '.') i++; /* dots before a name are the sentence's */
    size_t j = i;
    while (j < n && j - i <= 64 && dt__mt_local(AT(j))) j++;
    if (AT(j) != '@' || j == i) return 0;
    size_t d = j + 1, e = d;
    while (e < n && e - d <= 253 && dt__mt_dominio(AT(e))) e++;
    if (AT(e) == '@') return 0;
    while (e > d && (s[e - 1] == '.' || s[e - 1] == '-')) e--; /* a full stop, a dash after the address */
    if (dt__mc_email_falla(s, i, e) != NULL) return 0;
    *ini = i;
    *fin = e;
    return 1;
}

/* A RUT starting at the digit i: 7 or 8 digits (dotted in threes or not), a dash, a check digit, and
 * no digit or letter right after; dt_rut_leer then checks the dots and the check digit. */
static int dt__mt_rut(const char *s, size_t n, size_t i, size_t *fin) {
    size_t j = i, digitos = 0;
    for (; j < n && j - i < 11 && (dt__mt_dig(AT(j)) || (AT(j) == '.' && dt__mt_dig(AT(j + 1)))); j++) digitos += dt__mt_dig(AT(j));
    if (digitos < 7 || digitos > 8) return 0;
    size_t g = dt__mt_guion(s, n, j);
    if (g == 0) return 0;
    unsigned char dv = AT(j + g);
    if (!dt__mt_dig(dv) && dv != 'k' && dv != 'K') return 0;
    size_t e = j + g + 1;
    if (dt__mt_alnum(AT(e))) return 0;
    if (dt_rut_validar(s + i, e - i) != DT_OK) return 0;
    *fin = e;
    return 1;
}

static int dt__mt_sep_tel(unsigned char c) { return c == ' ' || c == '-' || c == '.' || c == '(' || c == ')'; }

/* A phone from i: "+56" (or "(+56)") then 9 digits with at most two of ' ', '-', '.', '(', ')' between
 * any two; or, at a 9, a mobile 9 XXXX XXXX with one optional ' ', '-' or '.' at either gap (or none).
 * No digit or letter right after; dt_mascara_telefono then checks the kind. */
static int dt__mt_telefono(const char *s, size_t n, size_t i, size_t *fin) {
    size_t j = i;
    if (AT(j) == '(' && AT(j + 1) == '+') j++;
    if (AT(j) == '+') {
        if (AT(j + 1) != '5' || AT(j + 2) != '6') return 0;
        j += 3;
        size_t digitos = 0;
        while (digitos < 9) {
            size_t sep = 0;
            while (sep < 3 && dt__mt_sep_tel(AT(j))) sep++, j++;
            if (sep > 2 || !dt__mt_dig(AT(j))) return 0;
            j++;
            digitos++;
        }
    } else {
        if (AT(j) != '9') return 0;
        j++;
        for (int grupo = 0; grupo < 2; grupo++) {
            if (AT(j) == ' ' || AT(j) == '-' || AT(j) == '.') j++;
            for (int c = 0; c < 4; c++, j++)
                if (!dt__mt_dig(AT(j))) return 0;
        }
    }
    if (dt__mt_alnum(AT(j))) return 0;
    *fin = j;
    return 1;
}

/* A plate at the letter i: 2 to 4 letters, an optional '·', '.' or '-', its digits, optionally a
 * check digit (after a '-', '·' or '.', or glued); no letter or digit around; dt_patente_leer decides. */
static int dt__mt_patente(const char *s, size_t n, size_t i, size_t *fin) {
    size_t j = i;
    while (j < n && j - i < 5 && dt__mt_let(AT(j))) j++;
    if (j - i < 2 || j - i > 4) return 0;
    if (AT(j) == '.' || AT(j) == '-') j++;
    else if (AT(j) == 0xC2 && AT(j + 1) == 0xB7) j += 2;
    size_t d = j;
    while (j < n && j - d < 6 && dt__mt_dig(AT(j))) j++;
    if (j == d) return 0;
    size_t cand[2], nc = 0, e = j;
    /* with a check digit after a separator first, then without */
    size_t g = AT(e) == '-' || AT(e) == '.' ? 1 : AT(e) == 0xC2 && AT(e + 1) == 0xB7 ? 2 : 0;
    unsigned char dv = AT(e + g);
    if ((dt__mt_dig(dv) && g) || dv == 'k' || dv == 'K') cand[nc++] = e + g + 1;
    cand[nc++] = e;
    for (size_t c = 0; c < nc; c++)
        if (!dt__mt_alnum(AT(cand[c])) && dt_patente_leer(s + i, cand[c] - i, NULL, NULL) == DT_OK) {
            *fin = cand[c];
            return 1;
        }
    return 0;
}

/* The output so far: written while it fits, counted always. */
typedef struct dt__mt_sal {
    char *buf;
    size_t cap, n;
} dt__mt_sal;

static void dt__mt_put(dt__mt_sal *o, const char *s, size_t m) {
    if (m > 0 && o->n + m < o->cap) memcpy(o->buf + o->n, s, m);
    o->n += m;
}

dt_status dt_mascara_texto(const dt_mascara_clave *k, unsigned buscar, const char *in, size_t len, char *buf,
                           size_t cap, size_t *out_len, char *why, size_t whycap) {
    if (why != NULL && whycap > 0) why[0] = '\0';
    if (buf != NULL && cap > 0) buf[0] = '\0';
    if (k == NULL || (in == NULL && len > 0) || (buf == NULL && cap > 0)) {
        if (why != NULL)
            dt__sentence_out(k == NULL                 ? "texto: the key is NULL"
                             : in == NULL && len > 0   ? "texto: in is NULL but len is not 0"
                                                       : "texto: buf is NULL but cap is not 0",
                             why, whycap, NULL);
        return DT_ERR_NULL;
    }
    if (buscar == 0 || (buscar & ~(unsigned)DT_MASCARA_BUSCAR_TODO) != 0) {
        if (why != NULL)
            dt__sentence_out("texto: buscar must be a non-empty union of DT_MASCARA_BUSCAR_RUT, _EMAIL, _TELEFONO and _PATENTE",
                             why, whycap, NULL);
        return DT_ERR_INVALID_ARG;
    }
    const char *s = in;
    size_t n = len, hecho = 0, i = 0;
    dt__mt_sal o = {buf, cap, 0};
    char t[64];
    while (i < n) {
        unsigned char c = (unsigned char)s[i], p = i ? (unsigned char)s[i - 1] : 0;
        unsigned char pp = i > 1 ? (unsigned char)s[i - 2] : 0;
        size_t ini = i, fin = 0;
        dt_status (*f)(const dt_mascara_clave *, const char *, size_t, char *, size_t, size_t *, char *, size_t) = NULL;
        /* no digit before a number, nor a digit and a '.' or '-' (a longer number) */
        int borde_num = !dt__mt_dig(p) && !((p == '.' || p == '-') && dt__mt_dig(pp));
        if ((buscar & DT_MASCARA_BUSCAR_EMAIL) && dt__mt_local(c) && !dt__mt_local(p) && dt__mt_email(s, n, i, &ini, &fin))
            f = dt_mascara_email;
        else if ((buscar & DT_MASCARA_BUSCAR_RUT) && dt__mt_dig(c) && borde_num && dt__mt_rut(s, n, i, &fin))
            f = dt_mascara_rut;
        else if ((buscar & DT_MASCARA_BUSCAR_TELEFONO) && (c == '+' || c == '(' || c == '9') && !dt__mt_alnum(p) &&
                 p != '+' && borde_num && dt__mt_telefono(s, n, i, &fin))
            f = dt_mascara_telefono;
        else if ((buscar & DT_MASCARA_BUSCAR_PATENTE) && dt__mt_let(c) && !dt__mt_alnum(p) && dt__mt_patente(s, n, i, &fin))
            f = dt_mascara_patente;
        if (f == NULL) {
            i++;
            continue;
        }
        size_t m = 0;
        if (f(k, s + ini, fin - ini, t, sizeof t, &m, NULL, 0) != DT_OK) { /* its rule refused it: not one */
            i++;
            continue;
        }
        dt__mt_put(&o, s + hecho, ini - hecho);
        dt__mt_put(&o, t, m);
        hecho = i = fin;
    }
    dt__mt_put(&o, s + hecho, n - hecho);
    dt__borrar(t, sizeof t);
    if (out_len) *out_len = o.n;
    if (o.n + 1 > cap) {
        if (cap > 0) buf[0] = '\0';
        return DT_ERR_BUFFER_TOO_SMALL;
    }
    buf[o.n] = '\0';
    return DT_OK;
}
