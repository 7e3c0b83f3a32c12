/* The masking key: 64 hexadecimal digits in, per-purpose subkeys out (docs/enmascarar.md).
 * Refusals name positions and lengths, never characters: a sentence must not carry any part of a
 * secret, not even of a wrong one (a mistyped key is one digit away from the real one). */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "mascara/mascara.h"

#define DT__MC_HEX 64 /* digits of a key: 32 bytes */

static int dt__hex_valor(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* What a character that is not a hex digit is, when saying so gives nothing of a key away. */
static const char *dt__no_hex(char c) {
    switch (c) {
    case ' ': return "a space";
    case '\t': return "a tab";
    case '\n': return "a newline";
    case '\r': return "a carriage return";
    case '\0': return "a NUL byte";
    default: return "not a hexadecimal digit (0-9, a-f, A-F)";
    }
}

static void dt__por_que(char *why, size_t whycap, const char *frase) {
    if (why != NULL) dt__sentence_out(frase, why, whycap, NULL);
}

/* A key anyone can have: the published test key (bytes 0, 1, ..., 31: fixtures/mascara.json's
 * "clave_de_prueba", printed in the docs) or one byte repeated 32 times (64 zeros, 64 'f': what a
 * placeholder or a wrongly made key looks like). The sentence names which kind, never the bytes. */
static const char *dt__clave_conocida(const uint8_t maestra[32]) {
    int prueba = 1, repetida = 1;
    for (size_t i = 0; i < 32; i++) {
        prueba &= maestra[i] == (uint8_t)i;
        repetida &= maestra[i] == maestra[0];
    }
    if (prueba)
        return "clave: the key given is the published test key (bytes 00 01 02 ... 1f), with which anyone can undo the "
               "masking; make a key with `openssl rand -hex 32`, or allow a test key for tests only "
               "(--clave-de-prueba, clave_de_prueba=True, claveDePrueba: true, DT_MASCARA_CLAVE_DE_PRUEBA)";
    if (repetida)
        return "clave: the key given is one byte repeated 32 times, a placeholder rather than a secret; make a key "
               "with `openssl rand -hex 32`, or allow a test key for tests only (--clave-de-prueba, "
               "clave_de_prueba=True, claveDePrueba: true, DT_MASCARA_CLAVE_DE_PRUEBA)";
    return NULL;
}

dt_status dt_mascara_clave_new(const char *hex, size_t len, dt_mascara_clave **out, char *why, size_t whycap) {
    /* as before 3.0: every well-formed key, the test key included (the contract fixture uses it) */
    return dt_mascara_clave_new_opciones(hex, len, DT_MASCARA_CLAVE_DE_PRUEBA, out, why, whycap);
}

dt_status dt_mascara_clave_new_opciones(const char *hex, size_t len, unsigned opciones, dt_mascara_clave **out, char *why,
                                        size_t whycap) {
    if (out != NULL) *out = NULL;
    if (why != NULL && whycap > 0) why[0] = '\0';
    if (out == NULL || (hex == NULL && len > 0)) {
        dt__por_que(why, whycap, out == NULL ? "clave: out is NULL" : "clave: hex is NULL but len is not 0");
        return DT_ERR_NULL;
    }
    char frase[DT_SENTENCE_MAX];
    size_t n = len;
    if (n > 0 && hex[n - 1] == '\n') n--; /* a key file's one final newline */
    size_t p = 0; /* the first character that is not a hex digit, or n */
    while (p < n && dt__hex_valor(hex[p]) >= 0) p++;
    if (p < n && p < DT__MC_HEX)
        snprintf(frase, sizeof frase,
                 "clave: character %zu of the key is %s; a key is 64 hexadecimal digits (32 bytes), optionally "
                 "followed by one newline",
                 p + 1, dt__no_hex(hex[p]));
    else if (n == 0)
        snprintf(frase, sizeof frase, "clave: the key is empty; a key is 64 hexadecimal digits (32 bytes)");
    else if (n < DT__MC_HEX)
        snprintf(frase, sizeof frase, "clave: the key has %zu hexadecimal digits, %zu too few; a key is 64 (32 bytes)", n,
                 DT__MC_HEX - n);
    else if (p < n)
        snprintf(frase, sizeof frase,
                 "clave: the key is %zu characters long, but only one newline may follow its 64 hexadecimal digits, and "
                 "character %zu is %s",
                 len, p + 1, dt__no_hex(hex[p]));
    else if (n > DT__MC_HEX)
        snprintf(frase, sizeof frase, "clave: the key has %zu hexadecimal digits, %zu too many; a key is 64 (32 bytes)", n,
                 n - DT__MC_HEX);
    if (n != DT__MC_HEX || p < n) {
        dt__por_que(why, whycap, frase);
        return DT_ERR_INVALID_ARG;
    }
    uint8_t maestra[32], sub[32];
    for (size_t i = 0; i < 32; i++)
        maestra[i] = (uint8_t)(dt__hex_valor(hex[2 * i]) << 4 | dt__hex_valor(hex[2 * i + 1]));
    const char *conocida = (opciones & DT_MASCARA_CLAVE_DE_PRUEBA) ? NULL : dt__clave_conocida(maestra);
    if (conocida != NULL) {
        dt__borrar(maestra, sizeof maestra);
        dt__por_que(why, whycap, conocida);
        return DT_ERR_INVALID_ARG;
    }
    dt_mascara_clave *k = malloc(sizeof *k);
    if (k == NULL) {
        dt__borrar(maestra, sizeof maestra);
        dt__por_que(why, whycap, "clave: out of memory");
        return DT_ERR_NO_MEMORY;
    }
    for (int c = 0; c < DT__MC_CLASES; c++) {
        const char *e = dt__mc_clases[c].etiqueta;
        dt__blake2s(sub, sizeof sub, maestra, sizeof maestra, (const uint8_t *)e, strlen(e));
        k->rut[c][0] = dt__le64(sub);
        k->rut[c][1] = dt__le64(sub + 8);
    }
    dt__blake2s(sub, sizeof sub, maestra, sizeof maestra, (const uint8_t *)DT__MC_ETIQUETA_PERSONA,
                strlen(DT__MC_ETIQUETA_PERSONA));
    k->persona[0] = dt__le64(sub);
    k->persona[1] = dt__le64(sub + 8);
    static const char *const valores[3] = {DT__MC_ETIQUETA_FECHA, DT__MC_ETIQUETA_MONTO, DT__MC_ETIQUETA_SUSTITUIR};
    uint64_t *destino[3] = {k->fecha, k->monto, k->sustituir};
    for (int i = 0; i < 3; i++) {
        dt__blake2s(sub, sizeof sub, maestra, sizeof maestra, (const uint8_t *)valores[i], strlen(valores[i]));
        destino[i][0] = dt__le64(sub);
        destino[i][1] = dt__le64(sub + 8);
    }
    dt__mc_claves_valores(k, maestra);
    dt__borrar(maestra, sizeof maestra);
    dt__borrar(sub, sizeof sub);
    *out = k;
    return DT_OK;
}

void dt_mascara_clave_free(dt_mascara_clave *k) {
    if (k == NULL) return;
    dt__borrar(k, sizeof *k);
    free(k);
}
