/* Masking, part 3 (docs/enmascarar.md, "Emails, phones and plates" and "Free text"): which spans of a
 * text are replaced and which are not (hand-reviewed cases: the expected text is composed here from
 * the column functions for exactly the spans a reader would call a RUT, an email, a phone, a plate);
 * the kinds bijective over large samples (every plate of the three formats, 4,000,000 phones), their outputs of the same kind (check digits with rut_ref.h's own mod 11, plates with the
 * Registro Civil's digit recomputed here), inverses exact; the rules email/telefono/patente/texto
 * through a plan, a RUT in a note equal to the rut column's; arbitrary bytes never crash. */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "datoteca.h"
#include "rut_ref.h"

static const char CLAVE_A[] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

typedef dt_status (*dt_fn)(const dt_mascara_clave *, const char *, size_t, char *, size_t, size_t *, char *, size_t);

static dt_mascara_clave *K;
/* --corto or DT_TEST_CORTO (sanitizers.sh, valgrind): every 20th value of the large sweeps, the same
 * code paths. */
static uint32_t PASO = 1;

/* f(v) as a static string (one of four rotating buffers). */
static const char *m(dt_fn f, const char *v) {
    static char b[4][128];
    static int r = 0;
    char *o = b[r++ % 4];
    size_t n;
    char why[DT_SENTENCE_MAX];
    dt_status st = f(K, v, strlen(v), o, 128, &n, why, sizeof why);
    CHECK(st == DT_OK, "masking '%s': status %d, %s", v, (int)st, why);
    return o;
}

static char *texto(const char *in, unsigned buscar) {
    static char b[8192];
    size_t n;
    dt_status st = dt_mascara_texto(K, buscar, in, strlen(in), b, sizeof b, &n, NULL, 0);
    CHECK(st == DT_OK && n == strlen(b), "texto '%s': status %d", in, (int)st);
    return b;
}

/* A phone as the rule telefono and texto write it (docs/enmascarar.md, "Contact data that reaches no
 * one"), from dt_mascara_telefono's permuted number, independently of the library's code: the national
 * digits (past +56 / 56 or a trunk 0); a mobile's or Santiago's subscriber part starting with 0, a
 * regional number's two area digits written 2 0. In place. */
static char *nadie(char *t) {
    size_t pos[16], n = 0;
    for (size_t i = 0; t[i] && n < 16; i++)
        if (t[i] >= '0' && t[i] <= '9') pos[n++] = i;
    size_t o = n == 11 ? 2 : n == 10 ? 1 : 0;
    if (t[pos[o]] == '9' || t[pos[o]] == '2') t[pos[o + 1]] = '0';
    else t[pos[o]] = '2', t[pos[o + 1]] = '0';
    return t;
}

/* texto(in) must be the pieces joined: plain text as it is, masked spans as their column function. */
#define T(...) tcaso(__LINE__, __VA_ARGS__, NULL)
static void tcaso(int linea, const char *in, ...) {
    char esperado[8192] = "";
    va_list ap;
    va_start(ap, in);
    for (const char *p; (p = va_arg(ap, const char *)) != NULL;) {
        dt_fn f = NULL;
        if (p[0] == '\x01') f = dt_mascara_rut;
        else if (p[0] == '\x02') f = dt_mascara_email;
        else if (p[0] == '\x03') f = dt_mascara_telefono;
        else if (p[0] == '\x04') f = dt_mascara_patente;
        char tel[128];
        if (f == dt_mascara_telefono) snprintf(tel, sizeof tel, "%s", m(f, p + 1));
        strcat(esperado, f == dt_mascara_telefono ? nadie(tel) : f ? m(f, p + 1) : p);
    }
    va_end(ap);
    const char *got = texto(in, DT_MASCARA_BUSCAR_TODO);
    CHECK(strcmp(got, esperado) == 0, "line %d: texto of\n      [%s]\n    expected [%s]\n    got      [%s]", linea, in,
          esperado, got);
}
#define R "\x01"
#define E "\x02"
#define F "\x03"
#define P "\x04"

static void spans(void) {
    /* RUTs: with or without dots, the dash required, 7 or 8 digits, the check digit right */
    T("RUT 12.345.678-5, ok", "RUT ", R "12.345.678-5", ", ok");
    T("12345678-5", R "12345678-5");
    T("(12.345.678-5)", "(", R "12.345.678-5", ")");
    T("rut:12345678-5.", "rut:", R "12345678-5", ".");
    T("rut12345678-5", "rut", R "12345678-5");       /* glued to letters before: still a RUT */
    T("12345678-5z 12345678-5k", "12345678-5z 12345678-5k"); /* a letter or digit after the check digit: not one */
    /* the check digit mistyped after a dash or a label: the body is still someone's (issue 39) */
    T("12.345.678-6", R "12.345.678-5");
    T("12345678-3 y 1234567-0", R "12345678-5", " y ", R "1234567-4");
    T("RUT: 123456785, RUT 123456780", "RUT: ", R "123456785", ", RUT ", R "123456785");
    T("RUN N\xc2\xb0 12345678 5 y r.u.t. 12.345.678 - 5", "RUN N\xc2\xb0 ", R "12345678-5", " y r.u.t. ", R "12.345.678-5");
    T("12345678 5 y 12345678 3", R "12345678-5", " y 12345678 3"); /* a bare space: the digit must be right */
    T("$ 12.345.678 - 5 cuotas, $12345678-5", "$ 12.345.678 - 5 cuotas, $12345678-5"); /* amounts */
    T("orden 123456785, rut 1234567", "orden 123456785, rut 1234567"); /* no label, no check digit */
    T("RUN 9569845K ok", "RUN ", R "9569845K", " ok");
    /* a bare nine digits after a document's label is that document's number */
    T("Folio 987654321, Boleta N\xc2\xb0 987654321, Ticket #987654321, orden de compra 987654321",
      "Folio 987654321, Boleta N\xc2\xb0 987654321, Ticket #987654321, orden de compra 987654321");
    /* phones without +56 (issue 39) */
    T("09-8765 4321, (9) 8765 4321", F "09-8765 4321", ", ", F "(9) 8765 4321");
    T("22 345 6789 o (2) 2345 6789 o (32) 234 5678", F "22 345 6789", " o ", F "(2) 2345 6789", " o ", F "(32) 234 5678");
    T("total 223 456 789, 12 345 6789, $ 22 345 6789", "total 223 456 789, 12 345 6789, $ 22 345 6789");
    /* no dash nor label (issue 48): 8 or 9 digits whose last is the right check digit are a RUT; not a
     * wrong one, not 9 starting with 9 (a mobile), not a date, not after a document's or a code's word,
     * not before a currency */
    T("123456785 y 123456786", R "123456785", " y 123456786");
    T("178916998.", R "178916998", ".");
    T("20240115 y 19991231", "20240115 y 19991231");
    T("Folio 123456785, N\xc2\xb0 123456785, pedido 123456785, cuenta 123456785, fono 123456785", "Folio 123456785, N\xc2\xb0 123456785, pedido 123456785, cuenta 123456785, fono 123456785");
    T("123456785 pesos, 123456785,50", "123456785 pesos, 123456785,50");
    /* after the document's word, as after RUT: a 9 digit run from 9, a mistyped check digit */
    T("c\xc3\xa9" "dula 912345678, C.I. 123456786, CI: 12.345.678 5, carnet 123456785; ci 912345678",
      "c\xc3\xa9" "dula ", R "91234567K", ", C.I. ", R "123456785", ", CI: ", R "12.345.678-5", ", carnet ", R "123456785", "; ci ", R "91234567K"); /* the right check digit of 91234567 is K */
    T("Marci 912345678", "Marci ", F "912345678");
    /* grouped by commas: the right check digit, written back with commas */
    T("12,345,678-5 y 12,345,678-6 y 1,234,567", "1,192,169-8 y 12,345,678-6 y 1,234,567");
    /* codes: not a plate, a phone nor a RUT */
    T("SKU LB6709, modelo KC 2023, c\xc3\xb3" "d. 983984536, ref. BBCL23, N\xc2\xb0 de serie 912345678",
      "SKU LB6709, modelo KC 2023, c\xc3\xb3" "d. 983984536, ref. BBCL23, N\xc2\xb0 de serie 912345678");
    T("patente LB6709, fono 983984536", "patente ", P "LB6709", ", fono ", F "983984536");
    T("112345678-5 1.12.345.678-5 0-12345678-5", "112345678-5 1.12.345.678-5 0-12345678-5"); /* inside longer numbers */
    T("12.345.6785 12.34.5678-5", "12.345.6785 12.34.5678-5");
    T("123456-0 y 99-9", "123456-0 y 99-9");           /* 6 digits or fewer: ranges, pages */
    /* 7.654.321-6 and 5.000.001-K by rut_ref's mod 11 */
    T("a 7.654.321-6 y 5.000.001-k.", "a ", R "7.654.321-6", " y ", R "5.000.001-k", ".");
    T("12.345.678\xe2\x80\x90" "5", R "12.345.678\xe2\x80\x90" "5"); /* a pasted U+2010 */
    /* emails */
    T("escribir a Ana.Rojas@Empresa.cl.", "escribir a ", E "Ana.Rojas@Empresa.cl", ".");
    T("<ana@x.cl>, ...bo_b+1@mail.uc.cl;", "<", E "ana@x.cl", ">, ...", E "bo_b+1@mail.uc.cl", ";");
    T("a@b@c.cl ana@x ana@x.c1 @x.cl ana@.cl", "a@b@c.cl ana@x ana@x.c1 @x.cl ana@.cl");
    T("12.345.678-5@x.cl", E "12.345.678-5@x.cl");      /* an address first */
    /* written for people, not crawlers (issue 48) */
    T("Lleg\xc3\xb3 at home. at gmail.com, juan at gmail, a@ b", "Lleg\xc3\xb3 at home. at gmail.com, juan at gmail, a@ b");
    /* phones */
    T("+56 9 8765 4321.", F "+56 9 8765 4321", ".");
    T("+56-9-8765-4321 (+56) 2 2345 6789 +56 32 234 5678", F "+56-9-8765-4321", " ", F "(+56) 2 2345 6789", " ",
      F "+56 32 234 5678");
    T("cel 987654321 o 9 8765 4321;", "cel ", F "987654321", " o ", F "9 8765 4321", ";");
    T("+569876543210 9876543210 19876543 +56 8 1234 5678", "+569876543210 9876543210 ", R "19876543", " +56 8 1234 5678"); /* 1987654-3: a RUT (issue 48) */
    T("+569876543210 9876543210 19876542", "+569876543210 9876543210 19876542");
    T("+56 10 234 5678 x9876543210", "+56 10 234 5678 x9876543210"); /* no area 10; glued */
    /* plates */
    T("auto BBCD·12 y moto BBC·01, antigua AB-1234.", "auto ", P "BBCD·12", " y moto ", P "BBC·01", ", antigua ", P "AB-1234",
      ".");
    T("bbcd12 XBBCD12 BBCD123 HOLA12 BBCD1 AEIO12", P "bbcd12", " XBBCD12 BBCD123 HOLA12 BBCD1 AEIO12");
    /* plates in pairs or with a space (issue 39): the rule's output for the plate without its inner
     * separators, written back in the note's shape */
    {
        static const struct { const char *in, *norm; } f[] = {
            {"BB-CL-23", "BBCL-23"}, {"BB\xc2\xb7" "CL\xc2\xb7" "23", "BBCL\xc2\xb7" "23"}, {"BB CL 23", "BBCL23"},
            {"AB 1234", "AB1234"}, {"BBCL 23", "BBCL23"}, {"BB.CL.23", "BBCL.23"}};
        for (size_t q = 0; q < sizeof f / sizeof f[0]; q++) {
            const char *t = m(dt_mascara_patente, f[q].norm);
            char want[64];
            size_t a = 0, b = 0;
            for (; f[q].in[a]; a++) {
                char c = f[q].in[a];
                int an = (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
                while (an && t[b] && !((t[b] >= 'A' && t[b] <= 'Z') || (t[b] >= '0' && t[b] <= '9'))) b++;
                want[a] = an ? t[b++] : c;
            }
            want[a] = '\0';
            char in[64];
            snprintf(in, sizeof in, "auto %s.", f[q].in);
            char full[80];
            snprintf(full, sizeof full, "auto %s.", want);
            const char *got = texto(in, DT_MASCARA_BUSCAR_TODO);
            CHECK(strcmp(got, full) == 0, "plate [%s]: expected [%s], got [%s]", f[q].in, full, got);
        }
    }
    T("de 2020, la 1500, BB cl 23, ab 1234x", "de 2020, la 1500, BB cl 23, ab 1234x"); /* lower case with a space: words */
    /* mixed, and text with nothing in it untouched byte for byte */
    T("El cliente (RUT 12.345.678-5) llamó del +56 9 8765 4321 por el auto BBCD-12: ana@x.cl",
      "El cliente (RUT ", R "12.345.678-5", ") llamó del ", F "+56 9 8765 4321", " por el auto ", P "BBCD-12", ": ",
      E "ana@x.cl");
    T("nada que ver: 2024-12-01, $12.345.678, 45%, ID 998877", "nada que ver: 2024-12-01, $12.345.678, 45%, ID 998877");
    /* buscar limits the kinds */
    const char *in = "12.345.678-5 ana@x.cl +56 9 8765 4321 BBCD12";
    char esp[256];
    snprintf(esp, sizeof esp, "%s ana@x.cl +56 9 8765 4321 BBCD12", m(dt_mascara_rut, "12.345.678-5"));
    CHECK(strcmp(texto(in, DT_MASCARA_BUSCAR_RUT), esp) == 0, "buscar rut only: %s", texto(in, DT_MASCARA_BUSCAR_RUT));
    snprintf(esp, sizeof esp, "12.345.678-5 ana@x.cl +56 9 8765 4321 %s", m(dt_mascara_patente, "BBCD12"));
    CHECK(strcmp(texto(in, DT_MASCARA_BUSCAR_PATENTE), esp) == 0, "buscar patente only");
    char b[8];
    size_t n;
    CHECK(dt_mascara_texto(K, 0, "x", 1, b, sizeof b, &n, NULL, 0) == DT_ERR_INVALID_ARG, "buscar 0");
    CHECK(dt_mascara_texto(K, 64, "x", 1, b, sizeof b, &n, NULL, 0) == DT_ERR_INVALID_ARG, "buscar 64");
    CHECK(dt_mascara_texto(K, 15, in, strlen(in), b, sizeof b, &n, NULL, 0) == DT_ERR_BUFFER_TOO_SMALL && b[0] == 0 &&
              n == strlen(texto(in, 15)),
          "a small buffer gets the needed length");
    CHECK(dt_mascara_texto(NULL, 15, "x", 1, b, sizeof b, &n, NULL, 0) == DT_ERR_NULL, "NULL key");
    CHECK(dt_mascara_texto(K, 15, NULL, 0, b, sizeof b, &n, NULL, 0) == DT_OK && n == 0, "empty text");
}

/* ---- the kinds ---- */

static uint32_t xs = 0x9e3779b9u;
static uint32_t xorshift(void) {
    xs ^= xs << 13;
    xs ^= xs >> 17;
    xs ^= xs << 5;
    return xs;
}

/* The examples of docs/enmascarar.md under the test key (the derivations are recomputed from that page
 * by tests/python/test_enmascarar.py; here the page's own examples stay true). */
static void ejemplos(void) {
    CHECK(strcmp(m(dt_mascara_email, "juan.perez@gmail.com"), "fexbfdemyf7ysbtm@iek5zewo.example.com") == 0, "email example");
    CHECK(strcmp(m(dt_mascara_telefono, "+56 9 8765 4321"), "+56 9 5643 6205") == 0, "phone example");
    CHECK(strcmp(m(dt_mascara_rut, "12.345.678-5"), "1.192.169-8") == 0, "the RUT's example, unchanged");
}

static void email(void) {
    const char *a = m(dt_mascara_email, "Juan.Perez@Gmail.COM");
    char a2[64];
    snprintf(a2, sizeof a2, "%s", a);
    CHECK(strcmp(a2, m(dt_mascara_email, "juan.perez@gmail.com")) == 0, "case must not matter");
    CHECK(strcmp(a2, m(dt_mascara_email, "juan.perez@gmail.cl")) != 0, "another address, another output");
    /* the form: 16 base32, '@', 8 base32, .example.com; the domain shared by one domain's addresses */
    size_t n = strlen(a2);
    int ok = n == 37 && a2[16] == '@' && strcmp(a2 + 25, ".example.com") == 0;
    for (int i = 0; i < 25 && ok; i++)
        if (i != 16) ok = (a2[i] >= 'a' && a2[i] <= 'z') || (a2[i] >= '2' && a2[i] <= '7');
    CHECK(ok, "form of %s", a2);
    CHECK(strcmp(a2 + 16, m(dt_mascara_email, "otra.persona@GMAIL.com") + 16) == 0, "one domain, one masked domain");
    CHECK(strcmp(m(dt_mascara_email, "  ana@x.cl\t") + 39, "\t") == 0, "whitespace kept");
    const char *malos[] = {"", "   ", "ana", "ana@", "@x.cl", "ana@x", "a@b@x.cl", "an a@x.cl", "ana@x..cl", "ana@x.c",
                           "ana@x.c1", "ana@-.c_l", "ñandú@x.cl"};
    for (size_t i = 0; i < sizeof malos / sizeof malos[0]; i++) {
        char b[64], why[DT_SENTENCE_MAX];
        size_t l;
        dt_status st = dt_mascara_email(K, malos[i], strlen(malos[i]), b, sizeof b, &l, why, sizeof why);
        CHECK(st == DT_ERR_INVALID_ARG && b[0] == 0 && strncmp(why, "email: ", 7) == 0, "'%s' refused: %d %s", malos[i],
              (int)st, why);
        CHECK(strlen(malos[i]) < 4 || strstr(why, malos[i]) == NULL, "the sentence repeats the value: %s", why);
    }
    /* 200,000 distinct addresses, no two outputs equal (sorted and compared) */
    const int N = 200000 / (int)PASO;
    char (*o)[40] = malloc((size_t)N * 40);
    for (int i = 0; i < N; i++) {
        char in[64];
        size_t l;
        snprintf(in, sizeof in, "persona%d@dominio%d.cl", i, i % 97);
        CHECK_OK(dt_mascara_email(K, in, strlen(in), o[i], 40, &l, NULL, 0), "%s", in);
    }
    qsort(o, N, 40, (int (*)(const void *, const void *))strcmp);
    int iguales = 0;
    for (int i = 1; i < N; i++) iguales += strcmp(o[i - 1], o[i]) == 0;
    CHECK(iguales == 0, "%d equal masked emails among %d addresses", iguales, N);
    free(o);
}

/* Bitmap of seen outputs over [0, n). */
static uint8_t *visto;
static int nuevo(uint32_t x) {
    int ya = visto[x >> 3] >> (x & 7) & 1;
    visto[x >> 3] |= (uint8_t)(1u << (x & 7));
    return !ya;
}

static uint32_t tel_num(const char *s) { /* the national 9 digits of an output */
    uint64_t x = 0;
    for (; *s; s++)
        if (*s >= '0' && *s <= '9') x = x * 10 + (uint64_t)(*s - '0');
    return (uint32_t)(x % 1000000000u);
}

static void telefono(void) {
    visto = calloc(1000000000u / 8 + 1, 1);
    /* 1,000,000 mobiles (spaced), 1,000,000 Santiago, all 1,000,000 of area 32's plan (32 2XX XXXX) and
     * 1,000,000 more of area 32: no collision; the kind kept; the plan (2XXX XXXX after the area, what the
     * library generates) kept; the inverse exact */
    int colisiones = 0, tipo = 0, plan = 0, inversa = 0, forma = 0;
    for (uint32_t i = 0; i < 4000000u; i += PASO) {
        /* distinct inputs: i times a unit mod 10^8 (and mod 9,000,000 outside area 32's plan) */
        uint32_t mezcla = (uint32_t)((uint64_t)(i % 1000000u) * 2654435761u % 100000000u);
        uint32_t fuera = (uint32_t)((uint64_t)(i % 1000000u) * 7919u % 9000000u);
        uint32_t nat = i < 1000000u ? 900000000u + mezcla
                     : i < 2000000u ? 200000000u + mezcla
                     : i < 3000000u ? 322000000u + (i - 2000000u)
                                    : 320000000u + (fuera < 2000000u ? fuera : fuera + 1000000u);
        char in[32], out[32], back[32];
        size_t l;
        if (i < 1000000u) snprintf(in, sizeof in, "+56 9 %04u %04u", nat / 10000 % 10000, nat % 10000);
        else if (i < 2000000u) snprintf(in, sizeof in, "+56 2 %04u %04u", nat / 10000 % 10000, nat % 10000);
        else snprintf(in, sizeof in, "(32) %03u %04u", nat / 10000 % 1000, nat % 10000);
        if (i == 1000000u || i == 2000000u) memset(visto, 0, 1000000000u / 8 + 1);
        CHECK_OK(dt_mascara_telefono(K, in, strlen(in), out, sizeof out, &l, NULL, 0), "%s", in);
        CHECK_OK(dt_mascara_telefono_inversa(K, out, l, back, sizeof back, &l, NULL, 0), "%s", out);
        inversa += strcmp(back, in) != 0;
        uint32_t y = tel_num(out);
        forma += strlen(out) != strlen(in) || memcmp(out, in, 5) != 0;
        uint32_t area = i < 2000000u ? nat / 100000000u : 32;
        tipo += (area < 10 ? y / 100000000u : y / 10000000u) != area;
        uint32_t sub = area < 10 ? nat % 100000000u : nat % 10000000u, subo = area < 10 ? y % 100000000u : y % 10000000u;
        if (area != 9) plan += (sub / (area < 10 ? 10000000u : 1000000u) == 2) != (subo / (area < 10 ? 10000000u : 1000000u) == 2);
        colisiones += !nuevo(y);
    }
    CHECK(colisiones == 0 && tipo == 0 && plan == 0 && inversa == 0 && forma == 0,
          "phones: %d collisions, %d changed kind, %d left the plan, %d inverses wrong, %d forms changed", colisiones, tipo,
          plan, inversa, forma);
    free(visto);
    /* the written form kept byte for byte, digits aside */
    const char *formas[] = {"+56 9 8765 4321", "+56-9-8765-4321", "+56987654321", "987654321", "9 8765 4321", "09 8765 4321",
                            "56 9 8765 4321", "(+56) 2 2345 6789", " +56 (2) 2345-6789 ", "+56 32 234 5678", "(32) 2345678"};
    for (size_t i = 0; i < sizeof formas / sizeof formas[0]; i++) {
        const char *o = m(dt_mascara_telefono, formas[i]);
        int ok = strlen(o) == strlen(formas[i]);
        for (size_t j = 0; ok && formas[i][j]; j++)
            ok = (formas[i][j] >= '0' && formas[i][j] <= '9') == (o[j] >= '0' && o[j] <= '9') &&
                 ((o[j] >= '0' && o[j] <= '9') || o[j] == formas[i][j]);
        CHECK(ok, "form of '%s' -> '%s'", formas[i], o);
    }
    char a[32];
    snprintf(a, sizeof a, "%s", m(dt_mascara_telefono, "987654321"));
    CHECK(tel_num(m(dt_mascara_telefono, "+56 9 8765 4321")) == tel_num(a), "one number, one output in every form");
    const char *malos[] = {"", "12345678", "+57 9 8765 4321", "+56 8 1234 5678", "+56 10 234 5678", "9876543210",
                           "98765432a", "9+87654321", "+56 9 8765 43210"};
    for (size_t i = 0; i < sizeof malos / sizeof malos[0]; i++) {
        char b[64], why[DT_SENTENCE_MAX];
        size_t l;
        dt_status st = dt_mascara_telefono(K, malos[i], strlen(malos[i]), b, sizeof b, &l, why, sizeof why);
        CHECK(st == DT_ERR_INVALID_ARG && b[0] == 0 && strncmp(why, "telefono: ", 10) == 0 &&
                  (strlen(malos[i]) < 4 || strstr(why, malos[i]) == NULL),
              "'%s' refused: %d %s", malos[i], (int)st, why);
    }
}

static const char LETRAS[] = "BCDFGHJKLPRSTVWXYZ";

/* The Registro Civil's check digit of a current or motorcycle plate "LLLLNN" / "LLLNN" (upper case):
 * each letter's digit (docs/patentes.md's table, written out here), a motorcycle's number with a 0
 * before it, then the RUT's mod 11. */
static char dv_patente(const char *p) {
    static const char valor[] = "BCDFGHJKLPRSTVWXYZ", digito[] = "123456789023456789";
    uint64_t n = 0;
    size_t nl = 0;
    while (p[nl] >= 'A' && p[nl] <= 'Z') {
        n = n * 10 + (uint64_t)(digito[strchr(valor, p[nl]) - valor] - '0');
        nl++;
    }
    n = n * (nl == 3 ? 1000u : 100u) + (uint64_t)((p[nl] - '0') * 10 + (p[nl + 1] - '0'));
    return mod11(n);
}

static void patente(void) {
    /* every plate of the current format (18^4 * 90), of motorcycles (18^3 * 100), and of 10 old series:
     * no collision, the same format, accepted by dt_patente_leer, the inverse exact */
    enum { NA = 18 * 18 * 18 * 18 * 90 };
    visto = calloc(NA / 8 + 1, 1);
    int fallas = 0, colisiones = 0;
    for (uint32_t i = 0; i < NA; i += PASO) {
        char in[16], out[16], back[16];
        uint32_t r = i;
        int num = 10 + (int)(r % 90);
        r /= 90;
        snprintf(in, sizeof in, "%c%c%c%c-%02d", LETRAS[r / 5832], LETRAS[r / 324 % 18], LETRAS[r / 18 % 18], LETRAS[r % 18], num);
        size_t l;
        dt_patente_tipo t;
        if (dt_mascara_patente(K, in, 7, out, sizeof out, &l, NULL, 0) != DT_OK ||
            dt_mascara_patente_inversa(K, out, l, back, sizeof back, &l, NULL, 0) != DT_OK || strcmp(back, in) != 0 ||
            dt_patente_leer(out, 7, &t, NULL) != DT_OK || t != DT_PATENTE_AUTO || out[4] != '-') {
            if (fallas++ < 3) fprintf(stderr, "plate %s -> %s -> %s\n", in, out, back);
            continue;
        }
        uint32_t y = 0;
        for (int j = 0; j < 4; j++) y = y * 18 + (uint32_t)(strchr(LETRAS, out[j]) - LETRAS);
        y = y * 90 + (uint32_t)((out[5] - '0') * 10 + (out[6] - '0') - 10);
        colisiones += !nuevo(y);
    }
    CHECK(fallas == 0 && colisiones == 0, "current plates: %d failures, %d collisions of %d", fallas, colisiones, NA);
    /* every motorcycle plate LLL-NN, and every plate of the old series (the pairs dt_patente_leer takes) */
    memset(visto, 0, NA / 8 + 1);
    int motos = 0, antiguas = 0;
    for (uint32_t i = 0; i < 18u * 18u * 18u * 100u; i += PASO, motos++) {
        char in[16], out[16], back[16];
        uint32_t r = i / 100;
        snprintf(in, sizeof in, "%c%c%c-%02u", LETRAS[r / 324], LETRAS[r / 18 % 18], LETRAS[r % 18], i % 100);
        size_t l;
        dt_patente_tipo t;
        if (dt_mascara_patente(K, in, 6, out, sizeof out, &l, NULL, 0) != DT_OK ||
            dt_mascara_patente_inversa(K, out, l, back, sizeof back, &l, NULL, 0) != DT_OK || strcmp(back, in) != 0 ||
            dt_patente_leer(out, 6, &t, NULL) != DT_OK || t != DT_PATENTE_MOTO || out[3] != '-') {
            if (fallas++ < 3) fprintf(stderr, "plate %s -> %s -> %s\n", in, out, back);
            continue;
        }
        uint32_t y = 0;
        for (int j = 0; j < 3; j++) y = y * 18 + (uint32_t)(strchr(LETRAS, out[j]) - LETRAS);
        colisiones += !nuevo(y * 100 + (uint32_t)((out[4] - '0') * 10 + (out[5] - '0')));
    }
    memset(visto, 0, NA / 8 + 1);
    for (int a = 0; a < 26; a++)
        for (int b = 0; b < 26; b++) {
            char in[16] = {(char)('A' + a), (char)('A' + b), '0', '0', '0', '0', 0};
            if (dt_patente_leer(in, 6, NULL, NULL) != DT_OK) continue;
            for (uint32_t num = 0; num < 10000u; num += PASO, antiguas++) {
                char out[16], back[16];
                snprintf(in + 2, 8, "%04u", num);
                size_t l;
                dt_patente_tipo t;
                if (dt_mascara_patente(K, in, 6, out, sizeof out, &l, NULL, 0) != DT_OK ||
                    dt_mascara_patente_inversa(K, out, l, back, sizeof back, &l, NULL, 0) != DT_OK ||
                    strcmp(back, in) != 0 || dt_patente_leer(out, 6, &t, NULL) != DT_OK || t != DT_PATENTE_ANTIGUA) {
                    if (fallas++ < 3) fprintf(stderr, "plate %s -> %s -> %s\n", in, out, back);
                    continue;
                }
                uint32_t y = (uint32_t)((out[0] - 'A') * 26 + (out[1] - 'A')) * 10000u + (uint32_t)atoi(out + 2);
                colisiones += !nuevo(y);
            }
        }
    CHECK(fallas == 0 && colisiones == 0 && motos == 583200 / (int)PASO && antiguas == 5820000 / (int)PASO,
          "motorcycle and old plates: %d failures, %d collisions (%d motorcycles, %d old)", fallas, colisiones, motos,
          antiguas);
    free(visto);
    /* check digits recomputed (by the test's own digit, below), case and separators kept */
    char con_dv[4][16];
    snprintf(con_dv[0], 16, "BBCD12-%c", dv_patente("BBCD12"));
    snprintf(con_dv[1], 16, "bbcd\xc2\xb7" "12-%c", dv_patente("BBCD12"));
    snprintf(con_dv[2], 16, "WXYZ99%c", dv_patente("WXYZ99"));
    snprintf(con_dv[3], 16, "BBC·01-%c", dv_patente("BBC01"));
    const char *formas[] = {"bbcd·12", "BBCD.12", "BBCD12", "BBC·01", "ab·1234", "AB-1234", "bbc-12",
                            con_dv[0], con_dv[1], con_dv[2], con_dv[3]};
    for (size_t i = 0; i < sizeof formas / sizeof formas[0]; i++) {
        char b[32];
        size_t l;
        CHECK_OK(dt_mascara_patente(K, formas[i], strlen(formas[i]), b, sizeof b, &l, NULL, 0), "plate '%s'", formas[i]);
        int ok = l == strlen(formas[i]) && dt_patente_leer(b, l, NULL, NULL) == DT_OK;
        size_t alnum = 0;
        char limpio[16];
        for (size_t j = 0; ok && j < l; j++) {
            char x = formas[i][j], y = b[j];
            int ultimo = i >= 7 && j == l - 1; /* the check digit may become a K */
            ok = ((x >= 'a' && x <= 'z') == (y >= 'a' && y <= 'z') || ultimo) &&
                 ((x >= '0' && x <= '9') == (y >= '0' && y <= '9') || ultimo) &&
                 ((x >= '0' && x <= '9') || (x >= 'a' && x <= 'z') || (x >= 'A' && x <= 'Z') || x == y);
            if (((y >= '0' && y <= '9') || (y >= 'a' && y <= 'z') || (y >= 'A' && y <= 'Z')) && alnum < 15)
                limpio[alnum++] = y >= 'a' && y <= 'z' ? (char)(y - 'a' + 'A') : y;
        }
        limpio[alnum] = 0;
        if (ok && i >= 7) { /* the output's check digit is the right one for the output's plate */
            char dv = limpio[alnum - 1];
            limpio[alnum - 1] = 0;
            ok = dv_patente(limpio) == dv;
        }
        CHECK(ok, "plate form '%s' -> '%s'", formas[i], b);
    }
    char why[DT_SENTENCE_MAX], b[32];
    size_t l;
    const char *malos[] = {"", "AEIO12", "BBCD09", "BBCD1", "QQ1234", "BBCD-12-0", "BB CD12"};
    for (size_t i = 0; i < sizeof malos / sizeof malos[0]; i++)
        CHECK(dt_mascara_patente(K, malos[i], strlen(malos[i]), b, sizeof b, &l, why, sizeof why) == DT_ERR_INVALID_PATENTE &&
                  b[0] == 0 && strncmp(why, "patente: ", 9) == 0,
              "'%s' refused: %s", malos[i], why);
}

/* ---- the rules through a plan: the RUT of a note is the rut column's ---- */

static void plan(void) {
    const char *reglas = "version = 1\n[columnas]\nrut = { regla = \"rut\" }\nemail = { regla = \"email\" }\n"
                         "fono = { regla = \"telefono\" }\nppu = { regla = \"patente\" }\nnotas = { regla = \"texto\" }\n"
                         "solo = { regla = \"texto\", buscar = [\"email\"] }\n";
    char why[DT_SENTENCE_MAX];
    dt_mascara_reglas *r = NULL;
    CHECK_OK(dt_mascara_reglas_new(reglas, strlen(reglas), DT_MASCARA_TOML, "reglas.toml", &r, why, sizeof why), "%s", why);
    const char *cols[] = {"rut", "email", "fono", "ppu", "notas", "solo"};
    size_t cl[6];
    for (int i = 0; i < 6; i++) cl[i] = strlen(cols[i]);
    dt_mascara_plan *p = NULL;
    CHECK_OK(dt_mascara_plan_new(r, K, 6, cols, cl, &p, why, sizeof why), "%s", why);
    if (p == NULL) return;
    const char *v[] = {"12.345.678-5", "ana@x.cl", "+56 9 8765 4321", "BBCD·12",
                       "cliente 12345678-5 (ana@x.cl, +56 9 8765 4321, BBCD·12)", "ana@x.cl 12345678-5"};
    size_t vl[6];
    for (int i = 0; i < 6; i++) vl[i] = strlen(v[i]);
    CHECK_OK(dt_mascara_plan_fila(p, 1, 6, v, vl, why, sizeof why), "%s", why);
    char o[6][200];
    for (size_t i = 0; i < 6; i++) {
        size_t l;
        const char *x = dt_mascara_plan_valor(p, i, &l);
        snprintf(o[i], sizeof o[i], "%.*s", (int)l, x);
    }
    char esp[1024], rut_sin[32];
    snprintf(rut_sin, sizeof rut_sin, "%s", m(dt_mascara_rut, "12345678-5"));
    /* the rule telefono writes dt_mascara_telefono's number with its subscriber part starting with 0: nobody's */
    char tel[64];
    snprintf(tel, sizeof tel, "%s", m(dt_mascara_telefono, v[2]));
    nadie(tel);
    CHECK(strcmp(o[0], m(dt_mascara_rut, v[0])) == 0 && strcmp(o[1], m(dt_mascara_email, v[1])) == 0 &&
              strcmp(o[2], tel) == 0 && strcmp(o[3], m(dt_mascara_patente, v[3])) == 0,
          "the column rules: %s | %s | %s | %s", o[0], o[1], o[2], o[3]);
    snprintf(esp, sizeof esp, "cliente %s (%s, %s, %s)", rut_sin, o[1], o[2], o[3]);
    CHECK(strcmp(o[4], esp) == 0, "the note: %s\n    expected %s", o[4], esp);
    char sin_puntos[32], *q = sin_puntos;
    for (const char *c = o[0]; *c; c++)
        if (*c != '.') *q++ = *c;
    *q = 0;
    uint32_t cu;
    CHECK(strcmp(sin_puntos, rut_sin) == 0 && rut_ref_ok(rut_sin, DT_RUT_GUION, &cu), "the note's RUT %s is not the column's %s", rut_sin, o[0]);
    snprintf(esp, sizeof esp, "%s 12345678-5", o[1]);
    CHECK(strcmp(o[5], esp) == 0, "buscar = [email]: %s", o[5]);
    const char *malo[] = {"12.345.678-5", "ana@x", "+56 8 1234 5678", "BBCD·12", "", ""};
    size_t ml[6];
    for (int i = 0; i < 6; i++) ml[i] = strlen(malo[i]);
    dt_status st = dt_mascara_plan_fila(p, 7, 6, malo, ml, why, sizeof why);
    CHECK(st == DT_ERR_INVALID_ARG && strcmp(why, "row 7, column email: not a valid email (email: the domain has no dot); "
                                                  "politica.invalido is \"error\"") == 0,
          "bad email: %s", why);
    dt_mascara_plan_free(p);
    dt_mascara_reglas_free(r);
    const char *refused[][2] = {
        {"version = 1\n[columnas]\nn = { regla = \"texto\", buscar = [] }\n",
         "reglas.toml:3: columnas.n.buscar must be a non-empty array of \"rut\", \"email\", \"telefono\", \"patente\", \"nombre\" and \"direccion\""},
        {"version = 1\n[columnas]\nn = { regla = \"texto\", buscar = [\"rut\", \"nombres\"] }\n",
         "reglas.toml:3: columnas.n.buscar[1] must be \"rut\", \"email\", \"telefono\", \"patente\", \"nombre\" or \"direccion\", each once"},
        {"version = 1\n[columnas]\nn = { regla = \"email\", buscar = [\"rut\"] }\n",
         "reglas.toml:3: columnas.n: unknown key 'buscar' (the rule email takes only regla)"},
    };
    for (size_t i = 0; i < 3; i++) {
        dt_mascara_reglas *x = NULL;
        st = dt_mascara_reglas_new(refused[i][0], strlen(refused[i][0]), DT_MASCARA_TOML, "reglas.toml", &x, why, sizeof why);
        CHECK(st == DT_ERR_INVALID_ARG && x == NULL && strcmp(why, refused[i][1]) == 0, "rules %s\n    expected %s\n    got      %s",
              refused[i][0], refused[i][1], why);
        dt_mascara_reglas_free(x);
    }
}

/* Arbitrary bytes: no crash, the length reported the length written, and the bytes outside what was
 * replaced kept (a text of bytes that start no token comes back as it is). */
static void bytes(void) {
    static char in[4096], out[32768], otra[32768];
    const char alfabeto[] = "0123456789.-+@ ()kKBCDabx\xc2\xb7\xe2\x80\x90\xff\x00\n";
    for (int it = 0; it < 20000 / (int)PASO; it++) {
        size_t n = xorshift() % 300;
        for (size_t i = 0; i < n; i++) in[i] = alfabeto[xorshift() % (sizeof alfabeto - 1)];
        size_t l, l2;
        dt_status st = dt_mascara_texto(K, 15, in, n, out, sizeof out, &l, NULL, 0);
        CHECK(st == DT_OK && l <= 7 * n + 1, "iteration %d: status %d, %zu bytes from %zu", it, (int)st, l, n);
        st = dt_mascara_texto(K, 15, in, n, otra, l + 1, &l2, NULL, 0);
        CHECK(st == DT_OK && l2 == l && memcmp(out, otra, l) == 0, "iteration %d: the exact capacity", it);
    }
    /* 1 MiB of digits and dots, and of local-part characters: linear (this would take minutes if not) */
    enum { M = 1 << 20 };
    char *big = malloc(M), *bo = malloc(8 * (size_t)M);
    for (size_t i = 0; i < M; i++) big[i] = "1.-a@"[i % 5];
    size_t l;
    CHECK_OK(dt_mascara_texto(K, 15, big, M, bo, 8 * (size_t)M, &l, NULL, 0), "1 MiB");
    for (size_t i = 0; i < M; i++) big[i] = i % 2 ? '.' : '9';
    CHECK_OK(dt_mascara_texto(K, 15, big, M, bo, 8 * (size_t)M, &l, NULL, 0), "1 MiB");
    CHECK(l == M && memcmp(big, bo, M) == 0, "9.9.9... untouched");
    free(big);
    free(bo);
}

/* Names in prose (issue 39): which words are replaced (the words of a name: each becomes another word of
 * the same shape, the honorifics, particles, spaces and punctuation kept) and which are not (everyday
 * words that are also names, a lone name, lower case with an everyday word). `plantilla` marks with
 * '#' each word that must change; every other byte must stay. */
static void nombres(void) {
    static const struct { const char *in, *marcas; } c[] = {
        {"Sr. Juan Pérez llamó.", "Sr. #### ##### llamó."},
        {"la Sra. María José González Rojas vino", "la Sra. ##### #### ######## ##### vino"},
        {"habló con doña rosa ayer", "habló con doña #### ayer"},
        {"Se contactó a Pedro Soto y a J. Pérez.", "Se contactó a ##### #### y a #. #####."},
        {"Juan Carlos De La Fuente y Ana San Martín", "#### ###### De La ###### y ### San ######"},
        {"CLIENTE JUAN PEREZ LLAMA", "CLIENTE #### ##### LLAMA"},
        {"cliente juan pérez llama", "cliente #### ##### llama"},
        {"Dr. Muñoz atendió", "Dr. ###### atendió"},
        /* not names */
        {"la rosa y la paz, Rosa en Paz, Mercedes Benz", NULL},
        {"Luz roja, Soto dijo, campos flores, rosa soto, La Paz, Los Ángeles", NULL},
        {"Flores y Rosas; la flor de la luz", NULL},
        /* addresses: the street word kept, the name and the numbers replaced (checked below) */
        {"Las Condes 2024, los Andes 3 goles, la calle cerrada 2 días, Camino a casa 2 veces", NULL},
    };
    for (size_t q = 0; q < sizeof c / sizeof c[0]; q++) {
        const char *in = c[q].in, *mk = c[q].marcas ? c[q].marcas : c[q].in;
        const char *got = texto(in, DT_MASCARA_BUSCAR_TODO);
        /* walk both: outside the marks byte for byte; each marked word replaced by a different word
         * of letters whose first letter has the case of the original's */
        size_t a = 0, b = 0, k = 0;
        int ok = 1;
        while (mk[k] && ok) {
            if (mk[k] != '#') {
                ok = got[b] == mk[k] && in[a] == mk[k];
                a++, b++, k++;
                continue;
            }
            size_t ka = k, ia = a, ga = b;
            while (mk[k] == '#') k++;
            (void)ka; /* the input word: its letters, whatever their bytes */
            while (in[a] && ((in[a] >= 'A' && in[a] <= 'Z') || (in[a] >= 'a' && in[a] <= 'z') || (unsigned char)in[a] >= 0x80)) a++;
            while (got[b] && ((got[b] >= 'A' && got[b] <= 'Z') || (got[b] >= 'a' && got[b] <= 'z') || (unsigned char)got[b] >= 0x80)) b++;
            ok = b > ga && !(b - ga == a - ia && memcmp(got + ga, in + ia, a - ia) == 0) &&
                 ((in[ia] >= 'A' && in[ia] <= 'Z') == (got[ga] >= 'A' && got[ga] <= 'Z'));
        }
        ok = ok && got[b] == '\0';
        CHECK(ok, "names: texto of\n      [%s]\n    expected the words marked in [%s] replaced, the rest kept\n    got [%s]",
              in, mk, got);
        if (c[q].marcas == NULL) CHECK(strcmp(got, in) == 0, "names: [%s] must stay, got [%s]", in, got);
    }
    static const struct { const char *in, *antes, *despues; } d[] = {
        {"Vive en Pasaje Los Aromos 1234, Puente Alto.", "Vive en Pasaje ", ", Puente Alto."},
        {"en Av. Grecia 1450 depto 32 hoy", "en Av. ", " hoy"},
        {"Los Lirios 2812, San Felipe", "", ", San Felipe"},
        {"Calle Esmeralda N\xc2\xb0 120.", "Calle ", "."},
        {"Pedro Aguirre Cerda 358; ok", "", "; ok"},
    };
    for (size_t q = 0; q < sizeof d / sizeof d[0]; q++) {
        const char *got = texto(d[q].in, DT_MASCARA_BUSCAR_DIRECCION);
        size_t la = strlen(d[q].antes), ld = strlen(d[q].despues), lg = strlen(got), li = strlen(d[q].in);
        /* what lies between: another street and other numbers (the original's middle nowhere in it) */
        char medio[128];
        snprintf(medio, sizeof medio, "%.*s", (int)(li - la - ld), d[q].in + la);
        int ok = lg > la + ld && strncmp(got, d[q].antes, la) == 0 && strcmp(got + lg - ld, d[q].despues) == 0 &&
                 strstr(got, medio) == NULL;
        /* each run of digits of the original's middle is gone */
        for (const char *p = medio; *p && ok; p++)
            if (*p >= '0' && *p <= '9' && (p == medio || !(p[-1] >= '0' && p[-1] <= '9'))) {
                char num[8];
                size_t l = strspn(p, "0123456789");
                snprintf(num, sizeof num, "%.*s", (int)l, p);
                ok = strstr(got + la, num) == NULL || l == 1;
            }
        CHECK(ok, "address: texto of [%s] gave [%s]", d[q].in, got);
    }
    /* one word, one fake everywhere: the same surname in two notes, the same replacement */
    char a1[256], a2[256];
    strcpy(a1, texto("Sr. Pérez", DT_MASCARA_BUSCAR_NOMBRE));
    strcpy(a2, texto("Sra. Ana Pérez", DT_MASCARA_BUSCAR_NOMBRE));
    CHECK(strlen(a1) > 4 && strstr(a2, a1 + 4) != NULL, "names: Pérez gave [%s] and [%s]", a1, a2);
    CHECK(strcmp(texto("Sr. Juan Pérez", DT_MASCARA_BUSCAR_RUT), "Sr. Juan Pérez") == 0, "names: only with _NOMBRE");
}

/* Issue 48: emails written for people ("juan at gmail.com"): the email rule's output for the address
 * they stand for, written with the note's separators; comunas named after people stay. */
static void escritos(void) {
    static const struct {
        const char *in, *correo, *sep, *punto;
    } c[] = {{"juan.perez at gmail.com", "juan.perez@gmail.com", " at ", "."},
             {"juan [at] gmail.com", "juan@gmail.com", " [at] ", "."},
             {"ana(arroba)gmail.com", "ana@gmail.com", "(arroba)", "."},
             {"pedro (at) dominio.cl", "pedro@dominio.cl", " (at) ", "."},
             {"rosa arroba gmail punto com", "rosa@gmail.com", " arroba ", " punto "},
             {"ROSA @ Gmail.com", "ROSA@Gmail.com", " @ ", "."}};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        const char *e = m(dt_mascara_email, c[i].correo);
        char esperado[256];
        const char *at = strchr(e, '@');
        size_t k = (size_t)(at - e), q = 0;
        memcpy(esperado, e, k), q = k;
        strcpy(esperado + q, c[i].sep), q += strlen(c[i].sep);
        for (const char *r = at + 1; *r; r++) {
            if (*r == '.') strcpy(esperado + q, c[i].punto), q += strlen(c[i].punto);
            else esperado[q++] = *r;
        }
        esperado[q] = '\0';
        char in[128];
        snprintf(in, sizeof in, "Correo: %s.", c[i].in);
        const char *got = texto(in, DT_MASCARA_BUSCAR_TODO);
        CHECK(strncmp(got, "Correo: ", 8) == 0 && strncmp(got + 8, esperado, q) == 0 && strcmp(got + 8 + q, ".") == 0,
              "written email [%s]: expected [Correo: %s.], got [%s]", c[i].in, esperado, got);
    }
    static const char *const comunas[] = {"Vive en Pedro Aguirre Cerda.", "Sucursal San Pedro de la Paz.", "De Padre Las Casas a Padre Hurtado.",
                                          "Viaja a MAR\xc3\x8d" "A PINTO? no: en Mar\xc3\xad" "a Pinto.", "Vive en Juan Fern\xc3\xa1ndez."};
    for (size_t i = 0; i < sizeof comunas / sizeof comunas[0]; i++) {
        const char *got = texto(comunas[i], DT_MASCARA_BUSCAR_TODO);
        if (i == 3) CHECK(strstr(got, "en Mar\xc3\xad" "a Pinto.") != NULL && strstr(got, "MAR\xc3\x8d" "A PINTO") == NULL, "comuna [%s]: got [%s]", comunas[i], got);
        else CHECK(strcmp(got, comunas[i]) == 0, "comuna [%s] changed: [%s]", comunas[i], got);
    }
    /* a comuna that is a person's name too is one after an honorific or with no place's word */
    CHECK(strstr(texto("Sr. Pedro Aguirre Cerda llam\xc3\xb3; atendi\xc3\xb3 Juan Fern\xc3\xa1ndez", DT_MASCARA_BUSCAR_TODO), "Pedro") == NULL, "an honorific's name");
    CHECK(strstr(texto("atendi\xc3\xb3 Juan Fern\xc3\xa1ndez", DT_MASCARA_BUSCAR_TODO), "Juan") == NULL, "Juan Fernandez, a person");
}

int main(int argc, char **argv) {
    if ((argc == 2 && strcmp(argv[1], "--corto") == 0) || getenv("DT_TEST_CORTO")) PASO = 20;
    K = NULL;
    CHECK_OK(dt_mascara_clave_new(CLAVE_A, 64, &K, NULL, 0), "key");
    spans();
    nombres();
    ejemplos();
    email();
    escritos();
    telefono();
    patente();
    plan();
    bytes();
    dt_mascara_clave_free(K);
    return dt_test_done("test_mascara_texto");
}
