/* The shapes of a value (detector_valores.c), for detector.c only. Internal. */
#ifndef DT_DETECTOR_VALORES_H
#define DT_DETECTOR_VALORES_H

#include <stddef.h>

#define DT__DVV_NOMBRE 0x01u     /* words written as people's names are, any origin */
#define DT__DVV_TELEFONO 0x02u   /* 7 to 15 digits with a phone's separators, any country */
#define DT__DVV_EMAIL 0x04u      /* local@domain.tld, Unicode allowed */
#define DT__DVV_IP 0x08u         /* IPv4 or IPv6 */
#define DT__DVV_COORDENADA 0x10u /* up to 3 digits before the point, 3 or more after it */
#define DT__DVV_NUMERO 0x20u     /* a plain number */
#define DT__DVV_ENTERO7 0x40u    /* an unsigned integer of 7 to 9 digits */
#define DT__DVV_MOD11 0x80u      /* ... whose last digit is the module-11 check digit of the others */
#define DT__DVV_HASH 0x100u      /* a password's stored form */
#define DT__DVV_BINARIO 0x200u   /* bytes, not text (a NUL inside) */
#define DT__DVV_IMAGEN 0x400u    /* a PNG, JPEG, GIF or WebP image, raw or as bytea's \x text */
#define DT__DVV_N 11

/* The DT__DVV_* shapes of the value s (n bytes; surrounding spaces ignored). */
unsigned dt__dvv_formas(const char *s, size_t n);

#endif
