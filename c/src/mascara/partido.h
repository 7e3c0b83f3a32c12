/* Split and derived RUTs (mascara_partido.c), for the plan in reglas.c. Internal. */
#ifndef DT_MASCARA_PARTIDO_H
#define DT_MASCARA_PARTIDO_H

#include "datoteca.h"

/* The body of a value that is only a body (whitespace around; digits with leading zeros, or dotted in
 * groups of three): 0 and *cuerpo, or -1. */
int dt__mp_cuerpo_de(const char *s, size_t n, uint32_t *cuerpo);

/* A body column's value c (cn bytes) and its check digit column's dv (dn bytes), masked together: the
 * body into oc (room for cn + 8 bytes), the check digit into od (room for dn bytes), each keeping its
 * whitespace, dots, zero padding and a lower-case k. 0: masked. 1: (only when `invalido`) masked with
 * its check digit wrong by the same distance, or missing as it was. -1: refused, *por_que says why
 * without the value. */
int dt__mp_partido(const dt_mascara_clave *k, const char *c, size_t cn, const char *dv, size_t dn, int invalido,
                   char *oc, size_t *ocn, char *od, size_t *odn, const char **por_que);

/* A value made from a RUT body, into out (room for 7 * n + 8 bytes). With con_cuerpo: every run of
 * digits that reads as `cuerpo` (leading zeros, dots) is replaced by the masked body in the same form,
 * with a following "-<its check digit>" recomputed; -1 when no run is `cuerpo`. Without: the value's
 * one run of digits is the body; -1 when it has none, several, or one that is not a body. */
int dt__mp_derivado(const dt_mascara_clave *k, const char *s, size_t n, int con_cuerpo, uint32_t cuerpo, char *out,
                    size_t *on, const char **por_que);

/* What dt__mp_derivado would find, without masking: 0 and the body it would replace in *objetivo, or -1
 * and *por_que. `detectar` uses it to count the values a derivado rule reads. */
int dt__mp_buscar(const char *s, size_t n, int con_cuerpo, uint32_t cuerpo, uint32_t *objetivo, const char **por_que);

#endif
