/* The data contract in C, in stages; the first stage that fails stops the run (what follows it
 * is its consequence):
 *   versions  golden.json, fingerprint.json and DT_DATA_VERSION agree;
 *   tables    every table's digest (dt_referencia_at) equals fingerprint.json's, named on mismatch;
 *   golden    fixtures/golden-sequence.json replayed for every seed: value by value, then the
 *             stream position after each call (its draws), then the canonical bytes;
 *   calls     SHA-256 of the first 10,000 values of every call and argument set, and the draws;
 *   datasets  FNV-1a 64 of rows 0..9,999 and of 1,000 rows far from zero of every dataset case,
 *             rebuilt through dt_tabla_new and read through dt_tabla_filas;
 *   esquemas  each shipped schema (esquemas/ beside the fixtures directory): its file's sha256, then
 *             each table's rows and the same slices, through dt_esquema_new and dt_esquema_filas.
 * Messages and forms are the same in Python and Node (docs/determinism.md).
 * Usage: test_golden [--fixtures DIR] [--out FILE]   (FILE receives this run's canonical golden
 * JSON; a path inside fixtures/ is refused: tools/regen_fixtures.py is the only writer). */
#include "check.h"
#include "datoteca.h"
#include "json.h"
#include "sha256.h"

#ifndef DT_FIXTURES_DIR
#error "DT_FIXTURES_DIR must point at fixtures/"
#endif

#define VALUES_PER_CALL 10000
#define PCG_MULT 6364136223846793005ULL

typedef struct { char *s; size_t n, cap; } sbuf;

static void put(sbuf *b, const char *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        while (b->n + n + 1 > b->cap) b->cap = b->cap ? b->cap * 2 : 4096;
        b->s = realloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}
static void puts_(sbuf *b, const char *s) { put(b, s, strlen(s)); }
static void indent(sbuf *b, int level) { for (int i = 0; i < level; i++) put(b, "  ", 2); }

/* The canonical string form: Python's json.dumps(ensure_ascii=False) and JSON.stringify agree on it. */
static void jstr(sbuf *b, const char *s, size_t n) {
    put(b, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc[8];
        switch (c) {
        case '"': put(b, "\\\"", 2); break;
        case '\\': put(b, "\\\\", 2); break;
        case '\n': put(b, "\\n", 2); break;
        case '\r': put(b, "\\r", 2); break;
        case '\t': put(b, "\\t", 2); break;
        case '\b': put(b, "\\b", 2); break;
        case '\f': put(b, "\\f", 2); break;
        default:
            if (c < 0x20) {
                snprintf(esc, sizeof esc, "\\u%04x", c);
                put(b, esc, 6);
            } else {
                put(b, (const char *)&s[i], 1);
            }
        }
    }
    put(b, "\"", 1);
}

/* One value as JSON: a string, or a record's fields as an object. `level` < 0: compact (the
 * digest's form), else indented at that level (golden.json's form). */
static void jvalue_of(sbuf *b, size_t idx, const dt_call_info *info, const char *text, int level) {
    if (info->kind != DT_KIND_RECORD) { jstr(b, text, strlen(text)); return; }
    puts_(b, level < 0 ? "{" : "{\n");
    const char *p = text;
    for (size_t f = 0; f < info->nfields; f++) {
        const char *end = strchr(p, DT_FIELD_SEP);
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (level >= 0) indent(b, level + 1);
        jstr(b, info->fields[f], strlen(info->fields[f]));
        puts_(b, level < 0 ? ":" : ": ");
        if (n == 0 && dt_call_field_nullable(idx, f)) puts_(b, "null"); /* no value */
        else jstr(b, p, n);
        if (f + 1 < info->nfields) puts_(b, level < 0 ? "," : ",\n");
        p = end ? end + 1 : p + n;
    }
    if (level >= 0) { puts_(b, "\n"); indent(b, level); }
    puts_(b, "}");
}

/* ---- stream positions, computed here from the saved state, independently of the library ---- */

static void pcg_state(const dt_gen *g, uint64_t *state, uint64_t *inc) {
    uint8_t s[DT_STATE_SIZE];
    dt_state_save(g, s, sizeof s, NULL);
    *state = *inc = 0;
    for (int i = 7; i >= 0; i--) {
        *state = *state << 8 | s[4 + i];
        *inc = *inc << 8 | s[12 + i];
    }
}

/* PCG32 steps from `from` to `to`: the LCG's jump-ahead bit by bit (applying the step 2^k
 * times is itself an LCG with multiplier m^(2^k) and increment inc * (m^(2^(k-1)) + 1) …). */
static uint64_t draws_between(uint64_t from, uint64_t to, uint64_t inc) {
    uint64_t mult = PCG_MULT, plus = inc, distance = 0, bit = 1;
    while (from != to) {
        if ((from ^ to) & bit) {
            from = from * mult + plus;
            distance |= bit;
        }
        bit <<= 1;
        plus = (mult + 1) * plus;
        mult *= mult;
    }
    return distance;
}

/* ---- arguments ---- */

/* Arguments of one step, in parameter order, defaults where absent. */
static size_t args_of(const dt_call_info *info, const jval *args, int64_t *out) {
    for (size_t j = 0; j < info->nparams; j++) {
        const dt_param_info *p = &info->params[j];
        const jval *v = jget(args, p->name);
        out[j] = p->def;
        if (!v) continue;
        if (v->tipo == J_NUM) {
            out[j] = v->num;
        } else if (v->tipo == J_STR && p->choices) {
            int found = 0;
            for (int64_t k = p->min; k <= p->max; k++)
                if (strcmp(p->choices[k - p->min], v->str) == 0) { out[j] = k; found = 1; }
            if (!found) { fprintf(stderr, "%s: no choice '%s' for %s\n", info->name, v->str, p->name); exit(2); }
        } else {
            fprintf(stderr, "%s: bad argument %s\n", info->name, p->name);
            exit(2);
        }
    }
    for (size_t k = 0; args && k < args->n; k++) {
        size_t j = 0;
        while (j < info->nparams && strcmp(info->params[j].name, args->keys[k]) != 0) j++;
        if (j == info->nparams) { fprintf(stderr, "%s takes no argument '%s'\n", info->name, args->keys[k]); exit(2); }
    }
    return info->nparams;
}

/* The arguments as compact JSON, for messages: {"tipo":"empresa","formato":"guion"}. */
static void args_text(const jval *args, char *out, size_t cap) {
    sbuf b = {0};
    puts_(&b, "{");
    for (size_t k = 0; args && k < args->n; k++) {
        if (k) puts_(&b, ",");
        jstr(&b, args->keys[k], strlen(args->keys[k]));
        puts_(&b, ":");
        if (args->items[k]->tipo == J_STR) {
            jstr(&b, args->items[k]->str, strlen(args->items[k]->str));
        } else {
            char num[32];
            snprintf(num, sizeof num, "%lld", args->items[k]->num);
            puts_(&b, num);
        }
    }
    puts_(&b, "}");
    snprintf(out, cap, "%s", b.s);
    free(b.s);
}

static dt_gen *instance(const char *seed, const char *hoy) {
    dt_gen *g = NULL;
    int y = 0, m = 0, d = 0;
    if (dt_new(strtoull(seed, NULL, 10), &g) != DT_OK || sscanf(hoy, "%d-%d-%d", &y, &m, &d) != 3 ||
        dt_set_hoy(g, y, m, d) != DT_OK) {
        fprintf(stderr, "cannot make an instance for seed %s on %s\n", seed, hoy);
        exit(2);
    }
    return g;
}

static const dt_call_info *find_call(const char *name, size_t *idx) {
    if (dt_call_find(name, strlen(name), idx) != DT_OK) { fprintf(stderr, "unknown call %s\n", name); exit(2); }
    return dt_call_at(*idx);
}

/* ---- stages: each returns its number of failures ---- */

static int stage_versions(const jval *golden, const jval *fp) {
    long long g = jget(golden, "data_version")->num, f = jget(fp, "data_version")->num;
    if (g == DT_DATA_VERSION && f == DT_DATA_VERSION) return 0;
    fprintf(stderr, "data version: golden.json records %lld, fingerprint.json records %lld, the library is %d\n",
            g, f, DT_DATA_VERSION);
    return 1;
}

static int stage_tables(const jval *fp) {
    const jval *want = jget(fp, "tables");
    size_t n = dt_referencia_count() > want->n ? dt_referencia_count() : want->n;
    int failures = 0;
    for (size_t i = 0; i < n; i++) {
        dt_referencia_info t = {"none", 0, 0};
        if (i < dt_referencia_count()) dt_referencia_at(i, &t);
        const jval *w = i < want->n ? want->items[i] : NULL;
        const char *wname = w ? jget(w, "table")->str : "none";
        char hex[17];
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)t.digest);
        if (i >= dt_referencia_count() || !w || strcmp(t.name, wname) != 0) {
            fprintf(stderr, "fingerprint: table %zu: the library has %s, the fixture %s\n", i + 1, t.name, wname);
            failures++;
        } else if (strcmp(hex, jget(w, "digest")->str) != 0 || (long long)t.rows != jget(w, "rows")->num) {
            fprintf(stderr, "fingerprint: table %s: digest %s, expected %s", t.name, hex, jget(w, "digest")->str);
            if ((long long)t.rows != jget(w, "rows")->num) fprintf(stderr, "; %u rows, expected %lld", t.rows, jget(w, "rows")->num);
            fprintf(stderr, "\n");
            failures++;
        }
    }
    return failures;
}

/* Describe how a produced value differs from the fixture's, or return 0 if it does not. */
static int differs(size_t idx, const dt_call_info *info, const char *text, const jval *want, char *why, size_t whylen) {
    if (info->kind != DT_KIND_RECORD) {
        if (want->tipo == J_STR && strcmp(want->str, text) == 0) return 0;
        snprintf(why, whylen, "expected \"%s\", got \"%s\"", want->tipo == J_STR ? want->str : "(not a string)", text);
        return 1;
    }
    const char *p = text;
    for (size_t f = 0; f < info->nfields; f++) {
        const char *end = strchr(p, DT_FIELD_SEP);
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const jval *w = jget(want, info->fields[f]);
        int nulo = w && w->tipo == J_NULL && n == 0 && dt_call_field_nullable(idx, f);
        if (!nulo && (!w || w->tipo != J_STR || strlen(w->str) != n || memcmp(w->str, p, n) != 0)) {
            snprintf(why, whylen, "field %s: expected \"%s\", got \"%.*s\"", info->fields[f],
                     w && w->tipo == J_STR ? w->str : "(missing)", (int)n, p);
            return 1;
        }
        p = end ? end + 1 : p + n;
    }
    return 0;
}

/* Replay the sequence, compare the first divergence, and write the canonical form into `b`. */
static int stage_golden(const jval *seq, const jval *golden, const char *golden_text, const char *golden_path, sbuf *b) {
    const jval *seeds = jget(seq, "seeds"), *calls = jget(seq, "calls"), *runs = jget(golden, "runs");
    const char *hoy = jget(seq, "hoy")->str;
    char line[64];
    snprintf(line, sizeof line, "{\n  \"data_version\": %d,\n  \"hoy\": ", DT_DATA_VERSION);
    puts_(b, line);
    jstr(b, hoy, strlen(hoy));
    puts_(b, ",\n  \"runs\": [\n");
    int diverged = 0;
    for (size_t s = 0; s < seeds->n; s++) {
        const char *seed = seeds->items[s]->str;
        const jval *run = runs && s < runs->n ? jget(runs->items[s], "values") : NULL;
        if (!diverged && (!run || strcmp(jget(runs->items[s], "seed")->str, seed) != 0)) {
            fprintf(stderr, "golden: the fixture has no run for seed %s at position %zu\n", seed, s + 1);
            diverged = 1;
        }
        dt_gen *g = instance(seed, hoy);
        indent(b, 2); puts_(b, "{\n"); indent(b, 3); puts_(b, "\"seed\": "); jstr(b, seed, strlen(seed));
        puts_(b, ",\n"); indent(b, 3); puts_(b, "\"values\": [\n");
        uint64_t before, inc, after;
        pcg_state(g, &before, &inc);
        for (size_t i = 0; i < calls->n; i++) {
            const char *name = jget(calls->items[i], "call")->str;
            size_t idx;
            const dt_call_info *info = find_call(name, &idx);
            int64_t args[16];
            size_t nargs = args_of(info, jget(calls->items[i], "args"), args);
            char text[DT_MAX_TEXT];
            dt_status st = dt_call(g, idx, args, nargs, text, sizeof text, NULL);
            CHECK(st == DT_OK, "seed %s, call %zu %s: status %d", seed, i + 1, name, st);
            pcg_state(g, &after, &inc);
            unsigned long long draws = (unsigned long long)draws_between(before, after, inc);
            before = after;
            const jval *want = run && i < run->n ? run->items[i] : NULL;
            char why[2 * DT_MAX_TEXT];
            if (!diverged) {
                const char *wcall = want ? jget(want, "call")->str : NULL;
                const jval *wdraws = want ? jget(want, "draws") : NULL;
                if (!want) snprintf(why, sizeof why, "missing in the fixture");
                else if (strcmp(wcall, name) != 0) snprintf(why, sizeof why, "the fixture has %s here", wcall);
                if (!want || strcmp(wcall, name) != 0 || differs(idx, info, text, jget(want, "value"), why, sizeof why)) {
                    fprintf(stderr, "golden: seed %s, call %zu of %zu (%s): %s\n", seed, i + 1, calls->n, name, why);
                    diverged = 1; /* only the first divergence: what follows it is its consequence */
                } else if (!wdraws || (unsigned long long)wdraws->num != draws) {
                    fprintf(stderr, "golden: seed %s, call %zu of %zu (%s): same value, but %llu draws instead of %lld\n",
                            seed, i + 1, calls->n, name, draws, wdraws ? wdraws->num : -1LL);
                    diverged = 1;
                }
            }
            indent(b, 4); puts_(b, "{\n"); indent(b, 5); puts_(b, "\"call\": "); jstr(b, name, strlen(name));
            puts_(b, ",\n"); indent(b, 5); puts_(b, "\"value\": ");
            jvalue_of(b, idx, info, text, 5);
            snprintf(line, sizeof line, ",\n          \"draws\": %llu\n", draws);
            puts_(b, line);
            indent(b, 4); puts_(b, i + 1 < calls->n ? "},\n" : "}\n");
        }
        if (!diverged && run->n != calls->n) {
            fprintf(stderr, "golden: seed %s: %zu calls, the fixture has %zu\n", seed, calls->n, run->n);
            diverged = 1;
        }
        indent(b, 3); puts_(b, "]\n"); indent(b, 2); puts_(b, s + 1 < seeds->n ? "},\n" : "}\n");
        dt_free(g);
    }
    puts_(b, "  ]\n}\n");
    if (!diverged && (runs->n != seeds->n)) {
        fprintf(stderr, "golden: the fixture has %zu runs, the sequence %zu seeds\n", runs->n, seeds->n);
        diverged = 1;
    }
    if (!diverged) {
        size_t k = 0, n = strlen(golden_text), ln = 1;
        while (k < b->n && k < n && b->s[k] == golden_text[k]) { if (b->s[k] == '\n') ln++; k++; }
        if (k != b->n || k != n) {
            fprintf(stderr, "golden: the canonical form differs from %s at byte %zu (line %zu) although every value agrees\n",
                    golden_path, k, ln);
            diverged = 1;
        }
    }
    return diverged;
}

static int stage_calls(const jval *fp) {
    if (jget(fp, "values_per_call")->num != VALUES_PER_CALL) {
        fprintf(stderr, "fingerprint: values_per_call is %lld, the runner digests %d\n", jget(fp, "values_per_call")->num, VALUES_PER_CALL);
        return 1;
    }
    const jval *entries = jget(fp, "calls");
    const char *hoy = jget(fp, "hoy")->str;
    int failures = 0;
    sbuf b = {0};
    for (size_t e = 0; e < entries->n; e++) {
        const char *name = jget(entries->items[e], "call")->str;
        const jval *jargs = jget(entries->items[e], "args"), *runs = jget(entries->items[e], "runs");
        size_t idx;
        const dt_call_info *info = find_call(name, &idx);
        int64_t args[16];
        size_t nargs = args_of(info, jargs, args);
        char atext[256];
        args_text(jargs, atext, sizeof atext);
        for (size_t r = 0; r < runs->n; r++) {
            const char *seed = jget(runs->items[r], "seed")->str;
            dt_gen *g = instance(seed, hoy);
            uint64_t start, inc, end;
            pcg_state(g, &start, &inc);
            sha256 h;
            sha256_init(&h);
            for (int i = 0; i < VALUES_PER_CALL; i++) {
                char text[DT_MAX_TEXT];
                dt_status st = dt_call(g, idx, args, nargs, text, sizeof text, NULL);
                CHECK(st == DT_OK, "fingerprint: seed %s, %s %s, value %d: status %d", seed, name, atext, i + 1, st);
                b.n = 0;
                jvalue_of(&b, idx, info, text, -1);
                puts_(&b, "\n");
                sha256_update(&h, b.s, b.n);
            }
            pcg_state(g, &end, &inc);
            dt_free(g);
            char hex[65];
            sha256_hex(&h, hex);
            unsigned long long draws = (unsigned long long)draws_between(start, end, inc);
            const char *want = jget(runs->items[r], "sha256")->str;
            long long wdraws = jget(runs->items[r], "draws")->num;
            if (strcmp(hex, want) != 0) {
                fprintf(stderr, "fingerprint: seed %s, %s %s: the first %d values differ (sha256 %.16s…, expected %.16s…)\n",
                        seed, name, atext, VALUES_PER_CALL, hex, want);
                failures++;
            } else if ((long long)draws != wdraws) {
                fprintf(stderr, "fingerprint: seed %s, %s %s: same values, but %llu draws instead of %lld\n",
                        seed, name, atext, draws, wdraws);
                failures++;
            }
        }
    }
    free(b.s);
    return failures;
}

/* ---- datasets: FNV-1a 64 of slices of rows exactly as dt_tabla_filas writes them ---- */

#define DATASET_CHUNK 1000

static uint64_t fnv1a64(uint64_t h, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
    return h;
}

/* A JSON value in Python's compact form (separators "," and ":"), for a case's label. */
static void jcompact(sbuf *b, const jval *v) {
    char num[32];
    switch (v->tipo) {
    case J_STR: jstr(b, v->str, strlen(v->str)); break;
    case J_NUM: snprintf(num, sizeof num, "%lld", v->num); puts_(b, num); break;
    case J_NULL: puts_(b, "null"); break;
    case J_BOOL: puts_(b, v->num ? "true" : "false"); break;
    default:
        puts_(b, v->tipo == J_OBJ ? "{" : "[");
        for (size_t k = 0; k < v->n; k++) {
            if (k) puts_(b, ",");
            if (v->tipo == J_OBJ) { jstr(b, v->keys[k], strlen(v->keys[k])); puts_(b, ":"); }
            jcompact(b, v->items[k]);
        }
        puts_(b, v->tipo == J_OBJ ? "}" : "]");
    }
}

/* A row for a message: fields joined by |, a null as \N (the form of every runner). */
static void show_row(sbuf *b, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (s[i] == DT_FIELD_SEP) puts_(b, "|");
        else if (s[i] == DT_NULO) puts_(b, "\\N");
        else put(b, s + i, 1);
    }
}

/* A list of names ["rut","email"] or rates {"email":100} in dt_tabla_opciones' text form. */
static char *option_list(const jval *v, sbuf *b) {
    b->n = 0;
    puts_(b, "");
    for (size_t k = 0; v && k < v->n; k++) {
        char num[32];
        if (k) puts_(b, ",");
        if (v->tipo == J_ARR) {
            puts_(b, v->items[k]->str);
        } else {
            puts_(b, v->keys[k]);
            snprintf(num, sizeof num, ":%lld", v->items[k]->num);
            puts_(b, num);
        }
    }
    return v ? b->s : NULL;
}

/* Where rows come from: a dataset (dt_tabla_filas) or one table of a schema (dt_esquema_filas). */
typedef struct {
    dt_tabla *tabla;
    const dt_esquema *esquema;
    size_t indice;
} fuente;

static dt_status fuente_filas(const fuente *f, uint64_t desde, size_t n, char *buf, size_t cap, size_t *len) {
    return f->tabla ? dt_tabla_filas(f->tabla, desde, n, buf, cap, len)
                    : dt_esquema_filas(f->esquema, f->indice, desde, n, buf, cap, len);
}

/* One slice {desde, n, every_1000, first_row} of the fixture against the rows of `f`: its first row
 * (expected and actual text), else the first 1,000 rows whose running FNV-1a 64 differs. Prints the
 * message under `where` (a dataset case, or a schema's table) and returns 1 when they differ. *rows
 * (of *cap bytes) grows when a chunk needs more. The one comparison of the datasets and esquemas stages. */
static int compare_slice(const char *where, const jval *w, const fuente *f, char **rows, size_t *cap, sbuf *msg) {
    const jval *every = jget(w, "every_1000");
    uint64_t desde = (uint64_t)jget(w, "desde")->num, n = (uint64_t)jget(w, "n")->num, h = 0xcbf29ce484222325ULL;
    const char *want_first = jget(w, "first_row")->str;
    for (uint64_t k = 0; k < n; k += DATASET_CHUNK) {
        size_t m = n - k < DATASET_CHUNK ? (size_t)(n - k) : DATASET_CHUNK, len = 0;
        dt_status st = fuente_filas(f, desde + k, m, *rows, *cap, &len);
        if (st == DT_ERR_BUFFER_TOO_SMALL && len > *cap) {
            *rows = realloc(*rows, *cap = len);
            st = fuente_filas(f, desde + k, m, *rows, *cap, &len);
        }
        if (st != DT_OK) {
            fprintf(stderr, "%s, rows %llu..%llu: status %d: %s\n", where, (unsigned long long)(desde + k),
                    (unsigned long long)(desde + k + m - 1), st, st == DT_ERR_INVALID_ARG ? *rows : "");
            return 1;
        }
        h = fnv1a64(h, *rows, len);
        char hex[17];
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
        size_t first_len = strchr(*rows, '\n') - *rows;
        msg->n = 0;
        puts_(msg, "");
        if (k == 0 && (first_len != strlen(want_first) || memcmp(*rows, want_first, first_len) != 0)) {
            puts_(msg, "differs: expected \"");
            show_row(msg, want_first, strlen(want_first));
            puts_(msg, "\", got \"");
            show_row(msg, *rows, first_len);
            puts_(msg, "\"");
            fprintf(stderr, "%s, rows %llu..%llu: row %llu %s\n", where, (unsigned long long)desde,
                    (unsigned long long)(desde + n - 1), (unsigned long long)desde, msg->s);
            return 1;
        }
        if (k / DATASET_CHUNK >= every->n || strcmp(hex, every->items[k / DATASET_CHUNK]->str) != 0) {
            fprintf(stderr, "%s, rows %llu..%llu: row %llu agrees; the first difference is in rows %llu..%llu "
                    "(fnv1a64 up to there %s, expected %s)\n", where, (unsigned long long)desde,
                    (unsigned long long)(desde + n - 1), (unsigned long long)desde, (unsigned long long)(desde + k),
                    (unsigned long long)(desde + k + m - 1), hex,
                    k / DATASET_CHUNK < every->n ? every->items[k / DATASET_CHUNK]->str : "none");
            return 1;
        }
    }
    return 0;
}

static int stage_datasets(const jval *fp) {
    const jval *cases = jget(fp, "datasets");
    if (!cases) {
        fprintf(stderr, "fingerprint: fingerprint.json has no datasets section (tools/regen_fixtures.py writes it)\n");
        return 1;
    }
    int failures = 0;
    size_t cap = DATASET_CHUNK * (size_t)DT_MAX_TEXT;
    char *rows = malloc(cap);
    sbuf unico = {0}, nulos = {0}, sucio = {0}, label = {0}, msg = {0};
    for (size_t e = 0; e < cases->n; e++) {
        const jval *c = cases->items[e], *o = jget(c, "options");
        const char *name = jget(c, "call")->str;
        label.n = 0;
        puts_(&label, "dataset: ");
        puts_(&label, name);
        puts_(&label, " ");
        jcompact(&label, o);
        dt_tabla_opciones opt = {0};
        opt.tamano = sizeof opt;
        find_call(name, &opt.llamada);
        for (size_t k = 0; k < o->n; k++) {
            const char *key = o->keys[k];
            const jval *v = o->items[k];
            if (strcmp(key, "seed") == 0 && v->tipo == J_NUM) opt.seed = (uint64_t)v->num;
            else if (strcmp(key, "seed") == 0 && v->tipo == J_STR) { opt.seed_texto = v->str; opt.seed_texto_len = strlen(v->str); }
            else if (strcmp(key, "unico") == 0) opt.unico = option_list(v, &unico);
            else if (strcmp(key, "nulos") == 0) opt.nulos = option_list(v, &nulos);
            else if (strcmp(key, "sucio") == 0) opt.sucio = option_list(v, &sucio);
            else { fprintf(stderr, "%s: this runner takes no option '%s'\n", label.s, key); exit(2); }
        }
        dt_tabla *t = NULL;
        char why[512];
        if (dt_tabla_new(&opt, &t, why, sizeof why) != DT_OK) {
            fprintf(stderr, "%s: refused: %s\n", label.s, why);
            failures++;
            continue;
        }
        const jval *wcap = jget(c, "capacity");
        unsigned long long have_cap = (unsigned long long)dt_tabla_capacidad(t);
        unsigned long long want_cap = wcap ? (unsigned long long)wcap->num : 1ULL << 63;
        if (have_cap != want_cap) {
            fprintf(stderr, "%s: capacity %llu, expected %llu\n", label.s, have_cap, want_cap);
            failures++;
            dt_tabla_free(t);
            continue;
        }
        const jval *slices = jget(c, "slices");
        fuente f = {t, NULL, 0};
        for (size_t s = 0; s < slices->n; s++) {
            if (compare_slice(label.s, slices->items[s], &f, &rows, &cap, &msg)) {
                failures++;
                break; /* the far slice of a case whose first slice differs adds nothing */
            }
        }
        dt_tabla_free(t);
    }
    free(rows);
    free(unico.s); free(nulos.s); free(sucio.s); free(label.s); free(msg.s);
    return failures;
}

/* ---- esquemas: the shipped schemas (esquemas/ beside the fixtures), each table's slices as datasets' ---- */

static int stage_esquemas(const jval *fp, const char *fixtures_dir) {
    const jval *list = jget(fp, "esquemas");
    if (!list) {
        fprintf(stderr, "fingerprint: fingerprint.json has no esquemas section (tools/regen_fixtures.py writes it)\n");
        return 1;
    }
    const char *hoy = jget(fp, "hoy")->str;
    int y = 0, mo = 0, d = 0, failures = 0;
    if (sscanf(hoy, "%d-%d-%d", &y, &mo, &d) != 3) { fprintf(stderr, "fingerprint: hoy '%s' is not a date\n", hoy); return 1; }
    size_t cap = DATASET_CHUNK * (size_t)DT_MAX_TEXT;
    char *rows = malloc(cap);
    sbuf label = {0}, msg = {0};
    for (size_t i = 0; i < list->n; i++) {
        const jval *entry = list->items[i], *tablas = jget(entry, "tablas");
        const char *name = jget(entry, "esquema")->str, *want_sha = jget(entry, "sha256")->str;
        long long seed = jget(entry, "seed")->num;
        char where[512], path[1024];
        snprintf(where, sizeof where, "esquema: %s (seed %lld)", name, seed);
        snprintf(path, sizeof path, "%s/../esquemas/%s", fixtures_dir, name);
        FILE *probe = fopen(path, "rb");
        if (!probe) { fprintf(stderr, "%s: esquemas/%s is gone\n", where, name); failures++; continue; }
        fclose(probe);
        long len = 0;
        char *texto = leer_archivo(path, &len), hex[65];
        sha256 sh;
        sha256_init(&sh);
        sha256_update(&sh, texto, (size_t)len);
        sha256_hex(&sh, hex);
        if (strcmp(hex, want_sha) != 0) {
            fprintf(stderr, "%s: the schema file changed (sha256 %.16s…, expected %.16s…): its rows below follow from the edited file\n",
                    where, hex, want_sha);
            failures++;
        }
        size_t nlen = strlen(name);
        int formato = nlen > 5 && strcmp(name + nlen - 5, ".json") == 0 ? DT_ESQUEMA_JSON : DT_ESQUEMA_TOML;
        dt_esquema *e = NULL;
        char why[DT_SENTENCE_MAX];
        dt_status st = dt_esquema_new(texto, (size_t)len, formato, name, (uint64_t)seed, y, mo, d, &e, why, sizeof why);
        free(texto);
        if (st != DT_OK) {
            fprintf(stderr, "%s: refused: %s\n", where, why);
            failures++;
            continue;
        }
        int same_tables = dt_esquema_tablas(e) == tablas->n;
        for (size_t t = 0; same_tables && t < tablas->n; t++)
            same_tables = strcmp(dt_esquema_tabla(e, t), jget(tablas->items[t], "tabla")->str) == 0;
        if (!same_tables) {
            msg.n = 0;
            puts_(&msg, "");
            for (size_t t = 0; t < dt_esquema_tablas(e); t++) { if (t) puts_(&msg, ", "); puts_(&msg, dt_esquema_tabla(e, t)); }
            puts_(&msg, ", expected ");
            for (size_t t = 0; t < tablas->n; t++) { if (t) puts_(&msg, ", "); puts_(&msg, jget(tablas->items[t], "tabla")->str); }
            fprintf(stderr, "%s: tables %s\n", where, msg.s);
            failures++;
        }
        for (size_t t = 0; t < tablas->n; t++) {
            const jval *want = tablas->items[t], *slices = jget(want, "slices");
            const char *tabla = jget(want, "tabla")->str;
            size_t idx;
            if (dt_esquema_buscar(e, tabla, strlen(tabla), &idx) != DT_OK) continue; /* named above */
            label.n = 0;
            puts_(&label, where);
            puts_(&label, ", table ");
            puts_(&label, tabla);
            unsigned long long have = (unsigned long long)dt_esquema_tabla_filas(e, idx), expected = (unsigned long long)jget(want, "filas")->num;
            if (have != expected) {
                fprintf(stderr, "%s: %llu rows, expected %llu\n", label.s, have, expected);
                failures++;
                continue;
            }
            fuente f = {NULL, e, idx};
            for (size_t s = 0; s < slices->n; s++) {
                if (compare_slice(label.s, slices->items[s], &f, &rows, &cap, &msg)) {
                    failures++;
                    break; /* the last rows of a table whose first rows differ add nothing */
                }
            }
        }
        dt_esquema_free(e);
    }
    free(rows);
    free(label.s); free(msg.s);
    return failures;
}

/* The helpers the stages rest on, checked against published values first. */
static void self_test(void) {
    static const char *const in[] = {"", "abc"};
    static const char *const out[] = {"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                                      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"};
    for (int i = 0; i < 2; i++) {
        sha256 h;
        char hex[65];
        sha256_init(&h);
        sha256_update(&h, in[i], strlen(in[i]));
        sha256_hex(&h, hex);
        CHECK(strcmp(hex, out[i]) == 0, "sha256(\"%s\") = %s, FIPS 180-4 says %s", in[i], hex, out[i]);
    }
    dt_gen *g = instance("7", "2026-01-01");
    uint64_t a, b, inc;
    pcg_state(g, &a, &inc);
    for (unsigned long long k = 0; k < 70000; k++) {
        if (k == 0 || k == 1 || k == 2 || k == 31 || k == 1000 || k == 65537) {
            pcg_state(g, &b, &inc);
            CHECK(draws_between(a, b, inc) == k, "draws_between after %llu draws says %llu", k, (unsigned long long)draws_between(a, b, inc));
        }
        uint32_t v;
        dt_next_u32(g, &v);
    }
    dt_free(g);
}

int main(int argc, char **argv) {
    const char *dir = DT_FIXTURES_DIR, *out_path = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--fixtures") == 0) dir = argv[i + 1];
        else if (strcmp(argv[i], "--out") == 0) out_path = argv[i + 1];
        else { fprintf(stderr, "usage: test_golden [--fixtures DIR] [--out FILE]\n"); return 2; }
    }
    if (argc % 2 == 0) { fprintf(stderr, "usage: test_golden [--fixtures DIR] [--out FILE]\n"); return 2; }
    if (out_path && strstr(out_path, "fixtures/golden.json")) {
        fprintf(stderr, "refusing to write %s: the fixtures are written only by tools/regen_fixtures.py\n", out_path);
        return 2;
    }
    self_test();
    char path[3][1024];
    snprintf(path[0], sizeof path[0], "%s/golden-sequence.json", dir);
    snprintf(path[1], sizeof path[1], "%s/golden.json", dir);
    snprintf(path[2], sizeof path[2], "%s/fingerprint.json", dir);
    char *seq_text = jread_file(path[0]), *gold_text = jread_file(path[1]), *fp_text = jread_file(path[2]);
    jval *seq = jparse(seq_text), *gold = jparse(gold_text), *fp = jparse(fp_text);

    sbuf b = {0};
    const char *failed = NULL;
    if (stage_versions(gold, fp)) failed = "versions";
    else if (stage_tables(fp)) failed = "tables";
    else if (stage_golden(seq, gold, gold_text, path[1], &b)) failed = "golden";
    else if (stage_calls(fp)) failed = "calls";
    else if (stage_datasets(fp)) failed = "datasets";
    else if (stage_esquemas(fp, dir)) failed = "esquemas";
    if (failed) {
        fprintf(stderr, "contract (c): FAILED at the %s stage; later stages skipped (fix this first)\n", failed);
        dt_test_failures++;
    } else {
        printf("contract (c): ok: %zu tables, %zu x %zu golden values with their draws, call digests of %d values, "
               "%zu dataset cases, %zu shipped schemas\n", dt_referencia_count(), jget(seq, "seeds")->n, jget(seq, "calls")->n,
               VALUES_PER_CALL, jget(fp, "datasets")->n, jget(fp, "esquemas")->n);
    }
    if (out_path && b.n) {
        FILE *f = fopen(out_path, "wb");
        if (!f || fwrite(b.s, 1, b.n, f) != b.n) { fprintf(stderr, "cannot write %s\n", out_path); return 2; }
        fclose(f);
    }
    free(b.s);
    jfree(seq); jfree(gold); jfree(fp);
    free(seq_text); free(gold_text); free(fp_text);
    return dt_test_done("test_golden");
}
