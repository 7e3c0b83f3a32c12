/* datoteca copiar --desde URL --hacia URL --reglas REGLAS (--clave-archivo FILE | env DATOTECA_CLAVE): a
 * masked copy of a whole database into a new one (docs/copia.md). This file takes the arguments, the
 * rules text and the key, with enmascarar's safeguards (cli_clave.c); the copy itself is the program's
 * (cli/copiar_sqlite.c links SQLite, cli/copiar_pg.c libpq), reached through dt__cli_copiar_sqlite and
 * dt__cli_copiar_pg, NULL in the library. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* sigaction */
#endif
#include <errno.h>
#ifndef __wasi__ /* WebAssembly has no signals, nor a database to copy */
#include <signal.h>
#ifndef _WIN32
#include <unistd.h>
#endif
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_interno.h"
#include "cli_progreso.h"
#include "internal.h"
#include "mascara/prf.h" /* dt__borrar */

dt__cli_copiar dt__cli_copiar_sqlite = NULL;
dt__cli_copiar dt__cli_copiar_pg = NULL;
dt__cli_copiar dt__cli_copiar_mariadb = NULL;

#define DT__COPIAR_REGLAS_MAX (1u << 20)

/* The files a copy is writing before they are renamed into place (a new database, a dump): removed when the
 * process is interrupted (SIGINT, SIGTERM, SIGHUP), so that a stopped copy leaves no partial file behind. Fixed
 * buffers: the handler may only call async-signal-safe functions (unlink, raise). A copy into a server that
 * cannot be one transaction (MariaDB: DDL commits by itself) asks for the signal to be deferred instead
 * (dt__cli_copiar_diferir): the handler only notes it, the copy sees it between blocks, drops what it made
 * and then ends the process by the same signal (dt__cli_copiar_detenida, dt__cli_copiar_rendirse). */
#ifdef __wasi__
void dt__cli_copiar_temporal(int i, const char *ruta) {
    (void)i;
    (void)ruta;
}
void dt__cli_copiar_diferir(int si) {
    (void)si;
}
int dt__cli_copiar_detenida(void) {
    return 0;
}
void dt__cli_copiar_rendirse(void) {
}
#else
static char dt__copiar_temporales[2][4096];
static volatile sig_atomic_t dt__copiar_diferida = 0, dt__copiar_senal = 0;

static void dt__copiar_interrumpida(int sig) {
    if (dt__copiar_diferida) { /* the copy stops between blocks and undoes what it made (async-signal-safe: a flag) */
        dt__copiar_senal = sig;
        return;
    }
    for (int i = 0; i < 2; i++)
        if (dt__copiar_temporales[i][0]) {
#ifdef _WIN32
            remove(dt__copiar_temporales[i]);
#else
            unlink(dt__copiar_temporales[i]); /* async-signal-safe */
#endif
        }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void dt__copiar_senales(void) {
    static int puesto = 0;
    if (puesto) return;
#ifdef _WIN32
    signal(SIGINT, dt__copiar_interrumpida);
    signal(SIGTERM, dt__copiar_interrumpida);
#else
    struct sigaction a;
    memset(&a, 0, sizeof a);
    a.sa_handler = dt__copiar_interrumpida;
    a.sa_flags = SA_RESTART; /* a deferred signal must not fail the statement being sent or read meanwhile */
    sigemptyset(&a.sa_mask);
    sigaction(SIGINT, &a, NULL);
    sigaction(SIGTERM, &a, NULL);
    sigaction(SIGHUP, &a, NULL);
#endif
    puesto = 1;
}

void dt__cli_copiar_temporal(int i, const char *ruta) {
    if (i < 0 || i > 1) return;
    if (ruta == NULL || strlen(ruta) >= sizeof dt__copiar_temporales[i]) {
        dt__copiar_temporales[i][0] = '\0';
        return;
    }
    dt__copiar_senales();
    memcpy(dt__copiar_temporales[i], ruta, strlen(ruta) + 1);
}

void dt__cli_copiar_diferir(int si) {
    dt__copiar_senales();
    dt__copiar_diferida = si != 0;
}

int dt__cli_copiar_detenida(void) {
    return (int)dt__copiar_senal;
}

void dt__cli_copiar_rendirse(void) {
    int sig = (int)dt__copiar_senal;
    dt__copiar_diferida = 0;
    if (sig == 0) return;
    signal(sig, SIG_DFL);
    raise(sig);
}
#endif

int dt__cli_copiar_reglas(const char *texto, size_t len, int formato, const char *archivo, const char *tabla,
                          dt_mascara_reglas **r) {
    char why[DT_SENTENCE_MAX];
    if (dt_mascara_reglas_tabla_new(texto, len, formato, archivo, tabla, strlen(tabla), r, why, sizeof why) == DT_OK) return 0;
    /* the sentence names the line, or the table the document lacks: the document is checked whole */
    fprintf(stderr, "datoteca: copiar: %s (nothing was written)\n", why);
    return 2;
}

int dt__cli_copiar_plan(const dt_mascara_reglas *r, const dt_mascara_clave *k, const char *tabla, size_t n,
                        const char *const *cols, const size_t *largos, dt_mascara_plan **plan, size_t **de, size_t *m) {
    char why[DT_SENTENCE_MAX];
    dt_status s = dt_mascara_plan_new(r, k, n, cols, largos, plan, why, sizeof why);
    if (s == DT_OK) {
        *m = dt_mascara_plan_ncolumnas(*plan);
        *de = (size_t *)calloc(*m + 1, sizeof **de);
        if (*de == NULL) s = DT_ERR_NO_MEMORY;
        for (size_t i = 0; *de && i < *m; i++) {
            size_t l, j = 0;
            const char *nom = dt_mascara_plan_columna(*plan, i, &l);
            while (j < n && !(largos[j] == l && memcmp(cols[j], nom, l) == 0)) j++;
            (*de)[i] = j;
        }
    }
    if (s == DT_OK) return 0;
    if (s == DT_ERR_NO_MEMORY) return 1;
    fprintf(stderr, "datoteca: copiar: table %s: %s (nothing was written)\n", tabla, why);
    return 2;
}

static int usage_copiar(FILE *f) {
    fprintf(f, "usage: datoteca copiar --desde sqlite:PROD.db --hacia sqlite:STAGING.db|DUMP.sql --reglas REGLAS.toml\n"
               "       datoteca copiar --desde postgresql://PROD --hacia postgresql://STAGING|DUMP.sql --reglas REGLAS.toml\n"
               "       datoteca copiar --desde mariadb://PROD --hacia mariadb://STAGING|DUMP.sql --reglas REGLAS.toml\n"
               "                       (--clave-archivo CLAVE.hex | env DATOTECA_CLAVE) [--clave-compartida]\n"
               "                       [--clave-de-prueba] [--subconjunto TABLE=N%%,... [--semilla N]] [--donde TABLE=CONDITION ...]\n"
               "                       [--con-hijos]\n"
               "                       [--jobs N] [--progreso | --silencio] [--estricto] [--revision-json FILE]\n"
               "                       [--sin-rutinas]\n"
               "Copies every table of the database --desde into a new database --hacia, each value masked by its\n"
               "table's rules in REGLAS (`datoteca detectar URL` writes them) under the secret key: the tables, their\n"
               "constraints, indexes, views and triggers as the source has them, the rows masked, every foreign key\n"
               "checked after the load. A table or column without a rule stops the run before anything is written.\n"
               "SQLite: --hacia must not exist, and is left absent when the copy fails. PostgreSQL: --hacia is an empty\n"
               "database, written in one transaction; the schema is pg_dump's (DATOTECA_PG_DUMP names another one).\n"
               "MariaDB: --hacia is an empty database; each foreign key is added after the rows, checking them. The\n"
               "source's account must see and read every routine and trigger (SELECT on mysql.proc, TRIGGER on the\n"
               "database), else the copy is refused naming what it cannot read; --sin-rutinas copies without them.\n"
               "A --hacia ending in .sql is a plain SQL dump instead (sqlite3 NEW.db < DUMP.sql, psql -v ON_ERROR_STOP=1\n"
               "-f DUMP.sql or mariadb NEW < DUMP.sql loads it). --subconjunto clientes=10%%: a smaller copy, about that share of the table's rows\n"
               "(which ones: --semilla) and every row they reference, transitively; with --con-hijos the rows that\n"
               "reference them too. --donde \"clientes=region = 13\": the rows of a table the source's SQL condition\n"
               "chooses are roots too (repeatable; alone, it makes the subset). --jobs N (1 to 64): N threads mask, the copy is the same bytes as with one.\n"
               "--progreso / --silencio: the progress line on stderr (table, rows, rows/s), shown on a terminal by default.\n"
               "The review: the columns written as they were (mantener) and the masked values written unchanged are\n"
               "checked by the detector (every row up to 5,000 of each table, then every 200th) and summed up on\n"
               "stderr when there are any (counts only; --revision-json FILE writes it as JSON). --estricto: exit 3 when\n"
               "personal data (names, RUTs, emails, phones, plates, text with data) was written as it was; the copy\n"
               "is written by then and stays: the review reports, it does not undo.\n"
               "(docs/copia.md)\n");
    return f == stdout ? 0 : 2;
}

static int copiar_main(int argc, char **argv, dt__revision *rev);

int dt__cli_copiar_main(int argc, char **argv) {
    dt__cli_sin_volcado(); /* before the key is anywhere in this process */
    dt__revision *rev = NULL; /* --estricto, --revision-json FILE: taken out of argv */
    int rc = dt__cli_revision_opciones(&argc, argv, "copiar", &rev);
    if (rc == 0) rc = copiar_main(argc, argv, rev);
    rc = dt__cli_revision_fin(rev, rc); /* the summary; 3 under --estricto when personal data was written as it was */
    dt__cli_revision_free(rev);
    return rc;
}

static int copiar_main(int argc, char **argv, dt__revision *rev) {
    const char *desde = NULL, *hacia = NULL, *reglas_ruta = NULL, *clave_ruta = NULL, *subconjunto = NULL, *semilla_txt = NULL,
               *jobs_txt = NULL;
    int progreso = 0;
    const char *donde[64];
    size_t ndonde = 0;
    unsigned clave_opciones = 0;
    int hijos = 0, sin_rutinas = 0;
    static const char *const opciones[] = {"--desde", "--hacia", "--reglas", "--clave-archivo", "--subconjunto", "--semilla", "--jobs"};
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return usage_copiar(stdout);
        if (strcmp(a, "--con-hijos") == 0) {
            hijos = 1;
            continue;
        }
        if (strcmp(a, "--sin-rutinas") == 0) {
            sin_rutinas = 1;
            continue;
        }
        if (dt__cli_progreso_opcion(a, &progreso)) continue;
        if (strcmp(a, "--donde") == 0 && i + 1 < argc) {
            if (ndonde == 64) {
                fprintf(stderr, "datoteca: copiar: --donde is given at most 64 times\n");
                return 2;
            }
            donde[ndonde++] = argv[++i];
            continue;
        }
        int o = dt__cli_opcion_clave(a, "copiar", &clave_opciones);
        if (o == 2) return 2;
        if (o == 1) continue;
        size_t k = 0;
        while (k < sizeof opciones / sizeof opciones[0] && strcmp(a, opciones[k]) != 0) k++;
        if (k < sizeof opciones / sizeof opciones[0] && i + 1 < argc) {
            const char **d[] = {&desde, &hacia, &reglas_ruta, &clave_ruta, &subconjunto, &semilla_txt, &jobs_txt};
            *d[k] = argv[++i];
        } else {
            /* by position only: a key or a password pasted by mistake must not be printed */
            fprintf(stderr, "datoteca: copiar: argument %d is not an option of copiar (or lacks its value)\n", i);
            return usage_copiar(stderr);
        }
    }
    if (desde == NULL || hacia == NULL || reglas_ruta == NULL) {
        fprintf(stderr, "datoteca: copiar: --desde URL, --hacia URL and --reglas FILE are required (`datoteca detectar "
                        "URL` proposes the rules)\n");
        return 2;
    }
    const char *nombres[] = {"--desde", "--hacia", "--reglas", "--clave-archivo"};
    const char *valores[] = {desde, hacia, reglas_ruta, clave_ruta};
    for (int i = 0; i < 4; i++)
        if (valores[i] != NULL && dt__cli_parece_clave(valores[i])) {
            fprintf(stderr, "datoteca: copiar: the value given to %s is 64 hexadecimal digits: it looks like a masking key, "
                            "not a %s, and is not used\n", nombres[i], i < 2 ? "URL" : "path");
            return 2;
        }
    /* a key in a table list or a condition is neither used nor quoted; a rules file whose text is a key is not
     * parsed (issue 48) */
    if (dt__cli_valor_con_clave("copiar", "--subconjunto", subconjunto)) return 2;
    for (size_t i = 0; i < ndonde; i++)
        if (dt__cli_valor_con_clave("copiar", "--donde", donde[i])) return 2;
    if (dt__cli_archivo_es_clave(reglas_ruta)) return dt__cli_rehusar_clave("copiar", "--reglas", "rules");
    unsigned long long semilla = 0;
    if (semilla_txt != NULL && !dt__cli_parse_u64(semilla_txt, UINT64_MAX, &semilla)) {
        fprintf(stderr, "datoteca: copiar: --semilla must be a whole number from 0 to 18446744073709551615\n");
        return 2;
    }
    unsigned long long jobs = 1;
    if (jobs_txt != NULL && (!dt__cli_parse_u64(jobs_txt, 64, &jobs) || jobs == 0)) {
        fprintf(stderr, "datoteca: copiar: --jobs must be an integer from 1 to 64\n");
        return 2;
    }
    if (dt__cli_progreso_pedido(progreso, "copiar: ")) return 2;
    if ((semilla_txt != NULL || hijos) && subconjunto == NULL && ndonde == 0) {
        fprintf(stderr, "datoteca: copiar: --semilla and --con-hijos choose a subset's rows: give --subconjunto or --donde too\n");
        return 2;
    }
    size_t lh = strlen(hacia);
    int volcado = strstr(hacia, "://") == NULL && strncmp(hacia, "sqlite:", 7) != 0 && lh > 4 && strcmp(hacia + lh - 4, ".sql") == 0;
    /* the kind of each side: 0 SQLite, 1 PostgreSQL, 2 MariaDB/MySQL, -1 neither (a dump, or not a URL) */
    int tipos[2];
    const char *lados[2] = {desde, hacia};
    for (int i = 0; i < 2; i++)
        tipos[i] = strncmp(lados[i], "sqlite:", 7) == 0 ? 0
                   : strncmp(lados[i], "postgresql://", 13) == 0 || strncmp(lados[i], "postgres://", 11) == 0 ? 1
                   : strncmp(lados[i], "mariadb://", 10) == 0 || strncmp(lados[i], "mysql://", 8) == 0 ? 2 : -1;
    if (tipos[0] < 0 || !(tipos[1] == tipos[0] || volcado)) {
        /* neither URL printed: it may hold a password */
        fprintf(stderr, "datoteca: copiar: --desde and --hacia must be of one kind: sqlite: into sqlite:, postgresql:// into "
                        "postgresql://, mariadb:// into mariadb://, or any of them into a FILE.sql dump (docs/copia.md)\n");
        return 2;
    }
    if (sin_rutinas && tipos[0] != 2) {
        fprintf(stderr, "datoteca: copiar: --sin-rutinas is for a copy from MariaDB (its routines and triggers need privileges "
                        "to be read); a SQLite or PostgreSQL copy carries its triggers and functions whole\n");
        return 2;
    }
    static const char *const clientes[] = {"SQLite", "PostgreSQL", "MariaDB"}, *const bibliotecas[] = {"libsqlite3", "libpq", "libmariadb"};
    dt__cli_copiar copiar = tipos[0] == 0 ? dt__cli_copiar_sqlite : tipos[0] == 1 ? dt__cli_copiar_pg : dt__cli_copiar_mariadb;
    if (copiar == NULL) {
        fprintf(stderr, "datoteca: copiar: this program has no %s client (the datoteca program links it when built with %s; "
                        "the library's CLI, npx datoteca and python -m datoteca without a wheel's program, links no database "
                        "client)\n", clientes[tipos[0]], bibliotecas[tipos[0]]);
        return 2;
    }
    /* a dump is never written over (SQLite's copier says the same of a database file), nor onto a device,
     * a FIFO (opening one to look blocked) or a link: lstat, never open (cli_salida.c) */
    if (volcado && dt__cli_salida_tipo(hacia, "dump", "copiar", "--hacia") != DT__SALIDA_NUEVA) return 2;
    if (dt__cli_clave_dada(clave_ruta, "copiar")) return 2;
    size_t n = 0;
    char *texto = dt__cli_archivo_chico(reglas_ruta, DT__COPIAR_REGLAS_MAX, &n);
    if (texto == NULL) {
        fprintf(stderr, "datoteca: copiar: cannot read the rules file given (--reglas): %s\n",
                errno == EFBIG ? "longer than 1 MiB" : strerror(errno));
        dt__cli_olvidar_clave_env(getenv("DATOTECA_CLAVE"));
        return 2;
    }
    dt_mascara_clave *clave = NULL;
    if (dt__cli_clave_leer(clave_ruta, clave_opciones, "copiar", &clave)) {
        free(texto);
        return 2;
    }
    size_t lr = strlen(reglas_ruta);
    int formato = lr >= 5 && strcmp(reglas_ruta + lr - 5, ".json") == 0 ? DT_MASCARA_JSON : DT_MASCARA_TOML;
    /* --donde alone is a subset too: its roots are the rows the conditions choose */
    dt__copiar_opciones o = {volcado, subconjunto ? subconjunto : ndonde ? "" : NULL, (uint64_t)semilla, hijos, donde, ndonde,
                             (size_t)jobs, progreso, rev, sin_rutinas};
    int rc = copiar(desde, hacia, &o, texto, n, formato, dt__cli_base(reglas_ruta), clave);
    dt__borrar(texto, n);
    free(texto);
    dt_mascara_clave_free(clave);
    return rc;
}
