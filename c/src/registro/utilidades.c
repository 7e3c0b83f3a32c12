/* The utility registry's generic half (rows in utilidades.gen.c) and the typed public utilities,
 * each a call of dt_util: their arguments are checked by the same validator as the calls'. */
#include <stdio.h>

#include "internal.h"
#include "registro/registro.h"

size_t dt_util_count(void) { return dt__n_utilidades; }

const dt_call_info *dt_util_at(size_t index) { return index < dt__n_utilidades ? &dt__utilidades[index].info : NULL; }

dt_status dt_util_find(const char *name, size_t len, size_t *index) {
    if ((name == NULL && len > 0) || index == NULL) return DT_ERR_NULL;
    for (size_t i = 0; i < dt__n_utilidades; i++) {
        const char *n = dt__utilidades[i].info.name;
        if (strlen(n) == len && memcmp(n, name, len) == 0) {
            *index = i;
            return DT_OK;
        }
    }
    return DT_ERR_UNKNOWN_CALL;
}

static dt_status dt__util(size_t index, const char *texto, size_t texto_len, const int64_t *args, size_t nargs,
                          int por_defecto, char *buf, size_t cap, size_t *len) {
    if ((texto == NULL && texto_len > 0) || (buf == NULL && cap > 0)) return DT_ERR_NULL;
    if (index >= dt__n_utilidades) return DT_ERR_UNKNOWN_CALL;
    const dt__utilidad *u = &dt__utilidades[index];
    int64_t a[DT_MAX_PARAMS];
    char why[DT_SENTENCE_MAX];
    dt_status st = dt__args(&u->info, u->cero, NULL, 0, args, nargs, por_defecto, a, why, sizeof why);
    if (st == DT_ERR_NULL) return st;
    char tmp[DT_MAX_TEXT];
    char *end = tmp;
    if (st == DT_OK) {
        st = u->run(texto, texto_len, a, tmp, &end);
        /* The text is never repeated: it may be personal data (docs/rut.md). */
        if (st != DT_OK) snprintf(why, sizeof why, "%s: %s is %s", u->info.name, u->texto ? u->texto : "text", dt_status_str(st));
    }
    if (st != DT_OK) {
        dt__sentence_out(why, buf, cap, len);
        return st;
    }
    return dt__copy_out(tmp, (size_t)(end - tmp), buf, cap, len);
}

dt_status dt_util(size_t index, const char *texto, size_t texto_len, const int64_t *args, size_t nargs, char *buf,
                  size_t cap, size_t *len) {
    return dt__util(index, texto, texto_len, args, nargs, 1, buf, cap, len);
}

/* The typed utilities, over the rows' generated indices (DT__UTIL_*). */
dt_status dt_rut_dv(uint32_t cuerpo, char *dv) {
    if (dv == NULL) return DT_ERR_NULL;
    const int64_t a[1] = {(int64_t)cuerpo};
    char b[DT_SENTENCE_MAX];
    dt_status st = dt__util(DT__UTIL_RUT_DV, NULL, 0, a, 1, 0, b, sizeof b, NULL);
    if (st == DT_OK) *dv = b[0];
    return st;
}

dt_status dt_rut_formatear(const char *s, size_t len, dt_rut_formato formato, char *buf, size_t cap, size_t *out_len) {
    const int64_t a[1] = {(int64_t)formato};
    return dt__util(DT__UTIL_FORMATEAR_RUT, s, len, a, 1, 0, buf, cap, out_len);
}

dt_status dt_rut_formatear_cuerpo(uint32_t cuerpo, dt_rut_formato formato, char *buf, size_t cap, size_t *len) {
    if (buf == NULL && cap > 0) return DT_ERR_NULL;
    const int64_t a[1] = {(int64_t)cuerpo};
    char dv[DT_SENTENCE_MAX];
    dt_status st = dt__util(DT__UTIL_RUT_DV, NULL, 0, a, 1, 0, dv, sizeof dv, NULL);
    if (st != DT_OK) {
        dt__sentence_out(dv, buf, cap, len);
        return st;
    }
    char rut[16];
    int n = snprintf(rut, sizeof rut, "%u%c", (unsigned)cuerpo, dv[0]);
    return dt_rut_formatear(rut, (size_t)n, formato, buf, cap, len);
}

dt_status dt_patente_formatear(const char *s, size_t len, dt_patente_formato formato, char *buf, size_t cap,
                               size_t *out_len) {
    const int64_t a[1] = {(int64_t)formato};
    return dt__util(DT__UTIL_FORMATEAR_PATENTE, s, len, a, 1, 0, buf, cap, out_len);
}

dt_status dt_dinero_formatear_clp(int64_t monto, char *buf, size_t cap, size_t *len) {
    return dt__util(DT__UTIL_FORMATEAR_CLP, NULL, 0, &monto, 1, 0, buf, cap, len);
}

dt_status dt_dinero_formatear_uf(int64_t centesimos, char *buf, size_t cap, size_t *len) {
    return dt__util(DT__UTIL_FORMATEAR_UF, NULL, 0, &centesimos, 1, 0, buf, cap, len);
}
