/* The golden dataset in C: replay fixtures/golden-sequence.json for every seed, compare value
 * by value with fixtures/golden.json (the first divergence names seed, call number, call name,
 * expected and actual), then serialise the run canonically and compare bytes.
 * Usage: test_golden [SEQUENCE GOLDEN [OUT]]; OUT receives this run's canonical JSON. */
#include "check.h"
#include "datoteca.h"
#include "json.h"

#ifndef DT_FIXTURES_DIR
#error "DT_FIXTURES_DIR must point at fixtures/"
#endif

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

/* Compare one produced value with the fixture's; write a description of the mismatch. */
static int same_value(const dt_call_info *info, const char *text, const jval *want, char *why, size_t whylen) {
    if (info->kind != DT_KIND_RECORD) {
        if (want->tipo == J_STR && strcmp(want->str, text) == 0) return 1;
        snprintf(why, whylen, "expected \"%s\", got \"%s\"", want->tipo == J_STR ? want->str : "(not a string)", text);
        return 0;
    }
    const char *p = text;
    for (size_t f = 0; f < info->nfields; f++) {
        const char *end = strchr(p, DT_FIELD_SEP);
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const jval *w = jget(want, info->fields[f]);
        if (!w || w->tipo != J_STR || strlen(w->str) != n || memcmp(w->str, p, n) != 0) {
            snprintf(why, whylen, "field %s: expected \"%s\", got \"%.*s\"", info->fields[f], w && w->tipo == J_STR ? w->str : "(missing)", (int)n, p);
            return 0;
        }
        p = end ? end + 1 : p + n;
    }
    return 1;
}

int main(int argc, char **argv) {
    const char *seq_path = argc > 2 ? argv[1] : DT_FIXTURES_DIR "/golden-sequence.json";
    const char *gold_path = argc > 2 ? argv[2] : DT_FIXTURES_DIR "/golden.json";
    const char *out_path = argc > 3 ? argv[3] : NULL;
    char *seq_text = jread_file(seq_path);
    jval *seq = jparse(seq_text);
    char *gold_text = jread_file(gold_path);
    jval *gold = jparse(gold_text);
    const jval *seeds = jget(seq, "seeds"), *calls = jget(seq, "calls"), *runs = jget(gold, "runs");
    const char *hoy = jget(seq, "hoy")->str;
    CHECK(jget(gold, "data_version")->num == DT_DATA_VERSION, "fixture records data version %lld, the library is %d",
          jget(gold, "data_version")->num, DT_DATA_VERSION);

    sbuf b = {0};
    char line[64];
    snprintf(line, sizeof line, "{\n  \"data_version\": %d,\n  \"hoy\": ", DT_DATA_VERSION);
    puts_(&b, line);
    jstr(&b, hoy, strlen(hoy));
    puts_(&b, ",\n  \"runs\": [\n");
    int diverged = 0;
    for (size_t s = 0; s < seeds->n; s++) {
        const char *seed = seeds->items[s]->str;
        const jval *run = runs && s < runs->n ? jget(runs->items[s], "values") : NULL;
        dt_gen *g;
        dt_new(strtoull(seed, NULL, 10), &g);
        int y, m, d;
        sscanf(hoy, "%d-%d-%d", &y, &m, &d);
        dt_set_hoy(g, y, m, d);
        indent(&b, 2); puts_(&b, "{\n"); indent(&b, 3); puts_(&b, "\"seed\": "); jstr(&b, seed, strlen(seed));
        puts_(&b, ",\n"); indent(&b, 3); puts_(&b, "\"values\": [\n");
        for (size_t i = 0; i < calls->n; i++) {
            const char *name = jget(calls->items[i], "call")->str;
            size_t idx;
            if (dt_call_find(name, strlen(name), &idx) != DT_OK) { fprintf(stderr, "unknown call %s\n", name); return 2; }
            const dt_call_info *info = dt_call_at(idx);
            int64_t args[8];
            size_t nargs = args_of(info, jget(calls->items[i], "args"), args);
            char text[DT_MAX_TEXT];
            dt_status st = dt_call(g, idx, args, nargs, text, sizeof text, NULL);
            CHECK(st == DT_OK, "seed %s, call #%zu %s: status %d", seed, i, name, st);
            const jval *want = run && i < run->n ? jget(run->items[i], "value") : NULL;
            char why[2 * DT_MAX_TEXT];
            if (!diverged && (!want || !same_value(info, text, want, why, sizeof why))) {
                CHECK(0, "golden: seed %s, call #%zu %s: %s", seed, i, name, want ? why : "missing in the fixture");
                diverged = 1; /* only the first divergence: what follows it is its consequence */
            }
            indent(&b, 4); puts_(&b, "{\n"); indent(&b, 5); puts_(&b, "\"call\": "); jstr(&b, name, strlen(name));
            puts_(&b, ",\n"); indent(&b, 5); puts_(&b, "\"value\": ");
            if (info->kind == DT_KIND_RECORD) {
                puts_(&b, "{\n");
                const char *p = text;
                for (size_t f = 0; f < info->nfields; f++) {
                    const char *end = strchr(p, DT_FIELD_SEP);
                    size_t n = end ? (size_t)(end - p) : strlen(p);
                    indent(&b, 6); jstr(&b, info->fields[f], strlen(info->fields[f])); puts_(&b, ": "); jstr(&b, p, n);
                    puts_(&b, f + 1 < info->nfields ? ",\n" : "\n");
                    p = end ? end + 1 : p + n;
                }
                indent(&b, 5); puts_(&b, "}");
            } else {
                jstr(&b, text, strlen(text));
            }
            puts_(&b, "\n"); indent(&b, 4); puts_(&b, i + 1 < calls->n ? "},\n" : "}\n");
        }
        indent(&b, 3); puts_(&b, "]\n"); indent(&b, 2); puts_(&b, s + 1 < seeds->n ? "},\n" : "}\n");
        dt_free(g);
    }
    puts_(&b, "  ]\n}\n");

    if (out_path) {
        FILE *f = fopen(out_path, "wb");
        if (!f || fwrite(b.s, 1, b.n, f) != b.n) { fprintf(stderr, "cannot write %s\n", out_path); return 2; }
        fclose(f);
    }
    if (!diverged) {
        size_t k = 0, n = strlen(gold_text), ln = 1;
        while (k < b.n && k < n && b.s[k] == gold_text[k]) { if (b.s[k] == '\n') ln++; k++; }
        CHECK(k == b.n && k == n, "canonical form differs from %s at byte %zu (line %zu) although every value agrees", gold_path, k, ln);
    }
    free(b.s);
    jfree(seq);
    jfree(gold);
    free(seq_text);
    free(gold_text);
    return dt_test_done("test_golden");
}
