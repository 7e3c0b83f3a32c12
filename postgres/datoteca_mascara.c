/* Masking scalars of the datoteca extension (docs/postgres.md, "Masking"): datoteca.enmascarar_rut(text)
 * and its siblings over the library's dt_mascara_* (docs/enmascarar.md is the contract of every value).
 *
 * The key is never an SQL value, since statements get logged: it is read from the file that the setting
 * datoteca.clave_archivo names, a setting only a superuser may set or read (GUC_SUPERUSER_ONLY), absent
 * from SHOW ALL, pg_settings and postgresql.conf.sample. The file's bytes are wiped as soon as the
 * library has derived its subkeys, and no sentence here names the key, the file's content, its path or a
 * refused value. The built key is cached per backend and dropped when the setting changes. A backend is
 * single-threaded, so the cache needs no lock. */
#include "datoteca_pg.h"

#include "datoteca.h"

#include "storage/fd.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include <string.h>

static char *clave_archivo = NULL;
static dt_mascara_clave *clave = NULL;

static void olvidar_clave(const char *nuevo, void *extra) {
    (void)nuevo;
    (void)extra;
    dt_mascara_clave_free(clave);
    clave = NULL;
}

void _PG_init(void); /* fmgr.h declares it only from PostgreSQL 16 */
void _PG_init(void) {
    DefineCustomStringVariable("datoteca.clave_archivo",
                               "The file holding the masking key (64 hexadecimal digits) for datoteca.enmascarar_*.",
                               "Only a superuser can set or read it; the key itself is never a setting.",
                               &clave_archivo, NULL, PGC_SUSET,
                               GUC_SUPERUSER_ONLY | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, NULL, olvidar_clave, NULL);
    MarkGUCPrefixReserved("datoteca");
}

const dt_mascara_clave *dt_pg_clave(const char *funcion) {
    if (clave) return clave;
    if (clave_archivo == NULL || clave_archivo[0] == '\0')
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s: no masking key: a superuser sets datoteca.clave_archivo to a file of 64 hexadecimal digits",
                               funcion)));
    FILE *f = AllocateFile(clave_archivo, "rb");
    if (f == NULL)
        ereport(ERROR, (errcode_for_file_access(),
                        errmsg("%s: the key file that datoteca.clave_archivo names cannot be opened: %m", funcion)));
    char texto[80]; /* a key is 64 digits and one newline: more is refused by its length alone */
    size_t n = fread(texto, 1, sizeof texto, f);
    int malo = ferror(f);
    FreeFile(f);
    if (malo) {
        explicit_bzero(texto, sizeof texto);
        ereport(ERROR, (errcode(ERRCODE_IO_ERROR),
                        errmsg("%s: the key file that datoteca.clave_archivo names cannot be read", funcion)));
    }
    char why[DT_SENTENCE_MAX];
    dt_mascara_clave *k = NULL;
    dt_status s = dt_mascara_clave_new(texto, n, &k, why, sizeof why);
    explicit_bzero(texto, sizeof texto);
    if (s != DT_OK)  /* the library's sentence names positions and lengths only, never a character */
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s: datoteca.clave_archivo: %s", funcion, s == DT_ERR_INVALID_ARG ? why : dt_status_str(s))));
    clave = k;
    return clave;
}

typedef dt_status (*mascara_fn)(const dt_mascara_clave *, const char *, size_t, char *, size_t, size_t *, char *, size_t);

static Datum enmascarar(FunctionCallInfo fcinfo, mascara_fn fn, const char *funcion) {
    const dt_mascara_clave *k = dt_pg_clave(funcion);
    text *t = PG_GETARG_TEXT_PP(0);
    size_t len = VARSIZE_ANY_EXHDR(t);
    size_t cap = len + DT_MAX_TEXT; /* every transform's output is under its input plus DT_MAX_TEXT */
    char *buf = palloc(cap);
    size_t out;
    char why[DT_SENTENCE_MAX];
    dt_status s = fn(k, VARDATA_ANY(t), len, buf, cap, &out, why, sizeof why);
    if (s == DT_ERR_NO_MEMORY) ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("%s: out of memory", funcion)));
    if (s == DT_ERR_NULL || s == DT_ERR_BUFFER_TOO_SMALL) elog(ERROR, "%s: %s", funcion, dt_status_str(s));
    if (s != DT_OK)  /* the value is refused: the sentence says why without repeating it */
        ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg("%s: %s", funcion, why)));
    PG_RETURN_TEXT_P(cstring_to_text_with_len(buf, (int)out));
}

#define MASCARA(nombre, fn)                                                                                            \
    PG_FUNCTION_INFO_V1(datoteca_m_##nombre);                                                                          \
    Datum datoteca_m_##nombre(PG_FUNCTION_ARGS) { return enmascarar(fcinfo, fn, "datoteca." #nombre); }

MASCARA(enmascarar_rut, dt_mascara_rut)
MASCARA(enmascarar_email, dt_mascara_email)
MASCARA(enmascarar_telefono, dt_mascara_telefono)
MASCARA(enmascarar_patente, dt_mascara_patente)
