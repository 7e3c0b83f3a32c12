/* datoteca — the command line: any registered call, n times, as text, JSON lines or CSV.
 *
 *   datoteca rut --seed 42 -n 5
 *   datoteca persona --seed 42 -n 3 --format jsonl
 *   datoteca direccion.comuna --region 13 -n 10
 *   datoteca list
 *
 * Output streams in fixed-size chunks, so -n 1000000 runs in constant memory. */
#include <errno.h>
#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_interno.h"
#include "datoteca.h"
#include "registro/registro.h" /* a record's call and the offsets of its fields */

enum formato { F_PLAIN, F_JSONL, F_CSV };

static int usage(FILE *f, const char *msg) {
    if (msg) fprintf(stderr, "datoteca: %s\n", msg);
    fprintf(f,
            "usage: datoteca CALL [--seed N | --seed-str TEXT] [-n COUNT] [--format plain|jsonl|csv]\n"
            "                     [--hoy YYYY-MM-DD] [--progreso | --silencio] [--PARAM VALUE ...]\n"
            "       datoteca CALL --help     (its parameters, ranges, defaults and an example)\n"
            "       datoteca tabla CALL …    (datasets: addressable rows, unique columns, SQL; 'datoteca tabla --help')\n"
            "       datoteca esquema FILE …  (schemas: linked tables, DDL and CSV; 'datoteca esquema --help')\n"
            "       datoteca detectar FILE   (which columns of a CSV hold personal data: proposed masking rules)\n"
            "       datoteca detectar URL    (the same for every table of a database: one rules document)\n"
            "       datoteca copiar --desde sqlite:A --hacia sqlite:B --reglas R  (a masked copy of a whole database)\n"
            "       datoteca inferir URL     (a schema document from a live database: sqlite:, postgresql://, mariadb://; 'datoteca inferir --help')\n"
            "       datoteca enmascarar --reglas FILE  (mask a CSV or JSON Lines; 'datoteca enmascarar --help')\n"
            "       datoteca riesgo --entrada FILE --qi COLS  (the re-identification risk left in a masked output)\n"
            "       datoteca list            (every call and its parameters)\n"
            "       datoteca --version\n"
            "A namespace alone names its record: 'datoteca persona' is 'datoteca persona.persona'.\n");
    return f == stdout ? 0 : 2;
}

static void list_calls(void) {
    for (size_t i = 0; i < dt_call_count(); i++) {
        const dt_call_info *c = dt_call_at(i);
        printf("%s", c->name);
        const char *punto = strchr(c->name, '.');
        if (punto && strlen(punto + 1) == (size_t)(punto - c->name) && strncmp(c->name, punto + 1, (size_t)(punto - c->name)) == 0)
            printf(" (also: %.*s)", (int)(punto - c->name), c->name);
        for (size_t j = 0; j < c->nparams; j++) {
            const dt_param_info *p = &c->params[j];
            if (p->choices) {
                printf(" [--%s", p->name);
                for (int64_t v = p->min; v <= p->max; v++) printf("%s%s", v == p->min ? " " : "|", p->choices[v - p->min]);
                printf("]");
            } else {
                printf(" [--%s %lld..%lld, default %lld]", p->name, (long long)p->min, (long long)p->max, (long long)p->def);
            }
        }
        if (c->kind == DT_KIND_RECORD) {
            printf("  -> ");
            for (size_t j = 0; j < c->nfields; j++) printf("%s%s", j ? "," : "", c->fields[j]);
        }
        printf("\n");
    }
}

/* `"field":` for each record field, JSON-escaped once instead of once per record. */
static char json_keys[DT_MAX_FIELDS][64];
static const char *json_key_ptr[DT_MAX_FIELDS]; /* json_keys[j], as dt__cli_json_fila takes them */
static size_t json_key_len[DT_MAX_FIELDS];
static uint8_t json_nullable[DT_MAX_FIELDS]; /* an empty value of these fields is written null */
/* Integer fields are JSON numbers (since 3.0.0), as `datoteca tabla`, Python and Node give them: one
 * record has one JSON form whichever command writes it. */
static uint8_t json_entero[DT_MAX_FIELDS];

static void prepare_keys(size_t index, const dt_call_info *c) {
    const uint8_t *sql = dt__llamadas[index].sql;
    for (size_t j = 0; j < c->nfields && j < DT_MAX_FIELDS; j++) {
        json_nullable[j] = (uint8_t)dt_call_field_nullable(index, j);
        json_entero[j] = (uint8_t)(sql[j] == DT__SQL_INTEGER || sql[j] == DT__SQL_BIGINT);
    }
    for (size_t j = 0; j < c->nfields && j < DT_MAX_FIELDS; j++) {
        json_key_len[j] = (size_t)snprintf(json_keys[j], sizeof json_keys[j], "%s\"%s\":", j ? "," : "", c->fields[j]);
        json_key_ptr[j] = json_keys[j];
    }
}

/* Print one value that is not a record (a line of dt_call_many output without its '\n'); a record is
 * written from its struct by escribir_registro. */
static void print_value(outbuf *o, const char *key, enum formato f, int entero, const char *s, size_t n) {
    if (f == F_PLAIN) {
        dt__cli_ob_put(o, s, n);
    } else if (f == F_CSV) {
        dt__cli_csv_field(o, s, n, 0);
    } else {
        dt__cli_ob_putc(o, '{');
        dt__cli_json_string(o, key, strlen(key));
        dt__cli_ob_putc(o, ':');
        if (entero) dt__cli_ob_put(o, s, n);
        else dt__cli_json_string(o, s, n);
        dt__cli_ob_putc(o, '}');
    }
    dt__cli_ob_putc(o, '\n');
}

/* One record made by its call into `rec` and written as one line: plain (fields tab-separated), CSV or
 * a JSON object (an empty nullable field as null); the fields read in place (the struct's
 * NUL-terminated texts), one reservation a record. */
static void escribir_registro(outbuf *o, const dt__llamada *ll, const int64_t *a, int f, dt_gen *g, char *rec) {
    ll->registro(g, a, rec);
    size_t nf = ll->info.nfields, largo[DT_MAX_FIELDS], textos = 0;
    const char *ini[DT_MAX_FIELDS];
    for (size_t j = 0; j < nf; j++) {
        ini[j] = rec + ll->offsets[j];
        largo[j] = strlen(ini[j]);
        textos += largo[j];
    }
    char *d = dt__cli_ob_reservar(o, 6 * textos + (sizeof json_keys[0] + 6) * nf + 3);
    if (f == F_CSV) {
        o->p = dt__cli_csv_fila(d, ini, largo, NULL, nf, 0);
        return;
    }
    if (f == F_JSONL) {
        uint8_t nulo[DT_MAX_FIELDS];
        for (size_t j = 0; j < nf; j++) nulo[j] = largo[j] == 0 && json_nullable[j];
        o->p = dt__cli_json_fila(d, json_key_ptr, json_key_len, ini, largo, nulo, json_entero, nf);
        return;
    }
    for (size_t j = 0; j < nf; j++) { /* plain: tab-separated */
        if (j) *d++ = '\t';
        memcpy(d, ini[j], largo[j]);
        d += largo[j];
    }
    *d++ = '\n';
    o->p = d;
}

/* ---- parse: the command line -> a request --------------------------------------------------- */

/* 0 when the request is complete and its arguments valid, else the exit code (the reason printed). */
static int parse(int argc, char **argv, peticion *r) {
    int rc = dt__cli_parse_call(argv[1], r);
    if (rc) return rc;
    r->formato = r->info->kind == DT_KIND_RECORD ? F_JSONL : F_PLAIN;
    r->count = 1;
    r->nargs = r->info->nparams;
    for (size_t j = 0; j < r->nargs; j++) r->args[j] = DT_ARG_DEFAULT;
    for (int i = 2; i < argc; i++) {
        const char *opt = argv[i];
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            dt__cli_call_help(stdout, r->info, "");
            return -1;
        }
        if (dt__cli_progreso_opcion(opt, &r->progreso)) continue;
        static const char *const propias[] = {"--seed", "--seed-str", "-n", "--format", "--hoy"};
        rc = dt__cli_check_opcion(r, argc, argv, i, propias, sizeof propias / sizeof propias[0], "");
        if (rc) return rc;
        const char *val = argv[++i];
        if (strcmp(opt, "-n") == 0) {
            if (!dt__cli_parse_u64(val, 1000000000000ULL, &r->count)) {
                fprintf(stderr, "datoteca: -n must be an integer from 0 to 1000000000000, got '%s'\n", val);
                return 2;
            }
        } else if (strcmp(opt, "--format") == 0) {
            if (strcmp(val, "plain") == 0) r->formato = F_PLAIN;
            else if (strcmp(val, "jsonl") == 0) r->formato = F_JSONL;
            else if (strcmp(val, "csv") == 0) r->formato = F_CSV;
            else {
                fprintf(stderr, "datoteca: --format must be plain, jsonl or csv, got '%s'\n", val);
                return 2;
            }
        } else {
            rc = dt__cli_parse_comun(r, opt, val);
            if (rc) return rc;
        }
    }
    rc = dt__cli_check_seeds(r);
    if (rc == 0) rc = dt__cli_progreso_pedido(r->progreso, "");
    if (rc) return rc;
    char why[512];
    if (dt_call_check(r->index, r->args, r->nargs, why, sizeof why, NULL) == DT_ERR_INVALID_ARG) {
        fprintf(stderr, "datoteca: %s\n", why); /* the library's sentence, as every binding shows it */
        return 2;
    }
    return 0;
}

/* ---- emit: the CSV header (values go through print_value) ------------------------------------ */

static void emit_header(outbuf *o, const peticion *r) {
    if (r->formato != F_CSV) return;
    if (r->info->kind == DT_KIND_RECORD) {
        for (size_t j = 0; j < r->info->nfields; j++) {
            if (j) dt__cli_ob_putc(o, ',');
            dt__cli_ob_put(o, r->info->fields[j], strlen(r->info->fields[j]));
        }
    } else {
        dt__cli_ob_put(o, r->key, strlen(r->key));
    }
    dt__cli_ob_putc(o, '\n');
}

/* ---- run: generate in chunks through the registry and emit each value ------------------------- */

static int run(const peticion *r) {
    dt_gen *g = NULL;
    dt_status st = r->seed_str ? dt_new_str(r->seed_str, strlen(r->seed_str), &g) : dt_new((uint64_t)r->seed, &g);
    if (st != DT_OK) {
        fprintf(stderr, "datoteca: %s\n", dt_status_str(st));
        return 1;
    }
    if (r->hoy_given && dt_set_hoy(g, r->hoy[0], r->hoy[1], r->hoy[2]) != DT_OK) {
        /* parse_fecha accepted only days the library accepts: this is a bug, say so */
        fprintf(stderr, "datoteca: internal error: the library refused --hoy %04d-%02d-%02d\n", r->hoy[0], r->hoy[1], r->hoy[2]);
        dt_free(g);
        return 1;
    }
    prepare_keys(r->index, r->info);
    outbuf ob;
    if (dt__cli_ob_init(&ob, 1 << 20, stdout)) {
        fprintf(stderr, "datoteca: out of memory\n");
        dt_free(g);
        return 1;
    }
    emit_header(&ob, r);

    enum { CHUNK = 256 };
    static char chunk[DT_CALL_MANY_BOUND(CHUNK)];
    /* A record in plain, JSONL or CSV is written from the struct its call fills (the registry's
     * runner would serialise it as text only for it to be split again): the same draws, the same bytes.
     * Arguments dt__llamada_args refuses leave `registro` 0: dt_call_many then refuses them too, and says why. */
    const dt__llamada *ll = &dt__llamadas[r->index];
    int64_t a[DT_MAX_PARAMS];
    int registro = ll->registro != NULL && dt__llamada_args(ll, r->args, r->nargs, a, NULL, 0) == DT_OK;
    static union {
        max_align_t alinear;
        char bytes[DT__REGISTRO_MAX];
    } rec;
    int rc = 0;
    dt__progreso prog; /* on stderr, for a terminal: nothing here depends on it */
    dt__cli_progreso_empezar(&prog, "", r->progreso, 1, r->count, 0, 0);
    for (unsigned long long left = r->count; left > 0 && !ob.error;) {
        size_t n = left < CHUNK ? (size_t)left : CHUNK;
        size_t len;
        /* A record's rows are checked here (none made: n is 0 then) and made below, straight from its struct */
        st = dt_call_many(g, r->index, r->args, r->nargs, registro ? 0 : n, chunk, sizeof chunk, &len);
        if (st != DT_OK) dt__cli_progreso_limpiar(&prog);
        if (st == DT_ERR_INVALID_ARG) { /* parse checked the arguments; the reference date (--hoy) is left */
            fprintf(stderr, "datoteca: %s\n", chunk);
            rc = 2;
            break;
        }
        if (st != DT_OK) {
            fprintf(stderr, "datoteca: %s: %s\n", r->info->name, dt_status_str(st));
            rc = 2;
            break;
        }
        if (registro) {
            for (size_t k = 0; k < n; k++) escribir_registro(&ob, ll, a, r->formato, g, rec.bytes);
            left -= n;
            dt__cli_progreso_filas(&prog, n);
            continue;
        }
        const char *s = chunk;
        for (size_t k = 0; k < n; k++) {
            const char *nl = memchr(s, '\n', (size_t)(chunk + len - s));
            print_value(&ob, r->key, r->formato, r->info->kind == DT_KIND_INT, s, (size_t)(nl - s));
            s = nl + 1;
        }
        left -= n;
        dt__cli_progreso_filas(&prog, n);
    }
    dt__cli_ob_flush(&ob);
    dt_free(g);
    if (fflush(stdout) != 0) ob.error = 1;
    dt__cli_progreso_terminar(&prog, !ob.error && rc == 0);
    if (ob.error && rc == 0) {
        fprintf(stderr, "datoteca: cannot write the output: %s\n", strerror(errno));
        rc = 1;
    }
    dt__cli_ob_free(&ob);
    return rc;
}

static int cli(int argc, char **argv) {
    if (argc < 2) return usage(stderr, NULL);
    if (strcmp(argv[1], "--version") == 0) {
        printf("datoteca %s (data version %u)\n", dt_version(), dt_data_version());
        return 0;
    }
    if (strcmp(argv[1], "tabla") == 0) return dt__cli_tabla_main(argc, argv);
    if (strcmp(argv[1], "esquema") == 0) return dt__cli_esquema_main(argc, argv);
    if (strcmp(argv[1], "detectar") == 0) return dt__cli_detectar_main(argc, argv);
    if (strcmp(argv[1], "inferir") == 0) return dt__cli_inferir_main(argc, argv);
    if (strcmp(argv[1], "copiar") == 0) return dt__cli_copiar_main(argc, argv);
    if (strcmp(argv[1], "enmascarar") == 0) return dt__cli_enmascarar_main(argc, argv);
    if (strcmp(argv[1], "riesgo") == 0) return dt__cli_riesgo_main(argc, argv);
    if (strcmp(argv[1], "list") == 0) {
        list_calls();
        return 0;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) return usage(stdout, NULL);
    static peticion r; /* zeroed */
    int rc = parse(argc, argv, &r);
    if (rc == -1) return 0; /* CALL --help */
    return rc ? rc : run(&r);
}

int dt_cli_main(int argc, char **argv) {
#ifdef _WIN32
    _setmode(_fileno(stdout), _O_BINARY); /* the same bytes as elsewhere: no \r\n translation */
#endif
    int rc = cli(argc, argv);
    if (fflush(stdout) != 0 && rc == 0) rc = 1; /* the caller's process goes on: leave nothing buffered */
    fflush(stderr);
    return rc;
}
