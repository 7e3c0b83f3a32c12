/* The key's refusals of issue 39 (docs/enmascarar.md, "The key"): dt_mascara_clave_leer and
 * dt_mascara_clave_archivo_texto refuse what is not a regular private file (a FIFO with no writer
 * promptly, a directory, a device, a mode 0644 file, a long file) and keys anyone can have (the
 * published test key, one byte repeated) unless the caller opts in; dt_mascara_clave_new_opciones
 * refuses those keys from text too, and dt_mascara_clave_new keeps accepting them. No sentence ever
 * holds the path given or 8 characters of the key. POSIX only (FIFOs, modes). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "datoteca.h"

static const char PRUEBA[] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
static const char CEROS[] = "0000000000000000000000000000000000000000000000000000000000000000";
static const char EFES[] = "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff";
static const char SIETES[] = "7777777777777777777777777777777777777777777777777777777777777777";
/* A key no one publishes (from `openssl rand -hex 32`), as a path would hold it when pasted by mistake. */
static const char REAL[] = "e340486e8c1f2b9d7a6054e3c1b2a9f8d7e6c5b4a3928170f6e5d4c3b2a19290";

static char dir[256];

/* Fails when `why` holds any 8 consecutive characters of `dado` (the path given or the key). */
static void sin_texto(const char *caso, const char *dado, const char *why) {
    size_t n = strlen(dado);
    for (size_t i = 0; i + 8 <= n; i++) {
        char v[9];
        memcpy(v, dado + i, 8);
        v[8] = '\0';
        CHECK(strstr(why, v) == NULL, "%s: the sentence repeats characters %zu..%zu of '%s': %s", caso, i + 1, i + 8, dado,
              why);
    }
}

static void escribir(const char *ruta, const char *texto, mode_t modo) {
    FILE *f = fopen(ruta, "wb");
    if (f == NULL || fputs(texto, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s: %s\n", ruta, strerror(errno));
        exit(1);
    }
    if (chmod(ruta, modo) != 0) {
        fprintf(stderr, "cannot chmod %s\n", ruta);
        exit(1);
    }
}

/* dt_mascara_clave_leer(ruta, opciones) refused with a sentence holding `espera`, neither the path nor the key. */
static void rechaza(const char *caso, const char *ruta, unsigned opciones, const char *espera) {
    dt_mascara_clave *k = (dt_mascara_clave *)1;
    char why[DT_SENTENCE_MAX];
    dt_status st = dt_mascara_clave_leer(ruta, opciones, &k, why, sizeof why);
    CHECK(st == DT_ERR_INVALID_ARG, "%s: expected DT_ERR_INVALID_ARG, got %d (%s)", caso, (int)st, why);
    CHECK(k == NULL, "%s: *out not NULL on a refusal", caso);
    CHECK(strstr(why, espera) != NULL, "%s: expected a sentence with '%s', got: %s", caso, espera, why);
    CHECK(strstr(why, "the key file given") != NULL || strstr(why, "the key given") != NULL,
          "%s: the sentence does not say 'the key file given': %s", caso, why);
    if (strncmp(ruta, dir, strlen(dir)) == 0 && strlen(ruta) > strlen(dir)) sin_texto(caso, ruta + strlen(dir) + 1, why);
    sin_texto(caso, REAL, why);
    /* the text form refuses the same way and leaves its buffer wiped */
    char buf[DT_MASCARA_CLAVE_ARCHIVO_MAX + 1];
    memset(buf, 'x', sizeof buf);
    size_t n = 99;
    char why2[DT_SENTENCE_MAX];
    st = dt_mascara_clave_archivo_texto(ruta, opciones, buf, sizeof buf, &n, why2, sizeof why2);
    CHECK(st == DT_ERR_INVALID_ARG && n == 0 && strcmp(why, why2) == 0,
          "%s: dt_mascara_clave_archivo_texto: status %d, len %zu, sentence '%s' (leer's: '%s')", caso, (int)st, n, why2, why);
    size_t nz = 0;
    for (size_t i = 0; i < sizeof buf; i++) nz += buf[i] != 0;
    CHECK(nz == 0, "%s: %zu bytes of the buffer not wiped after a refusal", caso, nz);
}

static void acepta(const char *caso, const char *ruta, unsigned opciones, const char *hex) {
    dt_mascara_clave *k = NULL, *ref = NULL;
    char why[DT_SENTENCE_MAX];
    CHECK_OK(dt_mascara_clave_leer(ruta, opciones, &k, why, sizeof why), "%s: %s", caso, why);
    CHECK_OK(dt_mascara_clave_new(hex, strlen(hex), &ref, why, sizeof why), "%s: reference key: %s", caso, why);
    if (k != NULL && ref != NULL) {
        /* the same key: the same masked RUT body */
        uint32_t a = 0, b = 0;
        CHECK_OK(dt_mascara_rut_cuerpo(k, 12345678, &a), "%s", caso);
        CHECK_OK(dt_mascara_rut_cuerpo(ref, 12345678, &b), "%s", caso);
        CHECK(a == b, "%s: the key read masks 12345678 to %u, the key built from its text to %u", caso, a, b);
    }
    char buf[DT_MASCARA_CLAVE_ARCHIVO_MAX + 1];
    size_t n = 0;
    CHECK_OK(dt_mascara_clave_archivo_texto(ruta, opciones, buf, sizeof buf, &n, why, sizeof why), "%s: texto: %s", caso,
             why);
    CHECK(n >= 64 && memcmp(buf, hex, 64) == 0, "%s: dt_mascara_clave_archivo_texto gave %zu bytes, not the key", caso, n);
    dt_mascara_clave_free(k);
    dt_mascara_clave_free(ref);
}

static void texto(void) {
    const char *const conocidas[] = {PRUEBA, CEROS, EFES, SIETES};
    for (size_t i = 0; i < 4; i++) {
        dt_mascara_clave *k = (dt_mascara_clave *)1;
        char why[DT_SENTENCE_MAX];
        dt_status st = dt_mascara_clave_new_opciones(conocidas[i], 64, 0, &k, why, sizeof why);
        CHECK(st == DT_ERR_INVALID_ARG && k == NULL, "known key %zu: new_opciones(0) gave %d", i, (int)st);
        CHECK(strstr(why, i == 0 ? "published test key" : "one byte repeated") != NULL, "known key %zu: sentence: %s", i,
              why);
        CHECK(strstr(why, "--clave-de-prueba") != NULL, "known key %zu: the sentence does not name the opt-in: %s", i, why);
        sin_texto("known key", conocidas[i], why);
        CHECK_OK(dt_mascara_clave_new_opciones(conocidas[i], 64, DT_MASCARA_CLAVE_DE_PRUEBA, &k, why, sizeof why),
                 "known key %zu with DT_MASCARA_CLAVE_DE_PRUEBA: %s", i, why);
        dt_mascara_clave_free(k);
        /* dt_mascara_clave_new: unchanged, every well-formed key (ABI and the contract fixture) */
        CHECK_OK(dt_mascara_clave_new(conocidas[i], 64, &k, why, sizeof why), "known key %zu, dt_mascara_clave_new: %s",
                 i, why);
        dt_mascara_clave_free(k);
    }
    dt_mascara_clave *k = NULL;
    char why[DT_SENTENCE_MAX];
    CHECK_OK(dt_mascara_clave_new_opciones(REAL, 64, 0, &k, why, sizeof why), "a real key, options 0: %s", why);
    dt_mascara_clave_free(k);
    /* one byte differing from the test key is an ordinary key (the check is exact, not a distance) */
    char casi[65];
    memcpy(casi, PRUEBA, 65);
    casi[63] = '0';
    CHECK_OK(dt_mascara_clave_new_opciones(casi, 64, 0, &k, why, sizeof why), "the test key with its last digit 0: %s", why);
    dt_mascara_clave_free(k);
}

/* The weak keys of issue 48 (docs/enmascarar.md, "What is refused, and why"): each refused without the
 * opt-in with the sentence of its kind, never with 8 of its digits; each accepted with
 * DT_MASCARA_CLAVE_DE_PRUEBA and by dt_mascara_clave_new (2.x); and keys one step away from each rule
 * (a real key's shape) accepted. */
static void debiles(void) {
    static const struct {
        const char *caso, *hex, *espera;
    } malas[] = {
        {"deadbeef x 8", "deadbeefdeadbeefdeadbeefdeadbeefdeadbeefdeadbeefdeadbeefdeadbeef", "a block of 4 bytes repeated"},
        {"0123456789abcdef x 4", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "a block of 8 bytes repeated"},
        {"a real key's 16-byte half twice", "e340486e8c1f2b9d7a6054e3c1b2a9f8e340486e8c1f2b9d7a6054e3c1b2a9f8",
         "a block of 16 bytes repeated"},
        {"3 bytes repeated (c0ffee)", "c0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ff", "a block of 3 bytes repeated"},
        {"2 bytes repeated (UPPER case)", "5A3C5A3C5A3C5A3C5A3C5A3C5A3C5A3C5A3C5A3C5A3C5A3C5A3C5A3C5A3C5A3C", "a block of 2 bytes repeated"},
        {"bytes 01 .. 20", "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20", "count by a fixed step"},
        {"bytes 1f .. 00", "1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100", "count by a fixed step"},
        {"bytes 00 02 04 ..", "00020406080a0c0e10121416181a1c1e20222426282a2c2e30323436383a3c3e", "count by a fixed step"},
        {"5a x 16 then c3 x 16", "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5ac3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3",
         "one byte value as 16 of its 32 bytes"},
        {"a real key's prefix, then ab x 28", "e340486eabababababababababababababababababababababababababababab",
         "one byte value as 28 of its 32 bytes"},
        {"9 zeros among 24 distinct", "000000000000000000e340486e8c1f2b9d7a6054c1b2a9f8d7e6c5b4a3928170",
         "one byte value as 9 of its 32 bytes"},
        {"15 distinct values, 2 or 3 of each", "0011223344556677889900112233445566778899aabbccddeeaabbccddeeaabb",
         "only 15 distinct byte values"},
    };
    char why[DT_SENTENCE_MAX];
    for (size_t i = 0; i < sizeof malas / sizeof malas[0]; i++) {
        CHECK(strlen(malas[i].hex) == 64, "%s: the test's key is %zu digits", malas[i].caso, strlen(malas[i].hex));
        dt_mascara_clave *k = (dt_mascara_clave *)1;
        dt_status st = dt_mascara_clave_new_opciones(malas[i].hex, 64, 0, &k, why, sizeof why);
        CHECK(st == DT_ERR_INVALID_ARG && k == NULL, "%s: new_opciones(0): expected DT_ERR_INVALID_ARG, got %d", malas[i].caso,
              (int)st);
        CHECK(strstr(why, malas[i].espera) != NULL, "%s: expected a sentence with '%s', got: %s", malas[i].caso,
              malas[i].espera, why);
        CHECK(strstr(why, "openssl rand -hex 32") != NULL && strstr(why, "--clave-de-prueba") != NULL,
              "%s: the sentence does not say how to make a key, or the opt-in: %s", malas[i].caso, why);
        CHECK(strstr(why, "the key given") != NULL, "%s: the sentence does not say 'the key given': %s", malas[i].caso, why);
        sin_texto(malas[i].caso, malas[i].hex, why);
        CHECK_OK(dt_mascara_clave_new_opciones(malas[i].hex, 64, DT_MASCARA_CLAVE_DE_PRUEBA, &k, why, sizeof why),
                 "%s with DT_MASCARA_CLAVE_DE_PRUEBA: %s", malas[i].caso, why);
        dt_mascara_clave_free(k);
        CHECK_OK(dt_mascara_clave_new(malas[i].hex, 64, &k, why, sizeof why), "%s, dt_mascara_clave_new: %s", malas[i].caso, why);
        dt_mascara_clave_free(k);
        /* from a key file: the same refusal, said of "the key file given" */
        char ruta[512], texto[80];
        snprintf(ruta, sizeof ruta, "%s/debil%zu.hex", dir, i);
        snprintf(texto, sizeof texto, "%s\n", malas[i].hex);
        escribir(ruta, texto, 0600);
        rechaza(malas[i].caso, ruta, 0, malas[i].espera);
        remove(ruta);
    }
    /* one byte away from each rule: accepted (the rules are exact, not a distance) */
    static const struct {
        const char *caso, *hex;
    } buenas[] = {
        {"16 distinct values, 2 of each, the second half reversed", "00112233445566778899aabbccddeeffffeeddccbbaa99887766554433221100"},
        {"8 zeros among 25 distinct", "0000000000000000e340486e8c1f2b9d7a6054c1b2a9f8d7e6c5b4a39281706f"},
        {"bytes 01 .. 1f then 00", "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f00"},
    };
    for (size_t i = 0; i < sizeof buenas / sizeof buenas[0]; i++) {
        dt_mascara_clave *k = NULL;
        CHECK(strlen(buenas[i].hex) == 64, "%s: the test's key is %zu digits", buenas[i].caso, strlen(buenas[i].hex));
        CHECK_OK(dt_mascara_clave_new_opciones(buenas[i].hex, 64, 0, &k, why, sizeof why), "%s: refused: %s", buenas[i].caso,
                 why);
        dt_mascara_clave_free(k);
    }
}

static void archivos(void) {
    char ruta[512];
    char why[DT_SENTENCE_MAX];
    /* a private key file: read, same key as its text; with a final newline too */
    snprintf(ruta, sizeof ruta, "%s/%s", dir, "clave.hex");
    escribir(ruta, REAL, 0600);
    acepta("mode 0600", ruta, 0, REAL);
    escribir(ruta, "e340486e8c1f2b9d7a6054e3c1b2a9f8d7e6c5b4a3928170f6e5d4c3b2a19290\n", 0400);
    acepta("mode 0400 with a newline", ruta, 0, REAL);

    /* readable by group or others: refused, accepted with DT_MASCARA_CLAVE_COMPARTIDA */
    escribir(ruta, REAL, 0644);
    rechaza("mode 0644", ruta, 0, "mode 644");
    acepta("mode 0644 with DT_MASCARA_CLAVE_COMPARTIDA", ruta, DT_MASCARA_CLAVE_COMPARTIDA, REAL);
    escribir(ruta, REAL, 0620);
    rechaza("mode 0620 (group may write)", ruta, 0, "chmod 600");
    escribir(ruta, REAL, 0604);
    rechaza("mode 0604", ruta, 0, "others may read");

    /* keys anyone can have, from a private file */
    escribir(ruta, PRUEBA, 0600);
    rechaza("the test key", ruta, 0, "published test key");
    acepta("the test key with DT_MASCARA_CLAVE_DE_PRUEBA", ruta, DT_MASCARA_CLAVE_DE_PRUEBA, PRUEBA);
    escribir(ruta, CEROS, 0600);
    rechaza("64 zeros", ruta, 0, "one byte repeated");
    escribir(ruta, EFES, 0600);
    rechaza("64 f", ruta, 0, "one byte repeated");
    acepta("64 f with DT_MASCARA_CLAVE_DE_PRUEBA", ruta, DT_MASCARA_CLAVE_DE_PRUEBA, EFES);

    /* malformed content: the parser's sentence, said of the file, no content */
    escribir(ruta, "e340486e8c1f2b9d7a6054e3c1b2a9f8d7e6c5b4a3928170f6e5d4c3b2a1929", 0600);
    rechaza("63 digits", ruta, 0, "the key file given has 63 hexadecimal digits");
    escribir(ruta, "", 0600);
    rechaza("empty", ruta, 0, "the key file given is empty");
    char largo[300];
    memset(largo, 'a', 299);
    largo[299] = '\0';
    escribir(ruta, largo, 0600);
    rechaza("299 bytes", ruta, 0, "299 bytes long");

    /* the path given is a key pasted by mistake: not in the sentence */
    snprintf(ruta, sizeof ruta, "%s/%s", dir, REAL);
    rechaza("a missing file named as a key", ruta, 0, "no such file or directory");

    /* not a regular file */
    rechaza("a directory", dir, 0, "a directory");
    rechaza("/dev/null", "/dev/null", DT_MASCARA_CLAVE_COMPARTIDA, "a character device");
    snprintf(ruta, sizeof ruta, "%s/%s", dir, "fifo");
    if (mkfifo(ruta, 0600) != 0) {
        fprintf(stderr, "mkfifo %s: %s\n", ruta, strerror(errno));
        exit(1);
    }
    /* With no writer, a blocking open would never return: the test sets an alarm so it fails rather than hangs. */
    alarm(10);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rechaza("a FIFO with no writer", ruta, 0, "a FIFO");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    alarm(0);
    long ms = (long)(t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
    CHECK(ms < 1000, "a FIFO with no writer took %ld ms to refuse", ms);
    unlink(ruta);

    /* a symbolic link is followed, and the file it reaches is judged (mounted secrets are links) */
    char destino[512];
    snprintf(destino, sizeof destino, "%s/%s", dir, "real.hex");
    escribir(destino, REAL, 0600);
    snprintf(ruta, sizeof ruta, "%s/%s", dir, "enlace");
    if (symlink(destino, ruta) != 0) {
        fprintf(stderr, "symlink: %s\n", strerror(errno));
        exit(1);
    }
    acepta("a link to a mode 0600 file", ruta, 0, REAL);
    chmod(destino, 0644);
    rechaza("a link to a mode 0644 file", ruta, 0, "mode 644");
    unlink(ruta);
    unlink(destino);

    /* NULLs and a short buffer */
    dt_mascara_clave *k = NULL;
    CHECK(dt_mascara_clave_leer(NULL, 0, &k, why, sizeof why) == DT_ERR_NULL, "NULL path");
    CHECK(dt_mascara_clave_leer(dir, 0, NULL, why, sizeof why) == DT_ERR_NULL, "NULL out");
    char poco[16];
    size_t n;
    CHECK(dt_mascara_clave_archivo_texto(dir, 0, poco, sizeof poco, &n, why, sizeof why) == DT_ERR_BUFFER_TOO_SMALL,
          "a 16-byte buffer");
    snprintf(ruta, sizeof ruta, "%s/%s", dir, "clave.hex");
    unlink(ruta);
}

int main(void) {
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/dt_clave_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL) {
        fprintf(stderr, "mkdtemp: %s\n", strerror(errno));
        return 1;
    }
    texto();
    debiles();
    archivos();
    rmdir(dir);
    return dt_test_done("test_mascara_clave");
}
