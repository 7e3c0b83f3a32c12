/* The masking key's contents, shared by clave.c and mascara_rut.c. Internal. */
#ifndef DT_MASCARA_H
#define DT_MASCARA_H

#include "datoteca.h"
#include "mascara/prf.h"

/* The RUT body classes (docs/enmascarar.md): contiguous ranges covering 1..DT_RUT_CUERPO_MAX, each
 * permuted onto itself under its own subkey. The order is part of the mapping contract. */
#define DT__MC_CLASES 6

typedef struct dt__mc_clase {
    uint32_t min, max;      /* inclusive */
    unsigned b;             /* width of the Feistel domain: the smallest t with 2^t >= max - min + 1 */
    const char *etiqueta;   /* the purpose label its subkey is derived with */
} dt__mc_clase;

extern const dt__mc_clase dt__mc_clases[DT__MC_CLASES];

struct dt_mascara_clave {
    /* Per class, the SipHash-2-4 key (k0, k1): the first 16 bytes of its BLAKE2s-256 subkey read as
     * two little-endian words. Nothing else of the master key is kept. */
    uint64_t rut[DT__MC_CLASES][2];
    /* The persona seed's SipHash-2-4 key: the first 16 bytes of BLAKE2s-256(key, "datoteca/persona/v1"). */
    uint64_t persona[2];
    /* The value rules' SipHash-2-4 keys (docs/enmascarar.md, "fecha", "monto", "sustituir"): the
     * first 16 bytes of BLAKE2s-256(key, "datoteca/<rule>/v1"), two little-endian words each. */
    uint64_t fecha[2], monto[2], sustituir[2];
    /* The value kinds (mascara_identificadores.c): email's BLAKE2s key, all 32 bytes of BLAKE2s-256(key,
     * "datoteca/email/v1"); the phone's and the plate's SipHash keys as rut's. */
    uint8_t email[32];
    uint64_t telefono[2], patente[2];
    /* formato, ip, coordenada and phones of other countries (mascara_formas.c): all 32 bytes of
     * BLAKE2s-256(key, "datoteca/formas/v1"), the BLAKE2s key of their streams. */
    uint8_t formas[32];
};

#define DT__MC_ETIQUETA_PERSONA "datoteca/persona/v1"
#define DT__MC_ETIQUETA_FECHA "datoteca/fecha/v1"
#define DT__MC_ETIQUETA_MONTO "datoteca/monto/v1"
#define DT__MC_ETIQUETA_SUSTITUIR "datoteca/sustituir/v1"

/* The index of the class holding `cuerpo` (1..DT_RUT_CUERPO_MAX). */
int dt__mc_clase_de(uint32_t cuerpo);

/* A keyed permutation of [0, n) (1 <= n <= 2^31) under the SipHash key k: the RUT's ten-round Feistel
 * network of width t (the smallest t >= 1 with 2^t >= n) with cycle-walking, `tweak` (16 bits) in
 * the round message's bytes 2 and 3 (0 for every RUT class). x < n. Pure. */
uint32_t dt__mc_permutar(const uint64_t k[2], uint32_t tweak, uint32_t n, uint32_t x, int inversa);

/* Derive the value kinds' subkeys from the 32 master bytes into k (clave.c calls it). */
void dt__mc_claves_valores(dt_mascara_clave *k, const uint8_t maestra[32]);

/* The kinds dt__mc_valor masks (the rules email, telefono, patente, texto, formato, ip, coordenada). */
enum { DT__MC_EMAIL = 1, DT__MC_TELEFONO, DT__MC_PATENTE, DT__MC_TEXTO, DT__MC_FORMATO, DT__MC_IP, DT__MC_COORDENADA,
       DT__MC_IMAGEN };
/* One value of kind `tipo` as its rule masks it (texto: with `buscar`; telefono: `buscar` non-zero is
 * realista = true). email and telefono read more than the public dt_mascara_email/_telefono: Unicode
 * addresses, foreign phones; and telefono writes a number nobody holds unless realista. */
dt_status dt__mc_valor(const dt_mascara_clave *k, int tipo, unsigned buscar, const char *in, size_t len, char *buf,
                       size_t cap, size_t *out_len, char *why, size_t whycap);

/* A Chilean phone as texto masks one inside a note: what the rule telefono writes for it (a number
 * nobody holds), refused as dt_mascara_telefono refuses what is not Chile's plan. */
dt_status dt__mc_telefono_texto(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                                size_t *out_len, char *why, size_t whycap);

/* The value rules' common prologue (mascara_identificadores.c): NULL checks naming `tipo`, why and buf
 * emptied, the value trimmed of ASCII whitespace to [*a, *b). */
dt_status dt__mc_inicio(const char *tipo, const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                        char *why, size_t whycap, size_t *a, size_t *b);

/* mascara_formas.c: the formas subkey (dt__mc_claves_valores calls it); the rules formato, ip and
 * coordenada, arguments and refusals as dt_mascara_email's; a phone of another country than Chile's
 * plan, [a, b) of in, its digits but the calling code replaced into out (b - a bytes): 0, or -1 when
 * it is not a phone. Pure, thread-safe. */
void dt__mf_claves(dt_mascara_clave *k, const uint8_t maestra[32]);
dt_status dt__mc_formato(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap, size_t *out_len,
                         char *why, size_t whycap);
dt_status dt__mc_ip(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap, size_t *out_len,
                    char *why, size_t whycap);
dt_status dt__mc_coordenada(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                            size_t *out_len, char *why, size_t whycap);
int dt__mf_telefono_otro(const dt_mascara_clave *k, const char *in, size_t a, size_t b, char *out);
/* mascara_imagen.c: the rule imagen (a placeholder of the image's format, raw bytes or bytea's \x text);
 * and which format the value's first bytes say (1 PNG, 2 JPEG, 3 GIF, 4 WebP, 0 none). */
dt_status dt__mc_imagen(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap, size_t *out_len,
                        char *why, size_t whycap);
int dt__mi_es_imagen(const char *in, size_t len);

/* The per-cell forms of fecha and monto (mascara_valores.c; docs/enmascarar.md): the draw keyed by
 * the cell (the column's name, the entity's masked body or 0, the value), then generalised: a date
 * to its month's or year's first day, an amount to `cifras` (1..14) significant digits. Arguments and
 * refusals as dt_mascara_fecha and dt_mascara_monto. Pure, thread-safe. */
enum { DT__MV_DIA = 0, DT__MV_MES, DT__MV_ANIO };
dt_status dt__mv_fecha_celda(const dt_mascara_clave *k, const char *in, size_t len, uint32_t entidad, const char *col,
                             size_t coln, int32_t dias, int generalizar, char *buf, size_t cap, size_t *out_len,
                             char *why, size_t whycap);
dt_status dt__mv_monto_celda(const dt_mascara_clave *k, const char *in, size_t len, uint32_t entidad, const char *col,
                             size_t coln, int32_t porcentaje, int32_t cifras, char *buf, size_t cap, size_t *out_len,
                             char *why, size_t whycap);

/* The rule persona's email and telefono of the persona p of the masked body `cuerpo`
 * (mascara_contacto.c): into out (at least 128 bytes), NUL-terminated; the length. */
size_t dt__mc_persona_email(const dt_persona *p, uint32_t cuerpo, int realista, char *out);
size_t dt__mc_persona_telefono(const dt_persona *p, uint32_t cuerpo, int realista, char *out);

#endif
