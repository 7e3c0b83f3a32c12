/* A row's own values inside its free text (mascara_propios.c): the RUT-less half of "a value in a note
 * that is the row's own RUT, phone, email or name becomes the row's masked value". A RUT needs nothing
 * here (texto masks it by the same permutation as the rut rule); a name, an email or a phone of the
 * row's persona columns is masked by texto as a stranger's would be, so the note and the columns would
 * disagree, and a surname alone after "Sr(a)." would not be found at all. Internal. */
#ifndef DT_MASCARA_PROPIOS_H
#define DT_MASCARA_PROPIOS_H

#include <stddef.h>

/* One own value: its original spelling and what the row's rule made of it. `masc` NULL: the masked
 * value is in the plan's row buffer at `masc_off` (the buffer moves while the note is written). */
typedef struct dt__mpr_par {
    const char *orig;
    size_t orig_n;
    const char *masc;
    size_t masc_off, masc_n;
    int clase; /* DT__MPR_NOMBRE, _EMAIL, _TELEFONO (orig: its national digits), _DIRECCION, _CUERPO */
    unsigned long cuerpo; /* DT__MPR_CUERPO: the row's RUT body (masc unused: the caller masks the run) */
} dt__mpr_par;

enum { DT__MPR_NOMBRE = 1, DT__MPR_EMAIL, DT__MPR_TELEFONO, DT__MPR_DIRECCION, DT__MPR_CUERPO };

#define DT__MPR_MAX 48        /* pairs per note: 14 persona fields and their name parts fit */
#define DT__MPR_ORIG_MIN 3    /* shorter values ("Li", "Ña") are left to texto: too many words are them */

/* A phone's national digits (8 to 9: +56 and the trunk 0 dropped) into out (at least 16 bytes):
 * their count, 0 when s is no phone. Pure. */
size_t dt__mpr_digitos_telefono(const char *s, size_t n, char *out);

/* A full name's units (words, a particle de/del/la/las/los/san/santa/van/von joined to what follows:
 * "De La Fuente" is one), as byte spans of s: their count (at most max). Pure. */
size_t dt__mpr_unidades(const char *s, size_t n, size_t *ini, size_t *fin, size_t max);

/* The first own value in s[desde, n): 1 with its span and the pair's index; 0 when none. At each
 * position the longest pair wins. A name is matched whole-word, ASCII case aside, only when the note
 * writes its first letter as the original does (so "una rosa" is not Rosa); an email whole, case
 * aside; a phone as any run of digits, spaces, dots, dashes, parentheses and + whose national digits
 * are the pair's; a RUT body (DT__MPR_CUERPO, 7 or 8 digits) as a run of digits, dotted in threes or
 * not, leading zeros allowed, that reads as the body, not after '$', and not followed by a dash (or
 * a space and its right check digit): that is a whole RUT, texto's. Pure; linear in the note times
 * the pairs. */
int dt__mpr_buscar(const dt__mpr_par *pares, size_t np, const char *s, size_t n, size_t desde, size_t *ini, size_t *fin,
                   size_t *cual);

#endif
