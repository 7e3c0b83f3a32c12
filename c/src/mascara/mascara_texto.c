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
int dt__mp_direccion(const dt_mascara_clave *k, const char *s, size_t n, size_t i, size_t *ini, size_t *fin, char *out,
                     size_t cap, size_t *outn, size_t *corte);
int dt__mp_nombre(const dt_mascara_clave *k, const char *s, size_t n, size_t i, size_t *ini, size_t *fin, char *out,
                  size_t cap, size_t *outn);

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

/* The words before i name a document number ("Folio 912345678", "Boleta N° 9...", "Ticket #9...",
 * "orden de compra 9..."): a bare nine digits there is that number, not a mobile. Reads at most 24
 * bytes back. */
static int dt__mt_etiqueta_documento(const char *s, size_t i) {
    static const char *const docs[] = {"folio", "boleta", "ticket", "orden", "compra", "factura", "pedido", "id",
                                       "codigo", "nro", "numero", "n", "no", "operacion", "transaccion", "cuenta"};
    size_t j = i, k = 0;
    while (j > 0 && k < 6) {
        unsigned char c = (unsigned char)s[j - 1];
        if (c == ' ' || c == ':' || c == '#' || c == '.' || c == 0xB0 || c == 0xBA || c == 0xC2) j--, k++;
        else break;
    }
    size_t e = j;
    while (j > 0 && e - j < 12 && (dt__mt_let((unsigned char)s[j - 1]) || (unsigned char)s[j - 1] >= 0x80)) j--;
    if (e == j || e - j >= 12) return 0;
    char w[16];
    char *f = dt__put_ascii_fold(w, s + j, e - j);
    *f = '\0';
    for (size_t q = 0; q < sizeof docs / sizeof docs[0]; q++)
        if (strcmp(w, docs[q]) == 0) return 1;
    return 0;
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
        if (dt__mt_dig(AT(j + 1)) && dt__mt_dig(AT(j + 5)) && dt__mt_etiqueta_documento(s, i)) return 0; /* Folio 9... */
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

/* ---- the spellings people write (issue 39): each recognizer gives a span and the text its column
 * rule reads for it (the normalised value), or NULL for the span itself. ---- */

static int dt__mt_min(unsigned char c) { return c >= 'a' && c <= 'z'; }
static int dt__mt_fold(unsigned char c) { return dt__mt_let(c) ? (c | 0x20) : c; }

/* The byte before i is the end of a RUT label: "rut", "run", "r.u.t.", "r.u.n" in any case, not glued
 * to a letter before it, then at most 8 bytes of ' ', ':', '.', '#', '-', 'N°'/'Nº'/'Nro' between. */
static int dt__mt_etiqueta(const char *s, size_t i) {
    size_t j = i, k = 0;
    while (j > 0 && k < 8) {
        unsigned char c = (unsigned char)s[j - 1];
        if (c == ' ' || c == ':' || c == '.' || c == '#' || c == '-' || c == 0xB0 || c == 0xBA || c == 0xC2) j--, k++;
        else if ((c == 'n' || c == 'N') && j >= 2 && !dt__mt_let((unsigned char)s[j - 2])) j--, k++; /* N° */
        else break;
    }
    /* the letters, dots between them allowed: r.u.t */
    char l[3];
    int nl = 0;
    while (j > 0 && nl < 3) {
        unsigned char c = (unsigned char)s[j - 1];
        if (c == '.' && nl > 0) { j--; continue; }
        if (!dt__mt_let(c)) break;
        l[2 - nl++] = (char)dt__mt_fold(c);
        j--;
    }
    if (nl != 3 || l[0] != 'r' || l[1] != 'u' || (l[2] != 't' && l[2] != 'n')) return 0;
    return j == 0 || !dt__mt_let((unsigned char)s[j - 1]);
}

/* A RUT at the digit i in the spellings dt__mt_rut does not take: its body (7 or 8 digits, dotted in
 * threes or not), then a dash with spaces around it (`12.345.678 - 5`), a space (`12345678 5`) or
 * nothing (`123456785`, only after a label), then a check digit, nothing glued after. A check digit
 * after a dash or a label is taken whatever it is (a mistyped one: the body is still someone's); after
 * a bare space it must be right. The normalised value (body as written, '-', the right check digit;
 * no dash when none was written) goes to dt_mascara_rut. */
static int dt__mt_rut_libre(const char *s, size_t n, size_t i, int etiqueta, size_t *fin, char *norm, size_t *nn) {
    size_t j = i, digitos = 0;
    for (; j < n && j - i < 11 && (dt__mt_dig(AT(j)) || (AT(j) == '.' && dt__mt_dig(AT(j + 1)))); j++) digitos += dt__mt_dig(AT(j));
    size_t cuerpo_fin = j, e = 0, dvpos = 0;
    int guion = 0;
    if (digitos >= 7 && digitos <= 8) {
        size_t g = j;
        while (AT(g) == ' ' && g - j < 2) g++;
        size_t d = dt__mt_guion(s, n, g);
        if (d > 0) {
            size_t h = g + d;
            while (AT(h) == ' ' && h - (g + d) < 2) h++;
            if (dt__mt_dig(AT(h)) || AT(h) == 'k' || AT(h) == 'K') dvpos = h, guion = 1;
        } else if (g == j + 1 && (dt__mt_dig(AT(g)) || AT(g) == 'k' || AT(g) == 'K')) {
            dvpos = g; /* one space */
        }
        if (dvpos) e = dvpos + 1;
    }
    if (!dvpos) {
        /* glued: an undotted run of 8 or 9 digits, the last one the check digit, only after a label */
        if (!etiqueta || j - i != digitos) return 0;
        if (AT(j) == 'k' || AT(j) == 'K') { /* 12345678K */
            if (digitos < 7 || digitos > 8) return 0;
            cuerpo_fin = j, dvpos = j, e = j + 1;
        } else {
            if (digitos < 8 || digitos > 9) return 0;
            cuerpo_fin = j - 1, dvpos = j - 1, e = j;
        }
    }
    if (dt__mt_alnum(AT(e))) return 0;
    uint32_t cuerpo = 0;
    size_t m = 0;
    for (size_t q = i; q < cuerpo_fin; q++)
        if (dt__mt_dig(AT(q))) cuerpo = cuerpo * 10 + (uint32_t)(AT(q) - '0');
    if (cuerpo < 1000000u || cuerpo > DT_RUT_CUERPO_MAX) return 0;
    char dv;
    if (dt_rut_dv(cuerpo, &dv) != DT_OK) return 0;
    if (!guion && !etiqueta && dt__mt_fold(AT(dvpos)) != dt__mt_fold((unsigned char)dv)) return 0;
    memcpy(norm, s + i, cuerpo_fin - i);
    m = cuerpo_fin - i;
    if (guion || dvpos > cuerpo_fin) norm[m++] = '-';
    norm[m++] = AT(dvpos) == 'k' && dv == 'K' ? 'k' : dv;
    if (dt_rut_validar(norm, m) != DT_OK) return 0; /* dots not in threes: a version, an index */
    *nn = m;
    *fin = e;
    return 1;
}

/* A phone without +56 in the groups people write: an optional '(' , groups of 1 to 4 digits (the first
 * may hold the trunk 0: `09-8765 4321`) joined by one ' ', '-', '.' or ')' (and a space after ')'),
 * 2 to 4 groups, the last of 4 digits, 9 digits in all besides a leading 0, nothing glued after:
 * `(9) 8765 4321`, `22 345 6789`, `(2) 2345 6789`, `(32) 234 5678`. dt_mascara_telefono reads it as
 * written (it keeps every byte but the digits). */
static int dt__mt_telefono_libre(const char *s, size_t n, size_t i, size_t *fin) {
    size_t j = i, grupos = 0, digitos = 0, fines[4];
    size_t total[4], largos[4];
    int parentesis = AT(j) == '(';
    if (parentesis) j++;
    int cerrado = 0;
    while (grupos < 4) {
        size_t d = j;
        while (j < n && j - d < 5 && dt__mt_dig(AT(j))) j++;
        if (j == d) break;
        if (j - d > 4) return 0;
        digitos += j - d;
        largos[grupos] = j - d;
        total[grupos] = digitos;
        fines[grupos++] = j;
        size_t sep = j;
        if (AT(sep) == ')' && parentesis && !cerrado) {
            cerrado = 1, sep++;
            if (AT(sep) == ' ') sep++;
        } else if (AT(sep) == ' ' || AT(sep) == '-' || AT(sep) == '.') sep++;
        else break;
        if (!dt__mt_dig(AT(sep))) break;
        j = sep;
    }
    for (size_t g = grupos; g >= 2; g--) {
        size_t dg = total[g - 1], e = fines[g - 1];
        int cero = AT(i + (size_t)parentesis) == '0';
        if (largos[g - 1] != 4 || dg - (size_t)cero != 9) continue;
        if (dt__mt_alnum(AT(e)) || (AT(e) == '.' && dt__mt_dig(AT(e + 1))) || (AT(e) == '-' && dt__mt_dig(AT(e + 1)))) continue;
        if (parentesis && !cerrado) continue;
        *fin = e;
        return 1;
    }
    return 0;
}

/* A plate in the spellings dt__mt_patente does not take: its letters in two pairs apart (`BB-CL-23`,
 * `BB·CL·23`, `BB CL 23`) or a space before the digits (`AB 1234`, `BBCL 23`); with a space anywhere
 * the letters must be capitals (`de 2020` is a date). The normalised value is the letters, the
 * separator before the digits when it is '-', '·' or '.', the digits (and a check digit as written);
 * dt_mascara_patente's output is then written back in the spelling's shape. */
static int dt__mt_patente_libre(const char *s, size_t n, size_t i, size_t *fin, char *norm, size_t *nn) {
    size_t j = i, m = 0;
    int espacio = 0, mayus = 1;
    size_t letras = 0;
    { /* a cheap no: a first group of 2 to 4 letters, a separator after it, capitals before a space */
        size_t r = i;
        while (r < n && r - i < 5 && dt__mt_let(AT(r))) r++;
        if (r - i < 2 || r - i > 4) return 0;
        if (AT(r) == ' ' ? !(dt__mt_let(AT(r + 1)) || dt__mt_dig(AT(r + 1))) || dt__mt_min(AT(i)) || dt__mt_min(AT(i + 1))
                         : !(AT(r) == '-' || AT(r) == '.' || (AT(r) == 0xC2 && AT(r + 1) == 0xB7)))
            return 0;
    }
    for (int grupo = 0; grupo < 2; grupo++) {
        size_t a = j;
        while (j < n && j - a < 5 && dt__mt_let(AT(j))) mayus &= !dt__mt_min(AT(j)), norm[m++] = s[j++];
        if (j - a < 2) return 0;
        letras += j - a;
        if (letras > 4) return 0;
        size_t sep = 0;
        if (AT(j) == '-' || AT(j) == '.' || AT(j) == ' ') sep = 1;
        else if (AT(j) == 0xC2 && AT(j + 1) == 0xB7) sep = 2;
        if (sep == 0) return 0; /* glued letters to digits: dt__mt_patente's */
        espacio |= AT(j) == ' ';
        size_t sj = j;
        j += sep;
        if (dt__mt_dig(AT(j))) {
            if (AT(sj) != ' ') {
                if (grupo == 0) return 0; /* LL-NNNN: dt__mt_patente's */
                memcpy(norm + m, s + sj, sep), m += sep;
            }
            break;
        }
        if (grupo == 1 || letras != 2) return 0;
    }
    if (espacio && !mayus) return 0;
    size_t d = j;
    while (j < n && j - d < 5 && dt__mt_dig(AT(j))) norm[m++] = s[j++];
    if (j == d) return 0;
    if ((AT(j) == '-' || AT(j) == '.') && (dt__mt_dig(AT(j + 1)) || AT(j + 1) == 'k' || AT(j + 1) == 'K') && !dt__mt_alnum(AT(j + 2))) {
        norm[m] = s[j], norm[m + 1] = s[j + 1]; /* with its check digit, if the rule reads it so */
        if (dt_patente_leer(norm, m + 2, NULL, NULL) == DT_OK) {
            *nn = m + 2;
            *fin = j + 2;
            return 1;
        }
    }
    if (dt__mt_alnum(AT(j)) || dt_patente_leer(norm, m, NULL, NULL) != DT_OK) return 0;
    *nn = m;
    *fin = j;
    return 1;
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
            dt__sentence_out("texto: buscar must be a non-empty union of DT_MASCARA_BUSCAR_RUT, _EMAIL, _TELEFONO, _PATENTE, _NOMBRE and _DIRECCION",
                             why, whycap, NULL);
        return DT_ERR_INVALID_ARG;
    }
    const char *s = in;
    size_t n = len, hecho = 0, i = 0;
    dt__mt_sal o = {buf, cap, 0};
    char t[64], norm[24], prosa[384];
    size_t usado_prosa = 0; /* the bytes of prosa to wipe */
    size_t arroba = 0; /* the next '@' at or after i (n: none) */
    size_t corte_dir = 0; /* dt__mp_direccion's: no address starts before it */
    while (i < n) {
        unsigned char c = (unsigned char)s[i], p = i ? (unsigned char)s[i - 1] : 0;
        /* inside a word or a number nothing starts: a letter after a letter or digit, a digit after a
         * digit, a byte of a UTF-8 letter */
        if ((dt__mt_let(c) && dt__mt_alnum(p)) || (dt__mt_dig(c) && dt__mt_dig(p)) || (c >= 0x80 && (c != 0xC3 || p >= 0x80 || dt__mt_alnum(p)))) {
            i++;
            continue;
        }
        if (arroba < i) {
            const char *a = memchr(s + i, '@', n - i);
            arroba = a ? (size_t)(a - s) : n;
        }
        unsigned char pp = i > 1 ? (unsigned char)s[i - 2] : 0;
        size_t ini = i, fin = 0, nn = 0;
        int forma = 0; /* write the rule's output back in the span's shape (plates with inner separators) */
        dt_status (*f)(const dt_mascara_clave *, const char *, size_t, char *, size_t, size_t *, char *, size_t) = NULL;
        /* no digit before a number, nor a digit and a '.' or '-' (a longer number), nor a '$' (an amount) */
        int borde_num = !dt__mt_dig(p) && !((p == '.' || p == '-') && dt__mt_dig(pp)) && p != '$' && !(p == ' ' && pp == '$');
        if ((buscar & DT_MASCARA_BUSCAR_EMAIL) && arroba < n && arroba - i <= 66 && dt__mt_local(c) && !dt__mt_local(p) &&
            dt__mt_email(s, n, i, &ini, &fin))
            f = dt_mascara_email;
        else if ((buscar & DT_MASCARA_BUSCAR_RUT) && dt__mt_dig(c) && borde_num && dt__mt_rut(s, n, i, &fin))
            f = dt_mascara_rut;
        else if ((buscar & DT_MASCARA_BUSCAR_RUT) && dt__mt_dig(c) && borde_num &&
                 dt__mt_rut_libre(s, n, i, dt__mt_etiqueta(s, i), &fin, norm, &nn))
            f = dt_mascara_rut;
        else if ((buscar & DT_MASCARA_BUSCAR_TELEFONO) && (c == '+' || c == '(' || c == '9') && !dt__mt_alnum(p) &&
                 p != '+' && borde_num && dt__mt_telefono(s, n, i, &fin))
            f = dt_mascara_telefono;
        else if ((buscar & DT_MASCARA_BUSCAR_TELEFONO) && (c == '(' || dt__mt_dig(c)) && !dt__mt_alnum(p) && p != '+' &&
                 borde_num && dt__mt_telefono_libre(s, n, i, &fin))
            f = dt_mascara_telefono;
        else if ((buscar & DT_MASCARA_BUSCAR_PATENTE) && dt__mt_let(c) && !dt__mt_alnum(p) && dt__mt_patente(s, n, i, &fin))
            f = dt_mascara_patente;
        else if ((buscar & DT_MASCARA_BUSCAR_PATENTE) && dt__mt_let(c) && !dt__mt_alnum(p) &&
                 dt__mt_patente_libre(s, n, i, &fin, norm, &nn))
            f = dt_mascara_patente, forma = 1;
        else if ((buscar & (DT_MASCARA_BUSCAR_NOMBRE | DT_MASCARA_BUSCAR_DIRECCION)) && (dt__mt_let(c) || c == 0xC3) &&
                 !dt__mt_alnum(p) && p < 0x80 &&
                 (((buscar & DT_MASCARA_BUSCAR_DIRECCION) && dt__mp_direccion(k, s, n, i, &ini, &fin, prosa, sizeof prosa, &nn, &corte_dir)) ||
                  ((buscar & DT_MASCARA_BUSCAR_NOMBRE) && dt__mp_nombre(k, s, n, i, &ini, &fin, prosa, sizeof prosa, &nn)))) {
            dt__mt_put(&o, s + hecho, ini - hecho);
            dt__mt_put(&o, prosa, nn);
            if (nn > usado_prosa) usado_prosa = nn;
            hecho = i = fin;
            continue;
        }
        if (f == NULL) {
            i++;
            continue;
        }
        size_t m = 0;
        const char *v = nn ? norm : s + ini;
        size_t vn = nn ? nn : fin - ini;
        if (f(k, v, vn, t, sizeof t, &m, NULL, 0) != DT_OK) { /* its rule refused it: not one */
            i++;
            continue;
        }
        dt__mt_put(&o, s + hecho, ini - hecho);
        if (forma) { /* the masked letters and digits, in order, into the span's own letters and digits */
            size_t q = 0;
            char u[24];
            size_t un = 0;
            for (size_t r = ini; r < fin && un < sizeof u; r++) {
                if (dt__mt_alnum((unsigned char)s[r])) {
                    while (q < m && !dt__mt_alnum((unsigned char)t[q])) q++;
                    u[un++] = q < m ? t[q++] : s[r];
                } else {
                    u[un++] = s[r];
                }
            }
            dt__mt_put(&o, u, un);
            dt__borrar(u, sizeof u);
        } else {
            dt__mt_put(&o, t, m);
        }
        hecho = i = fin;
    }
    dt__mt_put(&o, s + hecho, n - hecho);
    dt__borrar(t, sizeof t);
    dt__borrar(norm, sizeof norm);
    dt__borrar(prosa, usado_prosa);
    if (out_len) *out_len = o.n;
    if (o.n + 1 > cap) {
        if (cap > 0) buf[0] = '\0';
        return DT_ERR_BUFFER_TOO_SMALL;
    }
    buf[o.n] = '\0';
    return DT_OK;
}
