/* Free text: the RUTs, emails, phones and plates inside it found and replaced in place by what their
 * column rules give (dt_mascara_rut, _email, _telefono, _patente), every other byte kept. The
 * recognition grammar is docs/enmascarar.md's "What texto finds": one left-to-right pass, each
 * recognizer tried only where a token can start and reading a bounded number of bytes, so the time is
 * linear in the text whatever its bytes (no backtracking; invalid UTF-8 is just bytes that start no
 * token). A candidate is replaced only when its column rule accepts it (a RUT's check digit, a
 * plate's letters, a phone's area code), so the rule's own reader is the last word. */
#include "internal.h"
#include "mascara/mascara.h"
#include "mascara/partido.h"

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
static int dt__mt_min(unsigned char c) { return c >= 'a' && c <= 'z'; }
static int dt__mt_fold(unsigned char c) { return dt__mt_let(c) ? (c | 0x20) : c; }

static int dt__mt_en_lista(const char *w, const char *const *l, size_t nl) {
    for (size_t q = 0; q < nl; q++)
        if (w[0] == l[q][0] && strcmp(w, l[q]) == 0) return 1;
    return 0;
}

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

/* ---- emails written so a crawler does not read them (issue 48): `nombre at gmail.com`, `nombre [at]
 * gmail.com`, `nombre(arroba)gmail.com`, `nombre (at) dominio.cl`, `nombre @ gmail.com`, `nombre
 * arroba gmail punto com`. ---- */

/* The separator that stands for '@' at j, case aside: "at", "arroba" between spaces, or in brackets
 * ("[at]", "(at)", "{at}", "<at>", the same with "arroba") with or without a space each side, or '@'
 * with a space on either side. Its length, or 0. */
static size_t dt__mt_sep_arroba(const char *s, size_t n, size_t j) {
    size_t q = j;
    int esp = AT(q) == ' ';
    if (esp) q++;
    unsigned char ab = AT(q), cierra = ab == '[' ? ']' : ab == '(' ? ')' : ab == '{' ? '}' : ab == '<' ? '>' : 0;
    if (cierra) q++;
    size_t w = q;
    if (AT(w) == '@') {
        if (cierra) return 0;
        w++;
        int esp2 = AT(w) == ' ';
        if (!esp && !esp2) return 0; /* "a@b" is the ordinary address, dt__mt_email's */
        return w + (size_t)esp2 - j;
    }
    if ((AT(w) | 0x20) != 'a' || ((AT(w + 1) | 0x20) != 't' && (AT(w + 1) | 0x20) != 'r')) return 0; /* at, arroba */
    size_t r = w;
    while (r < n && r - w < 7 && dt__mt_let(AT(r))) r++;
    char pl[8];
    for (size_t x = w; x < r; x++) pl[x - w] = (char)dt__mt_fold(AT(x));
    pl[r - w] = '\0';
    if (strcmp(pl, "at") != 0 && strcmp(pl, "arroba") != 0) return 0;
    if (cierra) {
        if (AT(r) != cierra) return 0;
        r++;
        if (AT(r) == ' ') r++; /* "a (at) b", "a(at) b", "a (at)b", "a(at)b" */
        return r - j;
    }
    if (!esp || AT(r) != ' ') return 0; /* a bare word: spaces both sides */
    return r + 1 - j;
}

/* The separator that stands for '.' in a written domain at j: ".", or " punto ", " dot ", "[dot]",
 * "(punto)", "[punto]", "(dot)" (case aside). Its length, or 0. */
static size_t dt__mt_sep_punto(const char *s, size_t n, size_t j) {
    if (AT(j) == '.') return 1;
    size_t q = j;
    int esp = AT(q) == ' ';
    if (esp) q++;
    unsigned char ab = AT(q), cierra = ab == '[' ? ']' : ab == '(' ? ')' : 0;
    if (cierra) q++;
    size_t r = q;
    while (r < n && r - q < 6 && dt__mt_let(AT(r))) r++;
    char pl[8];
    for (size_t x = q; x < r; x++) pl[x - q] = (char)dt__mt_fold(AT(x));
    pl[r - q] = '\0';
    if (strcmp(pl, "dot") != 0 && strcmp(pl, "punto") != 0) return 0;
    if (cierra) {
        if (AT(r) != cierra) return 0;
        r++;
        if (esp && AT(r) == ' ') r++;
        return r - j;
    }
    if (!esp || AT(r) != ' ') return 0;
    return r + 1 - j;
}

/* At i, a separator written for '@' (dt__mt_sep_arroba) right after a local part that starts at or
 * after `hecho` (nothing replaced in it) and is preceded by no local-part character nor '@': 1 and
 * that start in *ini. Tried where the scan meets a space, a bracket or '@' (cheap noes first), so the
 * note is read once. */
static int dt__mt_arroba_escrita(const char *s, size_t n, size_t i, size_t hecho, size_t *ini) {
    unsigned char d = AT(i + 1), d2 = (unsigned char)(d | 0x20);
    if (s[i] == '@' ? d != ' ' : !(d2 == 'a' || d == '@' || (s[i] == ' ' && (d == '[' || d == '(' || d == '{' || d == '<'))))
        return 0;
    if (i == 0 || !dt__mt_local((unsigned char)s[i - 1]) || dt__mt_sep_arroba(s, n, i) == 0) return 0;
    size_t a = i;
    while (a > hecho && i - a < 64 && dt__mt_local((unsigned char)s[a - 1])) a--;
    if (a > 0 && (dt__mt_local((unsigned char)s[a - 1]) || s[a - 1] == '@')) return 0; /* too long, or cut by a replacement */
    while (a < i && s[a] == '.') a++; /* dots before a name are the sentence's */
    if (a == i || !dt__mt_alnum((unsigned char)s[a])) return 0;
    *ini = a;
    return 1;
}

/* An email written with a separator for '@' (and maybe for '.') whose local part starts at i: its span,
 * the address it stands for in `correo` (cap bytes), and where the separator is (*sa, *sb: the bytes
 * from the local part's end to the domain's start) and the domain's dot separator's length (*sp: 1
 * for '.'). */
static int dt__mt_email_escrito(const char *s, size_t n, size_t i, size_t *fin, char *correo, size_t cap, size_t *cn,
                                size_t *sa, size_t *sb, size_t *sp, size_t *spa) {
    size_t j = i;
    while (j < n && j - i <= 64 && dt__mt_local(AT(j))) j++;
    if (j == i || j - i > 64 || s[j - 1] == '.') return 0;
    size_t l = dt__mt_sep_arroba(s, n, j);
    if (l == 0) return 0;
    size_t d = j + l, m = 0;
    if (j - i + 2 > cap) return 0;
    memcpy(correo, s + i, j - i), m = j - i;
    correo[m++] = '@';
    size_t e = d, etiquetas = 0, punto = 0;
    for (;;) {
        size_t a = e;
        while (e < n && e - a < 64 && (dt__mt_alnum(AT(e)) || AT(e) == '-')) e++;
        if (e == a || m + (e - a) + 1 >= cap) return 0;
        memcpy(correo + m, s + a, e - a), m += e - a;
        etiquetas++;
        size_t p = dt__mt_sep_punto(s, n, e);
        if (p == 0 || (punto && p != punto) || !(dt__mt_alnum(AT(e + p)))) break;
        if (punto == 0) punto = p, *spa = e;
        correo[m++] = '.';
        e += p;
    }
    if (etiquetas < 2 || dt__mt_alnum(AT(e)) || AT(e) == '@') return 0;
    if (AT(j) == ' ' && AT(j + 1) != '[' && AT(j + 1) != '(' && AT(j + 1) != '{' && AT(j + 1) != '<') {
        /* a bare word for '@' ("con arroba y punto com"): a local part that is no everyday word and a
         * domain whose labels are two letters or more */
        static const char *const palabras[] = {"a", "al", "con", "de", "del", "el", "en", "es", "la", "las", "lo", "los",
                                               "o", "por", "que", "se", "sin", "su", "un", "una", "y", "at", "arroba"};
        char w[8];
        size_t lw = j - i;
        if (lw < sizeof w) {
            for (size_t x = 0; x < lw; x++) w[x] = (char)dt__mt_fold(AT(i + x));
            w[lw] = '\0';
            if (dt__mt_en_lista(w, palabras, sizeof palabras / sizeof palabras[0])) return 0;
        }
        for (size_t x = lw + 1, ini_l = x; x <= m; x++)
            if (x == m || correo[x] == '.') {
                if (x - ini_l < 2) return 0;
                ini_l = x + 1;
            }
    }
    if (dt__mc_email_falla(correo, 0, m) != NULL) return 0;
    *fin = e;
    *cn = m;
    *sa = j;
    *sb = d;
    *sp = punto;
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

/* The word before i, folded (a-z), after at most 6 bytes of ' ', ':', '#', '.', '°', 'º': into w (16
 * bytes); its length, or 0 when there is none or it is longer than 11 letters. *antes: the start of
 * that word. Reads at most 24 bytes back. */
static size_t dt__mt_palabra_antes(const char *s, size_t i, char *w, size_t *antes) {
    size_t j = i, k = 0;
    while (j > 0 && k < 6) {
        unsigned char c = (unsigned char)s[j - 1];
        if (c == ' ' || c == ':' || c == '#' || c == '.' || c == 0xB0 || c == 0xBA || c == 0xC2) j--, k++;
        else break;
    }
    size_t e = j;
    while (j > 0 && e - j < 12 && (dt__mt_let((unsigned char)s[j - 1]) || (unsigned char)s[j - 1] >= 0x80)) j--;
    if (e == j || e - j >= 12) return 0;
    char *f = dt__put_ascii_fold(w, s + j, e - j);
    *f = '\0';
    if (antes) *antes = j;
    return (size_t)(f - w);
}

/* The word before i names a product or part code (`SKU LB6709`, `modelo KC 2023`, `cód. 983984536`,
 * `N° de serie 912345678`, `ref. AB1234`): what follows is that code, not a plate, a phone or a RUT
 * without a dash (issue 48). */
static int dt__mt_etiqueta_codigo(const char *s, size_t i) {
    static const char *const cods[] = {"sku", "modelo", "mod", "cod", "codigo", "ref", "referencia", "serie", "art",
                                       "articulo", "item", "producto", "lote", "version", "parte", "pn", "sn"};
    char w[16];
    return dt__mt_palabra_antes(s, i, w, NULL) && dt__mt_en_lista(w, cods, sizeof cods / sizeof cods[0]);
}

/* The words before i name a number that is not a RUT written without its dash: a document's or a
 * code's (dt__mt_etiqueta_documento's and dt__mt_etiqueta_codigo's words), a shipment, a policy, a case,
 * an account ("cuenta 13097366": its body is found as the row's own, mascara_propios.c). */
static int dt__mt_etiqueta_no_rut(const char *s, size_t i) {
    static const char *const otras[] = {"folio", "boleta", "ticket", "orden", "compra", "factura", "pedido", "id",
                                        "codigo", "nro", "numero", "n", "no", "operacion", "transaccion", "cuenta",
                                        "cta", "seguimiento", "tracking", "envio", "guia", "despacho", "reserva",
                                        "poliza", "contrato", "solicitud", "caso", "reclamo", "siniestro", "expediente",
                                        "rol", "oc", "tarjeta", "cupon", "clave",
                                        "pin", "sku", "modelo", "mod", "cod", "ref", "referencia", "serie", "art",
                                        "articulo", "item", "producto", "lote", "version", "parte", "pn", "sn",
                                        "fono", "telefono", "tel", "cel", "celular", "movil", "whatsapp", "wsp", "fax"};
    char w[16];
    return dt__mt_palabra_antes(s, i, w, NULL) && dt__mt_en_lista(w, otras, sizeof otras / sizeof otras[0]);
}

/* The words before i are a CuentaRUT's label: `CuentaRUT`, `cuenta RUT`, `cta. RUT`, `Cuenta Rut N°`
 * (case aside). The number after it is a RUT body (the account is numbered by it). */
static int dt__mt_etiqueta_cuentarut(const char *s, size_t i) {
    char w[16];
    size_t a;
    size_t l = dt__mt_palabra_antes(s, i, w, &a);
    if (l == 1 && (w[0] == 'n') && a > 0) l = dt__mt_palabra_antes(s, a, w, &a); /* N° */
    if (l == 9 && strcmp(w, "cuentarut") == 0) return 1;
    if (l != 3 || strcmp(w, "rut") != 0 || a == 0 || s[a - 1] != ' ') return 0;
    l = dt__mt_palabra_antes(s, a, w, NULL);
    return (l == 6 && strcmp(w, "cuenta") == 0) || (l == 3 && strcmp(w, "cta") == 0);
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

/* The word before i names the identity document: `cédula`, `carnet`, `CI`, `C.I.` (case aside; then
 * ':', '#', '.', 'N°' between). After it a number is read as after a RUT label (issue 48). */
static int dt__mt_etiqueta_cedula(const char *s, size_t i) {
    { /* a cheap no: the last letter before the separators ends none of the words */
        size_t j = i;
        while (j > 0 && i - j < 8 && (s[j - 1] == ' ' || s[j - 1] == ':' || s[j - 1] == '#' || s[j - 1] == '.' || (unsigned char)s[j - 1] == 0xB0 ||
                                      (unsigned char)s[j - 1] == 0xBA || (unsigned char)s[j - 1] == 0xC2 || s[j - 1] == 'N'))
            j--;
        unsigned char u = j > 0 ? (unsigned char)(s[j - 1] | 0x20) : 0;
        if (u != 'a' && u != 't' && u != 'i') return 0;
    }
    char w[16];
    size_t a;
    size_t l = dt__mt_palabra_antes(s, i, w, &a);
    if (l == 1 && w[0] == 'n' && a > 0) l = dt__mt_palabra_antes(s, a, w, &a); /* N° */
    if ((l == 6 && (strcmp(w, "cedula") == 0 || strcmp(w, "carnet") == 0)) || (l == 2 && strcmp(w, "ci") == 0))
        return a == 0 || !dt__mt_let((unsigned char)s[a - 1]);
    /* C.I.: "i", a dot, "c" */
    return l == 1 && w[0] == 'i' && a >= 2 && s[a - 1] == '.' && (s[a - 2] | 0x20) == 'c' &&
           (a == 2 || !dt__mt_let((unsigned char)s[a - 3]));
}

/* A RUT at the digit i in the spellings dt__mt_rut does not take: its body (7 or 8 digits, dotted in
 * threes or not, or grouped by commas: `12,345,678`), then a dash with spaces around it (`12.345.678 -
 * 5`), a space (`12345678 5`) or nothing (`123456785`), then a check digit, nothing glued after. A check
 * digit after a dash or a label is taken whatever it is (a mistyped one: the body is still someone's);
 * after a bare space, after commas, or glued without a label it must be right. Glued without a label
 * (`178916998`, issue 48) the run must also be 8 or 9 digits, not 9 starting with 9 (a mobile: the
 * phone's), not a date YYYYMMDD, not after a document's, a code's, an account's or a phone's word,
 * nor before a currency. The normalised value (body as written, commas as dots, '-', the right check
 * digit; no dash when none was written) goes to dt_mascara_rut; *comas tells the caller to write the
 * output's dots back as commas. */
static int dt__mt_rut_libre(const char *s, size_t n, size_t i, size_t *fin, char *norm, size_t *nn, int *comas) {
    int etiqueta = -1; /* a label before it (dt__mt_etiqueta, _cedula): read when first needed */
#define DT__MT_ETIQUETA() (etiqueta < 0 ? (etiqueta = dt__mt_etiqueta(s, i) || dt__mt_etiqueta_cedula(s, i)) : etiqueta)
    size_t j = i, digitos = 0;
    unsigned char sep = 0;
    *comas = 0;
    for (; j < n && j - i < 11; j++) {
        unsigned char c = AT(j);
        if (dt__mt_dig(c)) {
            digitos++;
            continue;
        }
        if ((c == '.' || c == ',') && (sep == 0 || sep == c) && dt__mt_dig(AT(j + 1))) {
            sep = c;
            continue;
        }
        break;
    }
    if (sep == ',') {
        if (i >= 2 && s[i - 1] == ',' && dt__mt_dig((unsigned char)s[i - 2])) return 0; /* inside a longer number */
        *comas = 1;
    }
    size_t cuerpo_fin = j, e = 0, dvpos = 0;
    int guion = 0, desnudo = 0;
    if (digitos >= 7 && digitos <= 8) {
        size_t g = j;
        while (AT(g) == ' ' && g - j < 2) g++;
        size_t d = dt__mt_guion(s, n, g);
        if (d > 0) {
            size_t h = g + d;
            while (AT(h) == ' ' && h - (g + d) < 2) h++;
            if (dt__mt_dig(AT(h)) || AT(h) == 'k' || AT(h) == 'K') dvpos = h, guion = 1;
        } else if (g == j + 1 && !*comas && (dt__mt_dig(AT(g)) || AT(g) == 'k' || AT(g) == 'K')) {
            dvpos = g; /* one space */
        }
        if (dvpos) e = dvpos + 1;
    }
    if (!dvpos) {
        /* glued: an undotted run of 8 or 9 digits, the last one the check digit */
        if (j - i != digitos) return 0;
        if (AT(j) == 'k' || AT(j) == 'K') { /* 12345678K */
            if (digitos < 7 || digitos > 8) return 0;
            cuerpo_fin = j, dvpos = j, e = j + 1;
        } else {
            if (digitos < 8 || digitos > 9) return 0;
            cuerpo_fin = j - 1, dvpos = j - 1, e = j;
        }
        if (!DT__MT_ETIQUETA()) {
            if (digitos == 9 && AT(i) == '9' && AT(j) != 'k' && AT(j) != 'K') return 0; /* 9XXXXXXXX: a mobile */
            if ((AT(e) == '.' || AT(e) == ',') && dt__mt_dig(AT(e + 1))) return 0; /* 12345678,50: an amount */
            desnudo = 1;
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
    if ((!guion || *comas) && dt__mt_fold(AT(dvpos)) != dt__mt_fold((unsigned char)dv) && !DT__MT_ETIQUETA()) return 0;
    if (desnudo) { /* the cheap checks passed and the check digit is right: now the context */
        if (digitos == 8 && AT(dvpos) != 'k' && AT(dvpos) != 'K' && ((AT(i) == '1' && AT(i + 1) == '9') || (AT(i) == '2' && AT(i + 1) == '0'))) { /* 19YYMMDD, 20YYMMDD */
            unsigned mes = (unsigned)(AT(i + 4) - '0') * 10u + (unsigned)(AT(i + 5) - '0');
            unsigned dia = (unsigned)(AT(i + 6) - '0') * 10u + (unsigned)(AT(i + 7) - '0');
            if (mes >= 1 && mes <= 12 && dia >= 1 && dia <= 31) return 0;
        }
        if (dt__mt_etiqueta_no_rut(s, i)) return 0;
        { /* a currency after it: "12345678 pesos", "CLP", "USD", "UF" */
            size_t q = e;
            if (AT(q) == ' ') q++;
            char w[8];
            size_t r = q;
            while (r < n && r - q < 6 && dt__mt_let(AT(r))) w[r - q] = (char)dt__mt_fold(AT(r)), r++;
            w[r - q] = '\0';
            if (!dt__mt_let(AT(r)) && (strcmp(w, "pesos") == 0 || strcmp(w, "peso") == 0 || strcmp(w, "clp") == 0 ||
                                       strcmp(w, "usd") == 0 || strcmp(w, "uf") == 0 || strcmp(w, "dolares") == 0))
                return 0;
        }
    }
    for (size_t q = i; q < cuerpo_fin; q++) norm[m++] = AT(q) == ',' ? '.' : s[q];
    if (guion || dvpos > cuerpo_fin) norm[m++] = '-';
    norm[m++] = AT(dvpos) == 'k' && dv == 'K' ? 'k' : dv;
    if (dt_rut_validar(norm, m) != DT_OK) return 0; /* dots not in threes: a version, an index */
    *nn = m;
    *fin = e;
    return 1;
#undef DT__MT_ETIQUETA
}

/* A cheap no for dt__mt_cuentarut: the last letter before i (past ' ', ':', '#', '.', 'N°') is a 't'. */
static int dt__mt_antes_t(const char *s, size_t i) {
    size_t j = i, k = 0;
    while (j > 0 && k < 8) {
        unsigned char c = (unsigned char)s[j - 1];
        if (c == ' ' || c == ':' || c == '#' || c == '.' || c == 0xB0 || c == 0xBA || c == 0xC2) j--, k++;
        else if ((c == 'N' || c == 'n') && j >= 2 && s[j - 2] == ' ') j--, k++;
        else break;
    }
    return j > 0 && (s[j - 1] | 0x20) == 't';
}

/* A CuentaRUT number after its label (dt__mt_etiqueta_cuentarut) at the digit i: 7 or 8 digits, dotted
 * in threes or not, not followed by a dash (then it is a RUT, dt__mt_rut's) nor glued to a letter or
 * digit. Masked as the `derivado` rule masks a number (its body through the RUT permutation, in the
 * run's form: dotted if it was), so the note says what the account column says. */
static int dt__mt_cuentarut(const char *s, size_t n, size_t i, size_t *fin) {
    size_t j = i, digitos = 0;
    for (; j < n && j - i < 11 && (dt__mt_dig(AT(j)) || (AT(j) == '.' && dt__mt_dig(AT(j + 1)))); j++) digitos += dt__mt_dig(AT(j));
    if (digitos < 7 || digitos > 8 || dt__mt_alnum(AT(j))) return 0;
    size_t g = j;
    while (AT(g) == ' ' && g - j < 2) g++;
    if (dt__mt_guion(s, n, g)) return 0;
    uint32_t cuerpo;
    if (dt__mp_cuerpo_de(s + i, j - i, &cuerpo) != 0 || cuerpo < 1000000u) return 0;
    if (!dt__mt_etiqueta_cuentarut(s, i)) return 0;
    *fin = j;
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
    char correo[320];
    int correo_usado = 0; /* correo held an address: wipe it at the end */
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
        size_t ini = i, fin = 0, nn = 0, sa = 0, sb = 0, sp = 0, spa = 0;
        int forma = 0, comas = 0; /* write the rule's output back in the span's shape (plates with inner separators) */
        dt_status (*f)(const dt_mascara_clave *, const char *, size_t, char *, size_t, size_t *, char *, size_t) = NULL;
        /* no digit before a number, nor a digit and a '.' or '-' (a longer number), nor a '$' (an amount) */
        int borde_num = !dt__mt_dig(p) && !((p == '.' || p == '-') && dt__mt_dig(pp)) && p != '$' && !(p == ' ' && pp == '$');
        if ((buscar & DT_MASCARA_BUSCAR_EMAIL) && arroba < n && arroba - i <= 66 && dt__mt_local(c) && !dt__mt_local(p) &&
            dt__mt_email(s, n, i, &ini, &fin))
            f = dt_mascara_email;
        else if ((buscar & DT_MASCARA_BUSCAR_EMAIL) && (c == ' ' || c == '[' || c == '(' || c == '{' || c == '<' || c == '@') &&
                 ((AT(i + 1) | 0x20) == 'a' || AT(i + 1) == '@' || AT(i + 1) == ' ' || AT(i + 1) == '[' || AT(i + 1) == '(' ||
                  AT(i + 1) == '{' || AT(i + 1) == '<') &&
                 dt__mt_arroba_escrita(s, n, i, hecho, &ini) &&
                 (correo_usado = 1) && dt__mt_email_escrito(s, n, ini, &fin, correo, sizeof correo, &nn, &sa, &sb, &sp, &spa)) {
            /* the masked address written in the note's shape: its local part, the note's separator for
             * '@', its domain with the note's separator for '.' */
            size_t m = 0;
            if (dt_mascara_email(k, correo, nn, t, sizeof t, &m, NULL, 0) == DT_OK) {
                const char *at = memchr(t, '@', m);
                size_t la = at ? (size_t)(at - t) : m;
                dt__mt_put(&o, s + hecho, ini - hecho);
                dt__mt_put(&o, t, la);
                dt__mt_put(&o, s + sa, sb - sa);
                for (size_t q = la + 1; q < m; q++) {
                    if (t[q] == '.' && sp > 1) dt__mt_put(&o, s + spa, sp);
                    else dt__mt_put(&o, t + q, 1);
                }
                hecho = i = fin;
                continue;
            }
            i++;
            continue;
        } else if ((buscar & DT_MASCARA_BUSCAR_RUT) && dt__mt_dig(c) && borde_num && dt__mt_antes_t(s, i) && dt__mt_cuentarut(s, n, i, &fin)) {
            /* a CuentaRUT number: as the derivado rule masks it */
            char u[96];
            size_t m = 0;
            const char *pq = NULL;
            if (fin - i <= 11 && dt__mp_derivado(k, s + i, fin - i, 0, 0, u, &m, &pq) == 0) {
                dt__mt_put(&o, s + hecho, i - hecho);
                dt__mt_put(&o, u, m);
                dt__borrar(u, sizeof u);
                hecho = i = fin;
                continue;
            }
            i++;
            continue;
        } else if ((buscar & DT_MASCARA_BUSCAR_RUT) && dt__mt_dig(c) && borde_num && dt__mt_rut(s, n, i, &fin))
            f = dt_mascara_rut;
        else if ((buscar & DT_MASCARA_BUSCAR_RUT) && dt__mt_dig(c) && borde_num &&
                 dt__mt_rut_libre(s, n, i, &fin, norm, &nn, &comas))
            f = dt_mascara_rut;
        else if ((buscar & DT_MASCARA_BUSCAR_TELEFONO) && (c == '+' || c == '(' || c == '9') && !dt__mt_alnum(p) &&
                 p != '+' && borde_num && dt__mt_telefono(s, n, i, &fin) && (c == '+' || !dt__mt_etiqueta_codigo(s, i)))
            f = dt__mc_telefono_texto;
        else if ((buscar & DT_MASCARA_BUSCAR_TELEFONO) && (c == '(' || dt__mt_dig(c)) && !dt__mt_alnum(p) && p != '+' &&
                 borde_num && dt__mt_telefono_libre(s, n, i, &fin) && !dt__mt_etiqueta_codigo(s, i))
            f = dt__mc_telefono_texto;
        else if ((buscar & DT_MASCARA_BUSCAR_PATENTE) && dt__mt_let(c) && !dt__mt_alnum(p) && dt__mt_patente(s, n, i, &fin) &&
                 !dt__mt_etiqueta_codigo(s, i))
            f = dt_mascara_patente;
        else if ((buscar & DT_MASCARA_BUSCAR_PATENTE) && dt__mt_let(c) && !dt__mt_alnum(p) && dt__mt_let(AT(i + 1)) &&
                 !(dt__mt_let(AT(i + 2)) && dt__mt_let(AT(i + 3)) && dt__mt_let(AT(i + 4))) && /* 2 to 4 letters */
                 dt__mt_patente_libre(s, n, i, &fin, norm, &nn) && !dt__mt_etiqueta_codigo(s, i))
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
            if (comas && f == dt_mascara_rut)
                for (size_t q = 0; q < m; q++)
                    if (t[q] == '.') t[q] = ','; /* 12,345,678-5 is written back with commas */
            dt__mt_put(&o, t, m);
        }
        hecho = i = fin;
    }
    dt__mt_put(&o, s + hecho, n - hecho);
    dt__borrar(t, sizeof t);
    dt__borrar(norm, sizeof norm);
    if (correo_usado) dt__borrar(correo, sizeof correo);
    dt__borrar(prosa, usado_prosa);
    if (out_len) *out_len = o.n;
    if (o.n + 1 > cap) {
        if (cap > 0) buf[0] = '\0';
        return DT_ERR_BUFFER_TOO_SMALL;
    }
    buf[o.n] = '\0';
    return DT_OK;
}
