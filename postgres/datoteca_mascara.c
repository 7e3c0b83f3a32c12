/* Masking scalars of the datoteca extension (docs/postgres.md, "Masking"): datoteca.enmascarar_rut(text)
 * and its siblings over the library's dt_mascara_* (docs/enmascarar.md is the contract of every value).
 *
 * The key is never an SQL value, since statements get logged: it is read from the file that the setting
 * datoteca.clave_archivo names, a setting only a superuser may set or read (GUC_SUPERUSER_ONLY), absent
 * from SHOW ALL, pg_settings and postgresql.conf.sample. The file's bytes are wiped as soon as the
 * library has derived its subkeys, and no sentence here names the key, the file's content, its path or a
 * refused value. The file is opened, judged and read by the library (dt_mascara_clave_leer), as in every
 * other runtime: a regular file only the server's user may read (mode 0600 or 0400; the setting
 * datoteca.clave_compartida accepts a file its group or others may read), never a FIFO or a device; the
 * published test key and keys of one repeated byte are refused unless datoteca.clave_de_prueba is on.
 * The built key is cached per backend with the file's identity (device, inode, size, modification and
 * change times): at the first masking call of each statement the file is stat'ed again and, when it
 * changed (rewritten, replaced, renamed over, chmod'ed), read again, so a rotated key is used from the
 * next statement on and one statement never mixes two keys. The cache is dropped when a setting changes.
 * A backend is single-threaded, so the cache needs no lock. */
#include "datoteca_pg.h"

#include "datoteca.h"

#include "access/xact.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/timestamp.h"

#include <string.h>
#include <sys/stat.h>

static char *clave_archivo = NULL;
static bool clave_de_prueba = false;
static bool clave_compartida = false;
static dt_mascara_clave *clave = NULL;
static struct stat clave_stat;            /* the file's identity when `clave` was read from it */
static TimestampTz clave_visto = 0;       /* the statement whose first call last checked it */

static void olvidar_clave(void) {
    dt_mascara_clave_free(clave);
    clave = NULL;
    clave_visto = 0;
}
static void olvidar_clave_texto(const char *nuevo, void *extra) {
    (void)nuevo;
    (void)extra;
    olvidar_clave();
}
static void olvidar_clave_bool(bool nuevo, void *extra) {
    (void)nuevo;
    (void)extra;
    olvidar_clave();
}

void _PG_init(void); /* fmgr.h declares it only from PostgreSQL 16 */
void _PG_init(void) {
    DefineCustomStringVariable("datoteca.clave_archivo",
                               "The file holding the masking key (64 hexadecimal digits) for datoteca.enmascarar_*.",
                               "Only a superuser can set or read it; the key itself is never a setting. The file must "
                               "be a regular file only the server's user may read (chmod 600).",
                               &clave_archivo, NULL, PGC_SUSET,
                               GUC_SUPERUSER_ONLY | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, NULL, olvidar_clave_texto, NULL);
    DefineCustomBoolVariable("datoteca.clave_de_prueba",
                             "Accept the published test key and keys of one repeated byte (tests only).",
                             "Anyone can undo a masking made under such a key.", &clave_de_prueba, false, PGC_SUSET,
                             GUC_SUPERUSER_ONLY | GUC_NOT_IN_SAMPLE, NULL, olvidar_clave_bool, NULL);
    DefineCustomBoolVariable("datoteca.clave_compartida",
                             "Accept a key file that its group or others may read or write.",
                             NULL, &clave_compartida, false, PGC_SUSET, GUC_SUPERUSER_ONLY | GUC_NOT_IN_SAMPLE, NULL,
                             olvidar_clave_bool, NULL);
    MarkGUCPrefixReserved("datoteca");
}

static bool misma_identidad(const struct stat *a, const struct stat *b) {
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
           a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
           a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

const dt_mascara_clave *dt_pg_clave(const char *funcion) {
    TimestampTz ahora = GetCurrentStatementStartTimestamp();
    if (clave && clave_visto == ahora) return clave; /* checked already in this statement */
    if (clave_archivo == NULL || clave_archivo[0] == '\0')
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s: no masking key: a superuser sets datoteca.clave_archivo to a file of 64 hexadecimal digits",
                               funcion)));
    struct stat antes;
    bool visto = stat(clave_archivo, &antes) == 0;
    if (clave && visto && misma_identidad(&antes, &clave_stat)) {
        clave_visto = ahora;
        return clave;
    }
    olvidar_clave(); /* changed, gone or never read: the old key is not used again */
    char why[DT_SENTENCE_MAX];
    dt_mascara_clave *k = NULL;
    unsigned opciones = (clave_de_prueba ? DT_MASCARA_CLAVE_DE_PRUEBA : 0) | (clave_compartida ? DT_MASCARA_CLAVE_COMPARTIDA : 0);
    dt_status s = dt_mascara_clave_leer(clave_archivo, opciones, &k, why, sizeof why);
    if (s != DT_OK) /* the library's sentence says "the key file given": never the path or a byte of it */
        ereport(ERROR, (errcode(s == DT_ERR_NO_MEMORY ? ERRCODE_OUT_OF_MEMORY : ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s: datoteca.clave_archivo: %s", funcion, why[0] ? why : dt_status_str(s))));
    /* The identity of what was read: stat'ed before the read, kept only if the file did not change while
     * it was read (else the next statement reads it again). */
    struct stat despues;
    if (visto && stat(clave_archivo, &despues) == 0 && misma_identidad(&antes, &despues)) clave_stat = antes;
    else memset(&clave_stat, 0, sizeof clave_stat);
    clave = k;
    clave_visto = ahora;
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

/* email and telefono as the rules mask a column (dt_mascara_regla): what `datoteca enmascarar` writes */
static dt_status regla_email(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap, size_t *out,
                             char *why, size_t whycap) {
    return dt_mascara_regla(k, "email", in, len, buf, cap, out, why, whycap);
}
static dt_status regla_telefono(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap, size_t *out,
                                char *why, size_t whycap) {
    return dt_mascara_regla(k, "telefono", in, len, buf, cap, out, why, whycap);
}

MASCARA(enmascarar_rut, dt_mascara_rut)
MASCARA(enmascarar_email, regla_email)
MASCARA(enmascarar_telefono, regla_telefono)
MASCARA(enmascarar_patente, dt_mascara_patente)
