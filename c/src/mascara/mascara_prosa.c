/* Free text, the prose part (docs/enmascarar.md, "Names in texto"): a person's name in a note found
 * by the library's own given-name and surname tables (the sorted index dt__nombre_palabra reads, the
 * one `detectar` uses) and replaced by a fake name of the same shape, keyed by each word. Only where
 * the words say "a name": an honorific before them (`Sr.`, `doña`), or two or more name words in a
 * row written as names are (capitals, or all capitals), or in lower case two with a surname and a
 * given name that is not also an everyday word (`francisco flores`, not `rosa flores` nor `campos flores`). Linear: each call reads a
 * bounded number of words from a word start. */
#include "internal.h"
#include "mascara/mascara.h"
#include "ref/tablas.gen.h"

#define AT(i) ((i) < n ? (unsigned char)s[i] : 0u)

static int dt__mp_ascii_may(unsigned char c) { return c >= 'A' && c <= 'Z'; }
static int dt__mp_ascii_min(unsigned char c) { return c >= 'a' && c <= 'z'; }

/* A letter at i (ASCII, or the two-byte Latin-1 letters C3 80..BF but × and ÷): its length, else 0. */
static size_t dt__mp_letra(const char *s, size_t n, size_t i) {
    unsigned char c = AT(i);
    if (dt__mp_ascii_may(c) || dt__mp_ascii_min(c)) return 1;
    if (c == 0xC3 && AT(i + 1) >= 0x80 && AT(i + 1) <= 0xBF && AT(i + 1) != 0x97 && AT(i + 1) != 0xB7) return 2;
    return 0;
}
/* Whether the letter at i is a capital; bounded by n like every read here (a note may end in the
 * first byte of a two-byte letter: the fuzzer found it). */
static int dt__mp_es_may(const char *s, size_t n, size_t i) {
    unsigned char c = AT(i);
    return dt__mp_ascii_may(c) || (c == 0xC3 && i + 1 < n && AT(i + 1) < 0xA0);
}

/* The end of the word of letters starting at i (an apostrophe or a hyphen inside between letters). */
static size_t dt__mp_palabra(const char *s, size_t n, size_t i) {
    size_t j = i, lim = i + 40 < n ? i + 40 : n;
    for (;;) {
        while (j < lim) {
            unsigned char c = (unsigned char)s[j];
            if ((unsigned)((c | 0x20) - 'a') < 26u) j++;
            else if (c == 0xC3 && j + 1 < n && (unsigned char)s[j + 1] >= 0x80 && (unsigned char)s[j + 1] <= 0xBF &&
                     (unsigned char)s[j + 1] != 0x97 && (unsigned char)s[j + 1] != 0xB7)
                j += 2;
            else break;
        }
        if ((AT(j) == '-' || AT(j) == '\'') && j > i && dt__mp_letra(s, n, j + 1)) {
            j++;
            continue;
        }
        return j;
    }
}

enum { DT__MP_CAP = 1, DT__MP_MAY = 2, DT__MP_MIN = 3, DT__MP_OTRA = 0 };

/* How the word [a, b) is written: Capitalised, ALL CAPITALS (two letters or more), lower case (its
 * letters read up to b, the word's own end). */
static int dt__mp_forma(const char *s, size_t a, size_t b) {
    size_t may = 0, min = 0, letras = 0;
    int primera = dt__mp_es_may(s, b, a);
    for (size_t i = a; i < b;) {
        unsigned char c = (unsigned char)s[i];
        if (c == '-' || c == '\'') {
            i++;
            continue;
        }
        int m = dt__mp_es_may(s, b, i);
        may += m, min += !m, letras++;
        i += c == 0xC3 ? 2 : 1;
    }
    if (min == letras) return DT__MP_MIN;
    if (may == letras && letras >= 2) return DT__MP_MAY;
    if (primera && may == 1) return DT__MP_CAP;
    return DT__MP_OTRA;
}

/* The word folded into out (a-z only), or 0 when it does not fold to 1..15 letters. */
static size_t dt__mp_plegar(const char *s, size_t a, size_t b, char *out) {
    if (b - a > 30) return 0;
    char *f = dt__put_ascii_fold(out, s + a, b - a);
    *f = '\0';
    size_t m = (size_t)(f - out);
    return m >= 1 && m <= 15 ? m : 0;
}

static int dt__mp_en(const char *w, const char *const *lista, size_t nl) {
    for (size_t i = 0; i < nl; i++)
        if (w[0] == lista[i][0] && strcmp(w, lista[i]) == 0) return 1;
    return 0;
}

static const char *const dt__mp_particulas[] = {"de", "del", "la", "las", "los", "san", "santa"};
static const char *const dt__mp_honorificos[] = {"sr", "sra", "srta", "srita", "don", "dona", "dr", "dra", "senor", "senora", "senorita"};
/* Given names and surnames that are also everyday words: never a name in lower case without an
 * honorific (in capitals, two in a row still are: "Rosa Soto"). */
static const char *const dt__mp_comunes[] = {
    "alegria", "amparo", "angeles", "blanca", "bravo", "campos", "castillo", "consuelo", "cruz", "dolores", "esperanza",
    "flor", "flores", "fuentes", "gloria", "guerra", "leal", "leon", "lobos", "luz", "mar", "mercedes", "molina",
    "montes", "mora", "nieves", "parra", "paz", "pena", "pilar", "pinto", "prado", "ramos", "reyes", "rios", "rocio",
    "rosa", "rosas", "rosario", "salas", "santos", "sierra", "sol", "soledad", "soto", "toro", "torres", "valle",
    "vega", "victoria", "franco", "cuevas", "carrasco", "cabrera", "navarro", "rivera", "miranda", "castro", "medina"};
#define NL(a) (sizeof(a) / sizeof((a)[0]))

/* A word of a name: given-name bits (1 woman, 2 man), surname bit 4; an initial ("J.") is kind 8. */
typedef struct dt__mp_tok {
    size_t a, b; /* the word (an initial: its letter) */
    unsigned clase;
    int forma;
    int particula;
    char pl[16];
} dt__mp_tok;

#define DT__MP_MAX 8

/* The fake word for a name word: an entry of the given names of its sex, or of the surnames, picked by
 * SipHash-2-4 under the sustituir subkey of "\0nombre\0", the kind ('f', 'm', 's') and the folded
 * word; never the word itself, never a surname of two words. Written in the word's shape. */
static size_t dt__mp_falso(const dt_mascara_clave *k, const dt__mp_tok *t, char tipo, char *out) {
    uint8_t clave[16], msg[32];
    for (int i = 0; i < 8; i++) {
        clave[i] = (uint8_t)(k->sustituir[0] >> (8 * i));
        clave[8 + i] = (uint8_t)(k->sustituir[1] >> (8 * i));
    }
    size_t lm = 0, lp = strlen(t->pl);
    memcpy(msg, "\0nombre\0", 8), lm = 8;
    msg[lm++] = (uint8_t)tipo;
    memcpy(msg + lm, t->pl, lp), lm += lp;
    uint64_t h = dt__siphash24(clave, msg, lm);
    dt__borrar(clave, sizeof clave);
    const dt_t_slot *tabla = tipo == 'f' ? dt_t_nombres_f : tipo == 'm' ? dt_t_nombres_m : dt_t_apellidos;
    const uint8_t *largos = tipo == 'f' ? dt_t_nombres_f_len : tipo == 'm' ? dt_t_nombres_m_len : dt_t_apellidos_len;
    size_t x = (size_t)(h % 500u), m = 0;
    for (int intento = 0; intento < 500; intento++, x = (x + 1) % 500u) {
        const char *w = tabla[x].s;
        m = largos[x];
        char f[32];
        if (memchr(w, ' ', m) != NULL || m > 7 * (t->b - t->a)) continue; /* one word; texto's 7x bound */
        char *e = dt__put_ascii_fold(f, w, m);
        *e = '\0';
        if (strcmp(f, t->pl) == 0) continue;
        break;
    }
    memcpy(out, tabla[x].s, m);
    for (size_t i = 0; i < m; i++) { /* the word's shape: the table's words are Capitalised */
        unsigned char c = (unsigned char)out[i];
        if (t->forma == DT__MP_MAY) {
            if (dt__mp_ascii_min(c)) out[i] = (char)(c - 32);
            else if (c == 0xC3 && (unsigned char)out[i + 1] >= 0xA0 && (unsigned char)out[i + 1] != 0xB7) out[i + 1] = (char)(out[i + 1] - 0x20);
        } else if (t->forma == DT__MP_MIN) {
            if (dt__mp_ascii_may(c)) out[i] = (char)(c + 32);
            else if (c == 0xC3 && (unsigned char)out[i + 1] < 0xA0 && (unsigned char)out[i + 1] != 0x97) out[i + 1] = (char)(out[i + 1] + 0x20);
        }
        if (c == 0xC3) i++;
    }
    return m;
}

/* A comuna of the library's table (dt_t_comunas: `Pedro Aguirre Cerda`, `San Pedro de la Paz`, `Padre
 * Las Casas`) written as whole words (ASCII and Latin-1 case aside) from a word start at or up to three
 * words before a, and reaching `hasta` (the name's end) or past it: its end, else 0. Called only where a name was found (issue 48: a
 * comuna named after a person is a place). The earlier words are tried only while they are written as
 * a's (capitalised or not). */
static size_t dt__mp_comuna(const char *s, size_t n, size_t a, size_t hasta) {
    size_t inicios[4], ni = 0, q = a;
    inicios[ni++] = a;
    while (ni < 4 && q >= 2 && s[q - 1] == ' ') {
        size_t r = q - 1;
        while (r > 0 && s[r - 1] != ' ' && a - r < 48) r--;
        if (r == q - 1 || a - r >= 48) break;
        if (dt__mp_es_may(s, n, r) != dt__mp_es_may(s, n, a)) break; /* `en San Pedro de la Paz`: "en" starts none */
        inicios[ni++] = r;
        q = r;
    }
    size_t mejor = 0;
    for (size_t w = 0; w < ni; w++) {
        size_t st = inicios[w];
        if (st > 0 && dt__mp_letra(s, n, st - 1)) continue;
        unsigned char c0 = (unsigned char)(AT(st) | 0x20);
        for (size_t e = 0; e < DT_T_N_COMUNAS; e++) {
            const dt_t_str *c = &dt_t_comunas[e].nombre;
            if (st + c->n < hasta || ((unsigned char)c->s[0] | 0x20) != c0 || st + c->n > n) continue;
            size_t r = 0;
            while (r < c->n && ((unsigned char)c->s[r] == AT(st + r) ||
                                (dt__mp_ascii_may((unsigned char)c->s[r] & 0xDF) && ((unsigned char)c->s[r] | 0x20) == (AT(st + r) | 0x20)) ||
                                (r > 0 && (unsigned char)c->s[r - 1] == 0xC3 && AT(st + r - 1) == 0xC3 && (unsigned char)c->s[r] >= 0x80 &&
                                 ((unsigned char)c->s[r] | 0x20) == (AT(st + r) | 0x20)))) /* Í, í */
                r++;
            if (r != c->n || dt__mp_letra(s, n, st + r) || st + r <= mejor || memchr(c->s, ' ', c->n) == NULL) continue; /* one word: no name alone */
            /* two words that are a person's name too (`Juan Fernández`, `María Pinto`): a place only after
             * a place's word (`en`, `comuna`, `sucursal`...) */
            const char *sp = memchr(c->s, ' ', c->n);
            if (sp != NULL && memchr(sp + 1, ' ', c->n - (size_t)(sp + 1 - c->s)) == NULL &&
                dt__nombre_palabra(c->s, (size_t)(sp - c->s)) != 0 && dt__nombre_palabra(sp + 1, c->n - (size_t)(sp + 1 - c->s)) != 0) {
                static const char *const lugar[] = {"en", "comuna", "sucursal", "isla", "desde", "hacia", "hasta", "sector",
                                                    "oficina", "localidad", "provincia", "region", "agencia"};
                int es_lugar = 0;
                size_t pe = st;
                for (int vuelta = 0; vuelta < 2 && !es_lugar; vuelta++) { /* the word before, or before "de"/"del" */
                    size_t fin_w = pe;
                    while (pe > 0 && s[pe - 1] == ' ') pe--;
                    size_t pa = pe;
                    while (pa > 0 && pe - pa < 20 &&
                           (dt__mp_ascii_may((unsigned char)s[pa - 1]) || dt__mp_ascii_min((unsigned char)s[pa - 1]) || (unsigned char)s[pa - 1] >= 0x80))
                        pa--;
                    char pl[48];
                    if (pa == pe || pe == fin_w || !dt__mp_plegar(s, pa, pe, pl)) break;
                    es_lugar = dt__mp_en(pl, lugar, NL(lugar));
                    if (strcmp(pl, "de") != 0 && strcmp(pl, "del") != 0) break;
                    pe = pa;
                }
                if (!es_lugar) continue;
            }
            mejor = st + r;
        }
    }
    return mejor;
}

int dt__mp_nombre(const dt_mascara_clave *k, const char *s, size_t n, size_t i, size_t *ini, size_t *fin, char *out,
                  size_t cap, size_t *outn) {
    size_t j = dt__mp_palabra(s, n, i);
    if (j == i) return 0;
    char pl[48];
    int honorifico = 0;
    size_t inicio = i;
    /* an honorific: "Sr." "Sra." "Dr." (with its dot) or "don" "doña" "señor" (without), then one space */
    unsigned char c0 = (unsigned char)(AT(i) | 0x20), c1 = (unsigned char)(AT(i + 1) | 0x20);
    if (((c0 == 's' && (c1 == 'r' || c1 == 'e')) || (c0 == 'd' && (c1 == 'o' || c1 == 'r'))) && j - i <= 9 && dt__mp_plegar(s, i, j, pl) &&
        dt__mp_en(pl, dt__mp_honorificos, NL(dt__mp_honorificos))) {
        size_t e = j;
        if (AT(e) == '.') e++;
        if (AT(e) == ' ' && dt__mp_letra(s, n, e + 1)) {
            honorifico = 1;
            inicio = e + 1;
        }
    }
    if (!honorifico) {
        /* a cheap no: a first word that is no name, no particle and no initial */
        size_t l = j - i;
        if (!(l == 1 && AT(j) == '.') && dt__nombre_palabra(s + i, l) == 0) return 0;
    }
    dt__mp_tok t[DT__MP_MAX];
    size_t nt = 0, p = inicio;
    while (nt < DT__MP_MAX) {
        size_t e = dt__mp_palabra(s, n, p);
        if (e == p) break;
        dt__mp_tok *x = &t[nt];
        memset(x, 0, sizeof *x);
        x->a = p, x->b = e;
        x->forma = dt__mp_forma(s, p, e);
        size_t next;
        if (e - p == 1 && AT(e) == '.' && dt__mp_ascii_may(AT(p))) { /* an initial */
            x->clase = 8;
            next = e + 1;
        } else {
            if (!dt__mp_plegar(s, p, e, x->pl)) break;
            x->particula = (nt > 0 || honorifico) && e - p <= 5 && dt__mp_en(x->pl, dt__mp_particulas, NL(dt__mp_particulas));
            x->clase = x->particula ? 0 : dt__nombre_palabra(s + p, e - p);
            if (x->particula) { /* a surname of particles and a word: "De La Fuente", "San Martín" */
                char junto[64];
                size_t lj = 0, r = p, ult = 0, ulta = 0;
                for (int w = 0; w < 3 && lj < 40; w++) {
                    size_t re = dt__mp_palabra(s, n, r);
                    if (re == r || re - r > 20) break;
                    memcpy(junto + lj, s + r, re - r), lj += re - r;
                    ulta = r, ult = re;
                    if (AT(re) != ' ') break;
                    r = re + 1;
                    if (w < 2 && (dt__nombre_palabra(junto, lj) & 4u) && w > 0) break;
                }
                if (ult > 0 && ulta > p && (dt__nombre_palabra(junto, lj) & 4u) && dt__mp_forma(s, ulta, ult) != DT__MP_OTRA) {
                    /* the particles stay particles; the last word is the surname */
                    size_t q2 = p;
                    while (q2 < ulta && nt < DT__MP_MAX - 1) {
                        size_t qe = dt__mp_palabra(s, n, q2);
                        dt__mp_tok *y = &t[nt++];
                        memset(y, 0, sizeof *y);
                        y->a = q2, y->b = qe, y->particula = 1, y->forma = dt__mp_forma(s, q2, qe);
                        q2 = qe + 1;
                    }
                    x = &t[nt];
                    memset(x, 0, sizeof *x);
                    x->a = ulta, x->b = ult, x->clase = 4, x->forma = dt__mp_forma(s, ulta, ult);
                    if (!dt__mp_plegar(s, ulta, ult, x->pl)) break;
                    e = ult;
                }
            }
            if (!x->particula && x->clase == 0) break;
            if (x->forma == DT__MP_OTRA) break;
            next = e;
        }
        nt++;
        if (AT(next) != ' ' || !dt__mp_letra(s, n, next + 1)) break;
        p = next + 1;
    }
    while (nt > 0 && t[nt - 1].particula) nt--; /* "Juan de" ends at Juan */
    size_t palabras = 0, iniciales = 0, dados_propios = 0, apellidos = 0;
    int cap_o_may = 1, min = 1;
    for (size_t q = 0; q < nt; q++) {
        if (t[q].particula) continue;
        if (t[q].clase == 8) {
            iniciales++;
            continue;
        }
        palabras++;
        /* a given name that is no everyday word: "francisco", not "rosa" */
        dados_propios += (t[q].clase & 3u) != 0 && !dt__mp_en(t[q].pl, dt__mp_comunes, NL(dt__mp_comunes));
        apellidos += (t[q].clase & 4u) != 0;
        cap_o_may &= t[q].forma == DT__MP_CAP || t[q].forma == DT__MP_MAY;
        min &= t[q].forma == DT__MP_MIN;
    }
    if (palabras == 0) return 0;
    int es = 0;
    if (honorifico) es = cap_o_may || min;
    else if (cap_o_may) es = palabras >= 2 || (iniciales >= 1 && apellidos >= 1);
    else if (min) es = palabras >= 2 && dados_propios >= 1 && apellidos >= 1;
    if (!es) return 0;
    if (!honorifico) { /* a comuna named after a person stays, whole (the scan goes on after it), when the
                         * name's words are all the comuna's (`María Pinto Soto` is a person) */
        size_t hasta = t[nt - 1].b + (t[nt - 1].clase == 8);
        size_t cf = dt__mp_comuna(s, n, t[0].a, hasta);
        if (cf >= hasta) {
            if (cf - t[0].a >= cap) return 0;
            memcpy(out, s + t[0].a, cf - t[0].a);
            *ini = t[0].a;
            *fin = cf;
            *outn = cf - t[0].a;
            return 1;
        }
    }
    /* the replacement: given names (leading words with a given-name bit) by given names of their
     * sex, the rest by surnames, initials by a keyed letter, particles and spaces as written */
    size_t m = 0;
    int en_dados = 1;
    size_t vistos = 0;
    for (size_t q = 0; q < nt; q++) {
        if (q > 0) {
            size_t sep = t[q].a - (t[q - 1].b + (t[q - 1].clase == 8));
            if (m + sep >= cap) return 0;
            memcpy(out + m, s + t[q - 1].b + (t[q - 1].clase == 8), sep), m += sep;
        }
        if (m + 40 >= cap) return 0;
        if (t[q].particula) {
            memcpy(out + m, s + t[q].a, t[q].b - t[q].a), m += t[q].b - t[q].a;
            en_dados = 0;
            continue;
        }
        if (t[q].clase == 8) {
            dt__mp_tok x = t[q];
            x.pl[0] = (char)(AT(x.a) | 0x20), x.pl[1] = '\0';
            x.forma = DT__MP_CAP;
            char w[40];
            size_t wl = dt__mp_falso(k, &x, 'm', w);
            (void)wl;
            out[m++] = w[0] == (char)0xC3 ? 'J' : w[0];
            out[m++] = '.';
            continue;
        }
        vistos++;
        int ultimo = vistos == palabras;
        char tipo;
        if (en_dados && (t[q].clase & 3u) && !(ultimo && palabras > 1 && (t[q].clase & 4u))) {
            tipo = (t[q].clase & 1u) ? 'f' : 'm';
        } else {
            tipo = 's';
            en_dados = 0;
        }
        if (palabras == 1 && !(t[q].clase & 3u)) tipo = 's';
        m += dt__mp_falso(k, &t[q], tipo, out + m);
    }
    *ini = t[0].a;
    *fin = t[nt - 1].b + (t[nt - 1].clase == 8);
    *outn = m;
    return 1;
}

/* ---- street addresses (docs/enmascarar.md, "Addresses in texto") ---- */

static const char *const dt__mp_vias[] = {"calle", "avenida", "av", "avda", "pasaje", "psje", "pje", "camino", "diagonal", "callejon"};
static const char *const dt__mp_unidades[] = {"depto", "dpto", "departamento", "dto", "casa", "of", "oficina", "block", "torre", "piso", "local"};
static const char *const dt__mp_conectores[] = {"de", "del", "la", "las", "los", "el", "y"};

/* Bytes a street's name is made of: ASCII letters, the bytes of UTF-8 letters, a space. */
static int dt__mt_letra_o_espacio(unsigned char c) { return dt__mp_ascii_may(c) || dt__mp_ascii_min(c) || c >= 0x80 || c == ' '; }

/* A street named after a date at i: 1 or 2 digits, " de ", a word in capitals ("21 de Mayo", "5 de
 * Abril"): the bytes up to that word (the digits and " de "), else 0. */
static size_t dt__mp_fecha_calle(const char *s, size_t n, size_t i) {
    size_t j = i;
    while (j < n && j - i < 3 && AT(j) >= '0' && AT(j) <= '9') j++;
    if (j == i || j - i > 2 || (i > 0 && AT(i - 1) != ' ')) return 0;
    if (AT(j) != ' ' || AT(j + 1) != 'd' || AT(j + 2) != 'e' || AT(j + 3) != ' ' || !dt__mp_es_may(s, n, j + 4)) return 0;
    return j + 4 - i;
}

/* SipHash-2-4 under the sustituir subkey of "\0direccion\0", a tag and bytes. */
static uint64_t dt__mp_hash(const dt_mascara_clave *k, char tag, const char *a, size_t an) {
    uint8_t clave[16], msg[80];
    for (int i = 0; i < 8; i++) {
        clave[i] = (uint8_t)(k->sustituir[0] >> (8 * i));
        clave[8 + i] = (uint8_t)(k->sustituir[1] >> (8 * i));
    }
    size_t lm = 11;
    memcpy(msg, "\0direccion\0", 11);
    msg[lm++] = (uint8_t)tag;
    if (an > sizeof msg - lm) an = sizeof msg - lm;
    memcpy(msg + lm, a, an), lm += an;
    uint64_t h = dt__siphash24(clave, msg, lm);
    dt__borrar(clave, sizeof clave);
    dt__borrar(msg, lm);
    return h;
}

/* A street of the library's tables written at i (ASCII case ignored), whole words, `largo` bytes long
 * (the bytes up to the number's space): its length, else 0. */
static size_t dt__mp_calle_tabla(const char *s, size_t n, size_t i, size_t largo) {
    for (int t = 0; t < 2; t++) {
        const dt_t_str *tab = t ? dt_t_avenidas_rm : dt_t_calles;
        size_t nt = t ? DT_T_N_AVENIDAS_RM : DT_T_N_CALLES;
        for (size_t e = 0; e < nt; e++) {
            const char *w = tab[e].s;
            size_t m = tab[e].n;
            if (t && dt_t_avenidas_rm_con_tipo[e] && m > 8 && memcmp(w, "Avenida ", 8) == 0) w += 8, m -= 8;
            if (m != largo || i + m > n || (((unsigned char)w[0] | 0x20) != ((unsigned char)s[i] | 0x20))) continue;
            size_t q = 0;
            while (q < m && ((unsigned char)w[q] == (unsigned char)s[i + q] ||
                             (dt__mp_ascii_may((unsigned char)w[q] & 0xDF) && (((unsigned char)w[q] | 0x20) == ((unsigned char)s[i + q] | 0x20)))))
                q++;
            if (q == m && !dt__mp_letra(s, n, i + m)) return m;
        }
    }
    return 0;
}

/* A house number at i: an optional "N°", "Nº", "#", "nro." and a space, then 1 to 5 digits, nothing
 * glued after (nor ".5", ",5": an amount). Its digits' span in *da..*db; the end, else 0. */
static size_t dt__mp_numero(const char *s, size_t n, size_t i, size_t *da, size_t *db) {
    size_t j = i;
    if (AT(j) == '#') j++;
    else if ((AT(j) == 'N' || AT(j) == 'n') && AT(j + 1) == 0xC2 && (AT(j + 2) == 0xB0 || AT(j + 2) == 0xBA)) j += 3;
    else if ((AT(j) == 'N' || AT(j) == 'n') && AT(j + 1) == 'r' && AT(j + 2) == 'o') j += 3 + (AT(j + 3) == '.');
    if (j > i && AT(j) == ' ') j++;
    size_t d = j;
    while (j < n && j - d < 6 && AT(j) >= '0' && AT(j) <= '9') j++;
    if (j == d || j - d > 5 || AT(d) == '0') return 0;
    if (dt__mp_letra(s, n, j) || (AT(j) >= '0' && AT(j) <= '9')) return 0;
    if ((AT(j) == '.' || AT(j) == ',' || AT(j) == '-' || AT(j) == '/' || AT(j) == ':') && AT(j + 1) >= '0' && AT(j + 1) <= '9')
        return 0;
    *da = d, *db = j;
    return j;
}

/* Digits [a, b) written anew: as many, keyed by `sal` and the digits, the first not 0. */
static void dt__mp_digitos(const dt_mascara_clave *k, const char *sal, size_t sl, const char *s, size_t a, size_t b, char *out) {
    char m[96];
    size_t lm = sl < 64 ? sl : 64;
    memcpy(m, sal, lm);
    memcpy(m + lm, s + a, b - a);
    uint64_t h = dt__mp_hash(k, 'n', m, lm + (b - a));
    for (size_t q = 0; q < b - a; q++) {
        out[q] = (char)('0' + (q == 0 ? 1 + h % 9u : h % 10u));
        h /= q == 0 ? 9u : 10u;
    }
    if (b - a > 1 && memcmp(out, s + a, b - a) == 0) out[b - a - 1] = (char)('0' + ((out[b - a - 1] - '0' + 1) % 10));
}

int dt__mp_direccion(const dt_mascara_clave *k, const char *s, size_t n, size_t i, size_t *ini, size_t *fin, char *out,
                     size_t cap, size_t *outn, size_t *corte) {
    /* cheap noes: a word in capitals or a street word's first letter; then a digit within 64 bytes
     * with only what a street's name holds (letters, spaces, '.', '\'', '#', N°) before it */
    unsigned char c0 = (unsigned char)(AT(i) | 0x20);
    int may = dt__mp_es_may(s, n, i);
    if (!may && c0 != 'c' && c0 != 'a' && c0 != 'p' && c0 != 'd') return 0;
    char pl[48];
    size_t j = dt__mp_palabra(s, n, i);
    unsigned char c1 = (unsigned char)(AT(i + 1) | 0x20);
    int via = ((c0 == 'c' && c1 == 'a') || (c0 == 'a' && c1 == 'v') || (c0 == 'p' && (c1 == 'a' || c1 == 's' || c1 == 'j')) ||
               (c0 == 'd' && c1 == 'i')) && j - i <= 9 && j > i && dt__mp_plegar(s, i, j, pl) &&
              dt__mp_en(pl, dt__mp_vias, NL(dt__mp_vias));
    if (!may && !via) return 0;
    /* *corte: a byte no street's name holds, met by an earlier call before any digit: from here too */
    if (i < *corte) return 0;
    size_t lim = i + 64 < n ? i + 64 : n, q = i;
    while (q < lim && (!(AT(q) >= '0' && AT(q) <= '9') || dt__mp_fecha_calle(s, n, q))) {
        unsigned char c = AT(q);
        if (c >= '0' && c <= '9') {
            q += dt__mp_fecha_calle(s, n, q);
            continue;
        }
        if (!(dt__mt_letra_o_espacio(c) || c == '.' || c == '\'' || c == '#')) {
            *corte = q;
            return 0;
        }
        q++;
    }
    if (q == lim) return 0;
    { /* that digit starts a house number (1 to 5 digits, alone): not an order number, a date, an amount */
        size_t r = q;
        while (r < n && r - q < 6 && AT(r) >= '0' && AT(r) <= '9') r++;
        if (r - q > 5 || AT(q) == '0' || dt__mp_letra(s, n, r) || (AT(r) >= '0' && AT(r) <= '9') ||
            ((AT(r) == '.' || AT(r) == ',' || AT(r) == '-' || AT(r) == '/' || AT(r) == ':') && AT(r + 1) >= '0' && AT(r + 1) <= '9'))
            return 0;
    }
    if (j == i) return 0;
    size_t nombre_a = i, nombre_b = 0;
    if (via) {
        size_t e = j + (AT(j) == '.');
        if (AT(e) == ' ') nombre_a = e + 1;
        else via = 0;
    }
    if (!via && !dt__mp_es_may(s, n, i)) return 0;
    /* the street's name: a street of the tables, or (after a street word, or from "Los"/"Las") words
     * in capitals and connectors, up to a number */
    /* the table's streets are exactly the bytes before the number: up to the space before it (and
     * before a "N°", "#" or "nro" there) */
    size_t w1 = q, t = 0, da = 0, db = 0, e = 0;
    while (w1 > nombre_a && s[w1 - 1] != ' ') w1--; /* the start of the number's word ("120", "#120", "N°120") */
    /* the table's streets are words in capitals and connectors: prose before a number is not */
    int como_calle = w1 > nombre_a + 1;
    for (size_t r = nombre_a; como_calle && r + 1 < w1;) {
        size_t re = dt__mp_palabra(s, n, r);
        if (re == r) break; /* a label, a digit: the loop below decides */
        como_calle = dt__mp_es_may(s, n, r) || (re - r <= 3 && dt__mp_plegar(s, r, re, pl) && dt__mp_en(pl, dt__mp_conectores, NL(dt__mp_conectores)));
        r = re + 1;
    }
    if (como_calle) {
        t = dt__mp_calle_tabla(s, n, nombre_a, w1 - 1 - nombre_a);
        size_t w2 = w1 - 1; /* a label word before it: "N° 120" */
        while (t == 0 && w2 > nombre_a && s[w2 - 1] != ' ') w2--;
        if (t == 0 && w2 > nombre_a + 1 && w1 - 1 - w2 <= 4) t = dt__mp_calle_tabla(s, n, nombre_a, w2 - 1 - nombre_a);
    }
    if (t > 0 && AT(nombre_a + t) == ' ' && (e = dt__mp_numero(s, n, nombre_a + t + 1, &da, &db)) > 0) {
        nombre_b = nombre_a + t;
    } else {
        if (!via && !(dt__mp_plegar(s, i, j, pl) && (strcmp(pl, "los") == 0 || strcmp(pl, "las") == 0) && dt__mp_es_may(s, n, i)))
            return 0;
        size_t p = nombre_a, palabras = 0, ultima_conector = 1;
        for (int w = 0; w < 7; w++) {
            size_t we = dt__mp_palabra(s, n, p);
            if (we == p && dt__mp_fecha_calle(s, n, p)) { /* "21 de Mayo": a word of the name */
                p += dt__mp_fecha_calle(s, n, p);
                palabras++;
                ultima_conector = 0;
                continue;
            }
            if (we == p) break;
            int con = dt__mp_plegar(s, p, we, pl) && dt__mp_en(pl, dt__mp_conectores, NL(dt__mp_conectores));
            if (!con && !dt__mp_es_may(s, n, p)) return 0;
            if (!con || p == nombre_a) palabras++;
            ultima_conector = con && p != nombre_a;
            if (AT(we) != ' ') return 0;
            if ((e = dt__mp_numero(s, n, we + 1, &da, &db)) > 0) {
                nombre_b = we;
                break;
            }
            p = we + 1;
        }
        if (nombre_b == 0 || ultima_conector || palabras < (via ? 1u : 2u)) return 0;
    }
    /* a comuna and a year ("Las Condes 2024") is a place and a date; with another number, an address of
     * the street named after the comuna ("Pedro Aguirre Cerda 358") */
    if (!via && db - da == 4 && (memcmp(s + da, "19", 2) == 0 || memcmp(s + da, "20", 2) == 0)) {
        for (size_t q2 = 0; q2 < DT_T_N_COMUNAS; q2++) { /* a comuna's name as written, case aside */
            const dt_t_str *c = &dt_t_comunas[q2].nombre;
            if (c->n != nombre_b - nombre_a) continue;
            size_t r = 0; /* the bytes equal, ASCII letters in either case */
            while (r < c->n && ((unsigned char)c->s[r] == AT(nombre_a + r) ||
                                (dt__mp_ascii_may((unsigned char)c->s[r] & 0xDF) && ((unsigned char)c->s[r] | 0x20) == (AT(nombre_a + r) | 0x20))))
                r++;
            if (r == c->n) return 0;
        }
    }
    /* a unit after it: ", depto 32", " dpto. 4B", " casa 12" */
    size_t ua = 0, ub = 0, u = e + (AT(e) == ',');
    if (AT(u) == ' ') {
        size_t ue = dt__mp_palabra(s, n, u + 1);
        if (ue > u + 1 && ue - u <= 13 && dt__mp_plegar(s, u + 1, ue, pl) && dt__mp_en(pl, dt__mp_unidades, NL(dt__mp_unidades))) {
            size_t v = ue + (AT(ue) == '.');
            if (AT(v) == ' ') v++;
            if (AT(v) == '#') v++;
            size_t w = v;
            while (w < n && w - v < 5 && AT(w) >= '0' && AT(w) <= '9') w++;
            if (w > v && !(AT(w) >= '0' && AT(w) <= '9')) {
                ua = v, ub = w;
                if (dt__mp_letra(s, n, w) == 1 && !dt__mp_letra(s, n, w + 1)) ub = w; /* 4B: the letter stays */
            }
        }
    }
    /* the fake street: an entry of the streets' table without a street word, keyed by the name */
    char fold[64];
    size_t fl = nombre_b - nombre_a < 60 ? (size_t)(dt__put_ascii_fold(fold, s + nombre_a, nombre_b - nombre_a) - fold) : 0;
    uint64_t h = dt__mp_hash(k, 'c', fold, fl);
    size_t x = (size_t)(h % DT_T_N_CALLES), m = 0;
    for (size_t intento = 0; intento < DT_T_N_CALLES; intento++, x = (x + 1) % DT_T_N_CALLES) {
        const dt_t_str *c = &dt_t_calles[x];
        if ((c->n == nombre_b - nombre_a && memcmp(c->s, s + nombre_a, c->n) == 0) || c->n > 7 * (nombre_b - nombre_a)) continue;
        break;
    }
    size_t fin_total = ub ? ub : db;
    if ((nombre_a - i) + dt_t_calles[x].n + (fin_total - nombre_b) + 8 >= cap) return 0;
    memcpy(out + m, s + i, nombre_a - i), m += nombre_a - i; /* the street word as written */
    memcpy(out + m, dt_t_calles[x].s, dt_t_calles[x].n), m += dt_t_calles[x].n;
    memcpy(out + m, s + nombre_b, da - nombre_b), m += da - nombre_b; /* " ", "N° " */
    dt__mp_digitos(k, fold, fl, s, da, db, out + m), m += db - da;
    if (ub) {
        memcpy(out + m, s + db, ua - db), m += ua - db;
        dt__mp_digitos(k, fold, fl, s, ua, ub, out + m), m += ub - ua;
    }
    *ini = i;
    *fin = fin_total;
    *outn = m;
    return 1;
}
