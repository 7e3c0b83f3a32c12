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

/* The opt-in every refusal below names, and how to make a real key instead. */
#define DT__MC_HAZ                                                                                                     \
    "; make a key with `openssl rand -hex 32`, or allow a test key for tests only (--clave-de-prueba, "               \
    "clave_de_prueba=True, claveDePrueba: true, DT_MASCARA_CLAVE_DE_PRUEBA)"

/* A key anyone can have, or guess (docs/enmascarar.md, "What is refused, and why"), judged on its 32
 * bytes in this order, the first that holds naming the kind:
 *  1. the published test key (bytes 0, 1, ..., 31: fixtures/mascara.json's "clave_de_prueba");
 *  2. one byte repeated 32 times (64 zeros, 64 'f': a placeholder);
 *  3. a block of 2 to 16 bytes repeated: b[i] == b[i - p] for every i >= p, for some p from 2 to 16
 *     (deadbeef x 8 is p = 4, 0123456789abcdef x 4 is p = 8, one 16-byte half twice is p = 16);
 *  4. bytes that count by a fixed step: b[i + 1] - b[i] the same (mod 256) for every i (the test key
 *     shifted, reversed, or counting by two);
 *  5. fewer than 16 distinct byte values among the 32, or one value more than 8 times (a quarter).
 * A key from `openssl rand -hex 32` is refused by 3 or 4 with a probability under 2^-120 and by 5
 * under 10^-11 (one value 9 times or more: about 1.4 x 10^-12; 15 distinct values or fewer: about
 * 3 x 10^-17), so the rule costs no real key anything. Integers only. The sentence names which kind and
 * counts (a period, a number of values), never the bytes. */
static const char *dt__clave_conocida(const uint8_t maestra[32], char *frase, size_t cap) {
    int prueba = 1, paso = 1;
    for (size_t i = 0; i < 32; i++) {
        prueba &= maestra[i] == (uint8_t)i;
        if (i >= 2) paso &= (uint8_t)(maestra[i] - maestra[i - 1]) == (uint8_t)(maestra[1] - maestra[0]);
    }
    if (prueba)
        return "clave: the key given is the published test key (bytes 00 01 02 ... 1f), with which anyone can undo the "
               "masking" DT__MC_HAZ;
    size_t periodo = 0; /* the shortest block the key repeats, 1 to 16, or 0 */
    for (size_t p = 1; p <= 16 && periodo == 0; p++) {
        size_t i = p;
        while (i < 32 && maestra[i] == maestra[i - p]) i++;
        if (i == 32) periodo = p;
    }
    if (periodo == 1)
        return "clave: the key given is one byte repeated 32 times, a placeholder rather than a secret" DT__MC_HAZ;
    if (periodo > 1) {
        snprintf(frase, cap, "clave: the key given is a block of %zu bytes repeated, a pattern rather than a secret" DT__MC_HAZ,
                 periodo);
        return frase;
    }
    if (paso)
        return "clave: the key given has bytes that count by a fixed step (each the one before plus the same number), a "
               "pattern rather than a secret" DT__MC_HAZ;
    uint8_t veces[256] = {0};
    size_t distintos = 0, mas = 0;
    for (size_t i = 0; i < 32; i++) {
        distintos += veces[maestra[i]] == 0;
        if (++veces[maestra[i]] > mas) mas = veces[maestra[i]];
    }
    dt__borrar(veces, sizeof veces); /* a histogram of the key is a part of it */
    if (mas > 8) {
        snprintf(frase, cap,
                 "clave: the key given has one byte value as %zu of its 32 bytes (more than a quarter), too regular "
                 "for a secret" DT__MC_HAZ,
                 mas);
        return frase;
    }
    if (distintos < 16) {
        snprintf(frase, cap,
                 "clave: the key given has only %zu distinct byte values among its 32 bytes (a random key has about "
                 "30; fewer than 16 is refused), too regular for a secret" DT__MC_HAZ,
                 distintos);
        return frase;
    }
    return NULL;
}

int dt__parece_clave_en(const char *s, size_t n) {
    /* 16 digits with a letter: a key's quoted prefix (40 bytes of a line) always has both, while a plain
     * number, a date or a RUT has no letter; 64 of any: a key of digits only (1 in 10^13) */
    size_t corrida = 0;
    int letra = 0;
    for (size_t i = 0; i < n; i++) {
        int v = dt__hex_valor(s[i]);
        if (v < 0) {
            corrida = 0, letra = 0;
            continue;
        }
        corrida++;
        letra |= v >= 10;
        if ((corrida >= 16 && letra) || corrida >= 64) return 1;
    }
    return 0;
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
    const char *conocida = (opciones & DT_MASCARA_CLAVE_DE_PRUEBA) ? NULL : dt__clave_conocida(maestra, frase, sizeof frase);
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
