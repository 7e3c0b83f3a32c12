/* The contact fields of an entity's persona as the rule persona writes them (docs/enmascarar.md,
 * "Contact data that reaches no one"): an email under a domain reserved for documentation and a
 * mobile from a block no operator holds, so a test system that sends mail or SMS from a masked copy
 * reaches no real person; both made from the masked RUT body, so the email is unique per entity.
 * `realista` keeps the generated webmail domain and the generated (valid, assignable) mobile. Integer
 * and byte operations only; pure, thread-safe. */
#include "internal.h"
#include "mascara/mascara.h"

size_t dt__mc_persona_email(const dt_persona *p, uint32_t cuerpo, int realista, char *out) {
    const char *e = p->email, *arroba = strchr(e, '@');
    if (e[0] == '\0' || arroba == NULL) {
        out[0] = '\0';
        return 0;
    }
    /* the generated local part without its trailing digits, then the masked body: a local part that
     * ends in a maximal run of digits, so distinct bodies always give distinct addresses */
    size_t n = (size_t)(arroba - e);
    while (n > 0 && e[n - 1] >= '0' && e[n - 1] <= '9') n--;
    memcpy(out, e, n);
    char *q = dt__put_u64(out + n, cuerpo);
    const char *dominio = realista ? arroba : "@example.com";
    size_t d = strlen(dominio);
    memcpy(q, dominio, d);
    q[d] = '\0';
    return (size_t)(q + d - out);
}

size_t dt__mc_persona_telefono(const dt_persona *p, uint32_t cuerpo, int realista, char *out) {
    size_t n = strlen(p->telefono);
    if (realista || n == 0) {
        memcpy(out, p->telefono, n + 1);
        return n;
    }
    /* +56 9 0XXX XXXX: the national numbers 90xxxxxxx are unassigned in Chile's plan as libphonenumber
     * holds it (c/data/telefonos_validos.csv: no valid block starts 90), so the number parses as a
     * Chilean mobile of the right length and reaches no one; XXXXXXX are the body's last seven digits */
    char d[8];
    uint32_t x = cuerpo % 10000000u;
    for (int i = 6; i >= 0; i--, x /= 10) d[i] = (char)('0' + x % 10);
    memcpy(out, "+56 9 0", 7);
    memcpy(out + 7, d, 3);
    out[10] = ' ';
    memcpy(out + 11, d + 3, 4);
    out[15] = '\0';
    return 15;
}
