/* detectar: what kind of Chilean personal data a value looks like, so `datoteca detectar` can propose
 * masking rules for the columns a user forgot (docs/enmascarar.md). A pure function of the text and
 * the reference tables: no instance, no stream, thread-safe (the tables are read, never built). */
#include <string.h>

#include "internal.h"
#include "nucleo/calendario.h"
#include "ref/tablas.gen.h"

/* ---- normalising a word: the library's ASCII fold (á → a, ñ → n, upper case lowered) ---- */

/* One word's normal form at out (NUL-terminated, at most cap - 1 bytes): dt__put_ascii_fold of a word
 * of letters (ASCII, or the two-byte Latin ones, C3 xx), apostrophes and hyphens (D'Alessandro,
 * Pérez-Cotapos; the fold drops those two); 0 when the word holds anything else. */
static int dt__normal(const char *s, size_t n, char *out, size_t cap) {
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == 0xC3 && i + 1 < n) i++;
        else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '\'' || c == '-')) return 0;
    }
    if (n >= cap) return 0; /* the fold writes at most one byte per byte read */
    char *fin = dt__put_ascii_fold(out, s, n);
    *fin = '\0';
    return fin > out;
}

/* The kinds of a folded word (1 a woman's given name, 2 a man's, 4 a surname; 0 none): binary search
 * in the generated sorted index, within the bucket of its first two letters. */
static unsigned dt__clase_normal(const char *p) {
    if (p[0] < 'a' || p[0] > 'z' || p[1] < 'a' || p[1] > 'z') return 0;
    size_t b = (size_t)(p[0] - 'a') * 26 + (size_t)(p[1] - 'a');
    size_t lo = dt_t_palabras_nombre_cubo[b], hi = dt_t_palabras_nombre_cubo[b + 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *w = dt_t_palabras_nombre[mid].s; /* the bucket fixed two letters: from the third */
        int c = p[2] != w[2] ? (unsigned char)p[2] - (unsigned char)w[2] : strcmp(p + 2, w + 2);
        if (c == 0) return dt_t_palabras_nombre[mid].clase;
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return 0;
}

unsigned dt__nombre_palabra(const char *s, size_t n) {
    char p[64];
    if (n < 3 || n > 30) return 0; /* every name folds to 3 letters or more */
    unsigned char a = (unsigned char)(s[0] | 0x20), b = (unsigned char)(s[1] | 0x20), c = (unsigned char)(s[2] | 0x20);
    if (a >= 'a' && a <= 'z' && b >= 'a' && b <= 'z' && c >= 'a' && c <= 'z') { /* ASCII: one bit says no before folding */
        size_t q = ((size_t)(a - 'a') * 26 + (size_t)(b - 'a')) * 26 + (size_t)(c - 'a');
        if (!(dt_t_palabras_nombre_tri[q >> 3] >> (q & 7) & 1u)) return 0;
    }
    if (!dt__normal(s, n, p, sizeof p)) return 0;
    return dt__clase_normal(p);
}

static int dt__es_nombre(const char *p) { return (dt__clase_normal(p) & 3u) != 0; }
static int dt__es_apellido(const char *p) { return (dt__clase_normal(p) & 4u) != 0; }

/* A comuna by its name, whole (spaces kept, case and accents not): its index in dt_t_comunas, or -1. */
long dt__comuna_indice(const char *s, size_t n) {
    char v[96];
    size_t k = 0;
    for (size_t i = 0; i < n;) { /* word by word, one space between */
        while (i < n && s[i] == ' ') i++;
        size_t j = i;
        while (j < n && s[j] != ' ') j++;
        if (j == i) break;
        if (k && k + 1 < sizeof v) v[k++] = ' ';
        if (!dt__normal(s + i, j - i, v + k, sizeof v - k)) return -1;
        k += strlen(v + k);
        i = j;
    }
    if (k == 0) return -1;
    for (size_t c = 0; c < DT_T_N_COMUNAS; c++) {
        const dt_t_str *nm = &dt_t_comunas[c].nombre;
        /* the name's first letter alone folded first: most comunas are left before their whole name is
         * folded (the folds were most of detectar's time) */
        char f[4];
        size_t l0 = (unsigned char)nm->s[0] >= 0x80 && nm->n > 1 ? 2 : 1;
        if (dt__put_ascii_fold(f, nm->s, l0) == f) continue;
        if ((f[0] >= 'A' && f[0] <= 'Z' ? f[0] + 32 : f[0]) != v[0]) continue;
        char w[96];
        size_t m = 0;
        int ok = 1;
        for (size_t i = 0; i < nm->n && ok;) {
            size_t j = i;
            while (j < nm->n && nm->s[j] != ' ') j++;
            if (m && m + 1 < sizeof w) w[m++] = ' ';
            ok = dt__normal(nm->s + i, j - i, w + m, sizeof w - m);
            m += ok ? strlen(w + m) : 0;
            i = j + 1;
        }
        if (ok && m == k && memcmp(v, w, k) == 0) return (long)c;
    }
    return -1;
}

static int dt__es_comuna(const char *s, size_t n) { return dt__comuna_indice(s, n) >= 0; }

/* ---- the kinds ---- */

static int dt__digito(char c) { return c >= '0' && c <= '9'; }

/* A Chilean phone as people write it: +56 or 56 (or a trunk 0), then a mobile 9 + 8 digits, Santiago's
 * 2 + 8, or an area code of a comuna + 7; spaces, dashes, dots and parentheses between. */
static int dt__es_telefono(const char *s, size_t n) {
    char d[20];
    size_t k = 0, i = 0;
    int mas = 0;
    while (i < n && s[i] == ' ') i++;
    if (i < n && s[i] == '+') {
        mas = 1;
        i++;
    }
    for (; i < n; i++) {
        char c = s[i];
        if (dt__digito(c)) {
            if (k == sizeof d) return 0;
            d[k++] = c;
        } else if (c != ' ' && c != '-' && c != '.' && c != '(' && c != ')') {
            return 0;
        }
    }
    size_t o = 0;
    if (k >= 11 && d[0] == '5' && d[1] == '6') o = 2;
    else if (mas) return 0;
    else if (k == 10 && d[0] == '0') o = 1; /* the trunk 0 of before 2016 */
    size_t r = k - o;
    if (r != 9) return 0;
    if (d[o] == '9' || d[o] == '2') return 1;
    unsigned area = (unsigned)(d[o] - '0') * 10 + (unsigned)(d[o + 1] - '0');
    for (size_t c = 0; c < DT_T_N_COMUNAS; c++)
        if (dt_t_comunas[c].area == area) return 1;
    return 0;
}

static int dt__es_email(const char *s, size_t n) {
    const char *a = memchr(s, '@', n);
    if (a == NULL || a == s || memchr(a + 1, '@', n - (size_t)(a + 1 - s))) return 0;
    for (const char *p = s; p < a; p++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || dt__digito(c) || c == '.' || c == '_' || c == '-' || c == '+' || c == '%'))
            return 0;
    }
    const char *dom = a + 1, *fin = s + n, *punto = NULL;
    if (dom == fin || *dom == '.' || fin[-1] == '.') return 0;
    for (const char *p = dom; p < fin; p++) {
        char c = *p;
        if (c == '.') {
            if (p[-1] == '.') return 0;
            punto = p;
        } else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || dt__digito(c) || c == '-')) {
            return 0;
        }
    }
    if (punto == NULL || fin - punto - 1 < 2) return 0;
    for (const char *p = punto + 1; p < fin; p++)
        if (dt__digito(*p) || *p == '-') return 0; /* a top-level domain is letters */
    return 1;
}

/* A real day from 1900 to 2200 written year first (YYYY-MM-DD, YYYY/MM/DD, YYYY.MM.DD) or day first
 * (DD-MM-YYYY, DD/MM/YYYY, DD.MM.YYYY), one separator throughout, the day and month of one or two
 * digits (1957/8/9, 9.8.1957). */
static int dt__es_fecha(const char *s, size_t n) {
    int p[3] = {0, 0, 0}, w[3] = {0, 0, 0}, k = 0;
    char sep = 0;
    if (n < 8 || n > 10) return 0;
    for (size_t i = 0; i < n; i++) {
        if (dt__digito(s[i])) {
            if (++w[k] > 4) return 0;
            p[k] = p[k] * 10 + (s[i] - '0');
        } else if ((s[i] == '-' || s[i] == '/' || s[i] == '.') && (sep == 0 || s[i] == sep) && k < 2 && w[k] > 0) {
            sep = s[i];
            k++;
        } else {
            return 0;
        }
    }
    if (k != 2 || w[1] > 2) return 0;
    if (w[0] == 4 && w[2] <= 2) return dt__fecha_valida(p[0], p[1], p[2]);
    if (w[2] == 4 && w[0] <= 2) return dt__fecha_valida(p[2], p[1], p[0]);
    return 0;
}

static int dt__es_rut(const char *s, size_t n, int estricto) {
    if (dt_rut_validar(s, n) != DT_OK) return 0;
    /* digits alone may as well be a phone or a count: a RUT column writes its dash or dots */
    return !estricto || memchr(s, '-', n) || memchr(s, '.', n);
}

/* Words of letters (and the particles de, del, la, los): one given name; one surname; 2 or 3 words
 * each a given name (a nombres column: "José Tomás"); 2 to 6 words with a surname that is not also
 * a given name, or with surnames and names mixed: a full name. */
static const char *dt__nombres(const char *s, size_t n) {
    size_t palabras = 0, nombres = 0, apellidos = 0, solo_apellidos = 0;
    for (size_t i = 0; i < n;) {
        while (i < n && s[i] == ' ') i++;
        size_t j = i;
        while (j < n && s[j] != ' ') j++;
        if (j == i) break;
        char p[64];
        if (!dt__normal(s + i, j - i, p, sizeof p)) return NULL;
        i = j;
        if (strcmp(p, "de") == 0 || strcmp(p, "del") == 0 || strcmp(p, "la") == 0 || strcmp(p, "los") == 0) continue;
        palabras++;
        int nom = dt__es_nombre(p), ape = dt__es_apellido(p);
        if (!nom && !ape) return NULL;
        nombres += nom;
        apellidos += ape;
        solo_apellidos += ape && !nom;
    }
    if (palabras == 1) return nombres ? "nombre" : "apellido";
    if (palabras == 0 || palabras > 6) return NULL;
    if (solo_apellidos == 0 && palabras <= 3) return "nombre";
    return apellidos ? "nombre_completo" : NULL;
}

/* A text that holds, among its words, a RUT with a valid check digit (dots or not), an email or a
 * phone number. */
static int dt__texto_con_datos(const char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        while (i < n && (s[i] == ' ' || s[i] == ',' || s[i] == ';' || s[i] == ':' || s[i] == '(' || s[i] == ')' || s[i] == '\n'))
            i++;
        size_t j = i;
        while (j < n && s[j] != ' ' && s[j] != ',' && s[j] != ';' && s[j] != '(' && s[j] != ')' && s[j] != '\n') j++;
        size_t f = j;
        while (f > i && (s[f - 1] == '.' || s[f - 1] == ':')) f--; /* a sentence's full stop */
        if (f > i && (dt__es_rut(s + i, f - i, 1) || dt__es_email(s + i, f - i))) return 1;
        i = j;
    }
    /* a phone: a run of digits, spaces, +, dashes and parentheses with 9 or more digits */
    for (size_t i = 0; i < n; i++) {
        if (!(dt__digito(s[i]) || s[i] == '+')) continue;
        size_t j = i, digitos = 0;
        while (j < n && (dt__digito(s[j]) || s[j] == ' ' || s[j] == '+' || s[j] == '-' || s[j] == '(' || s[j] == ')')) {
            digitos += dt__digito(s[j]);
            j++;
        }
        while (j > i && !dt__digito(s[j - 1])) j--;
        if (digitos >= 9 && dt__es_telefono(s + i, j - i)) return 1;
        i = j;
    }
    return 0;
}

const char *dt__detectar(const char *s, size_t n) {
    while (n && s[0] == ' ') s++, n--;
    while (n && s[n - 1] == ' ') n--;
    if (n == 0 || n > 4096) return "";
    if (dt__es_rut(s, n, 1)) return "rut";
    if (dt__es_email(s, n)) return "email";
    if (dt__es_telefono(s, n)) return "telefono";
    if (dt__es_rut(s, n, 0)) return "rut";
    if (dt_patente_leer(s, n, NULL, NULL) == DT_OK) return "patente";
    if (dt__es_fecha(s, n)) return "fecha";
    if (dt__es_comuna(s, n)) return "comuna";
    const char *nom = dt__nombres(s, n);
    if (nom) return nom;
    if (dt__texto_con_datos(s, n)) return "texto";
    return "";
}

/* ---- signals for the rules' proposal (c/src/mascara/detector.c) ---- */

static int dt__letra(const char *s, size_t i, size_t n) {
    unsigned char c = (unsigned char)s[i];
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c == 0xC3 && i + 1 < n);
}
static int dt__mayuscula(const char *s, size_t i, size_t n) {
    unsigned char c = (unsigned char)s[i];
    return (c >= 'A' && c <= 'Z') || (c == 0xC3 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9E);
}

/* A capitalised given name followed by a capitalised surname ("Guillermo Alarcón (esposa)"), or an
 * honorific (Sr., Sra., Srta., don, doña) followed by a capitalised name or surname. Case decides, so
 * the words those names also are ("la rosa", "en paz") are not names. */
static int dt__tiene_nombre(const char *s, size_t n) {
    int hay = 0, tit = 0; /* words seen (at most the last two kept), the last word an honorific */
    int nom_prev = 0;     /* the previous word a capitalised given name, with one space between */
    size_t fin_prev = 0;
    for (size_t i = 0; i < n;) {
        if (!dt__letra(s, i, n)) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < n && (dt__letra(s, j, n) || s[j] == '\'')) j += (unsigned char)s[j] == 0xC3 ? 2 : 1;
        if (j > n) j = n;
        char p[64];
        int cap = dt__mayuscula(s, i, n), norm = dt__normal(s + i, j - i, p, sizeof p);
        int junto = hay && (i == fin_prev + 1 || (i == fin_prev + 2 && s[fin_prev] == '.')) && s[i - 1] == ' ';
        int nom = cap && norm && dt__es_nombre(p);
        if (junto && cap && norm && (nom_prev || tit) && (dt__es_apellido(p) || (tit && nom))) return 1;
        tit = norm && (strcmp(p, "sr") == 0 || strcmp(p, "sra") == 0 || strcmp(p, "srta") == 0 || strcmp(p, "don") == 0 ||
                       strcmp(p, "dona") == 0);
        nom_prev = nom;
        hay = 1;
        fin_prev = j;
        i = j;
    }
    return 0;
}

unsigned dt__detectar_senales(const char *s, size_t n) {
    unsigned r = 0;
    size_t palabras = 0;
    if (n == 0 || n > 4096) return 0;
    for (size_t i = 0; i < n;) { /* runs of digits (dots between digits) and words of letters */
        if (dt__digito(s[i])) {
            size_t j = i, d = 0;
            while (j < n && (dt__digito(s[j]) || (s[j] == '.' && j + 1 < n && dt__digito(s[j + 1])))) d += dt__digito(s[j++]);
            if (d >= 7) r |= DT__SENAL_DIGITOS;
            i = j;
        } else if (dt__letra(s, i, n) && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\n' || s[i - 1] == '(')) {
            size_t j = i; /* a word: letters after a space, as prose has (an email's parts are not words) */
            while (j < n && dt__letra(s, j, n)) j += (unsigned char)s[j] == 0xC3 ? 2 : 1;
            palabras += j - i >= 2 && (j >= n || s[j] == ' ' || s[j] == ',' || s[j] == '.' || s[j] == ';' || s[j] == ':' || s[j] == ')' || s[j] == '\n');
            i = j;
        } else {
            i++;
        }
    }
    if (palabras >= 4) r |= DT__SENAL_PROSA;
    for (size_t i = 0; i < n;) { /* tokens between spaces and punctuation: a date or a plate among them */
        while (i < n && (s[i] == ' ' || s[i] == ',' || s[i] == ';' || s[i] == '(' || s[i] == ')' || s[i] == '\n')) i++;
        size_t j = i;
        while (j < n && s[j] != ' ' && s[j] != ',' && s[j] != ';' && s[j] != '(' && s[j] != ')' && s[j] != '\n') j++;
        size_t f = j;
        while (f > i && (s[f - 1] == '.' || s[f - 1] == ':')) f--;
        if (f > i && dt__es_fecha(s + i, f - i)) r |= DT__SENAL_FECHA;
        if (f > i && dt__digito(s[f - 1]) && dt_patente_leer(s + i, f - i, NULL, NULL) == DT_OK) r |= DT__SENAL_DATO;
        i = j;
    }
    if (dt__texto_con_datos(s, n)) r |= DT__SENAL_DATO;
    if (dt__tiene_nombre(s, n)) r |= DT__SENAL_NOMBRE;
    return r;
}

int dt__parece_dato(const char *s, size_t n) {
    while (n && (s[0] == ' ' || s[0] == '\t')) s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
    if (n == 0) return 0;
    size_t i = s[0] == '-' || s[0] == '+' ? 1 : 0, digitos = 0;
    for (size_t j = i; j < n; j++) {
        if (dt__digito(s[j])) digitos++;
        else if (s[j] != '.' && s[j] != ',') {
            digitos = 0;
            break;
        }
    }
    if (digitos > 0) return 1; /* a number: a name is not written as one */
    /* a single word that is also a comuna, a given name or a surname (Nacimiento, Rosa, Soto) may well
     * be a column's name: only the kinds no name is written as count */
    const char *k = dt__detectar(s, n);
    if (*k && strcmp(k, "comuna") != 0 && strcmp(k, "nombre") != 0 && strcmp(k, "apellido") != 0) return 1;
    return (dt__detectar_senales(s, n) & (DT__SENAL_NOMBRE | DT__SENAL_FECHA | DT__SENAL_DATO)) != 0;
}

dt_status dt__util_detectar(const char *s, size_t n, const int64_t *a, char *p, char **end) {
    (void)a;
    const char *k = s ? dt__detectar(s, n) : "";
    *end = dt__put(p, k, strlen(k));
    return DT_OK;
}
