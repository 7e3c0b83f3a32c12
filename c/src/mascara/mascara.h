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
};

#define DT__MC_ETIQUETA_PERSONA "datoteca/persona/v1"
#define DT__MC_ETIQUETA_FECHA "datoteca/fecha/v1"
#define DT__MC_ETIQUETA_MONTO "datoteca/monto/v1"
#define DT__MC_ETIQUETA_SUSTITUIR "datoteca/sustituir/v1"

/* The index of the class holding `cuerpo` (1..DT_RUT_CUERPO_MAX). */
int dt__mc_clase_de(uint32_t cuerpo);

#endif
