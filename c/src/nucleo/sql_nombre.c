/* SQL names: a table or column name as the SQL the library writes must spell it (DDL, INSERT, \copy
 * scripts, the CLI's SQLite load). PostgreSQL folds a bare name to lower case and refuses a bare
 * keyword; SQLite refuses a bare keyword too. A name is written bare only when neither can mistake it
 * (lower-case ASCII letters, digits and '_', not starting with a digit, not a keyword of either), so
 * the DDL of an ordinary schema reads as before; any other name goes in double quotes, which both
 * dialects read with its case and characters kept (`"user"`, `"order"`, `"ClienteId"`, `"año"`).
 *
 * The keywords: PostgreSQL's reserved, column-name and type/function-name keywords (catcode R, C, T
 * of pg_get_keywords(), PostgreSQL 15.18: 151 words; its own quote_identifier quotes exactly
 * these) and SQLite's keywords (sqlite3_keyword_name, SQLite 3.40.1: 147 words); 229
 * in their union, sorted for a binary search. tests/python/test_sql_nombres.py creates a table and a
 * column named by every keyword the installed engines list, through the library's DDL. */
#include <stddef.h>
#include <string.h>

#include "../internal.h"

static const char *const dt__sql_claves[] = {
    "abort", "action", "add", "after", "all", "alter", "always", "analyse", "analyze", "and", "any", "array",
    "as", "asc", "asymmetric", "attach", "authorization", "autoincrement", "before", "begin", "between",
    "bigint", "binary", "bit", "boolean", "both", "by", "cascade", "case", "cast", "char", "character",
    "check", "coalesce", "collate", "collation", "column", "commit", "concurrently", "conflict", "constraint",
    "create", "cross", "current", "current_catalog", "current_date", "current_role", "current_schema",
    "current_time", "current_timestamp", "current_user", "database", "dec", "decimal", "default",
    "deferrable", "deferred", "delete", "desc", "detach", "distinct", "do", "drop", "each", "else", "end",
    "escape", "except", "exclude", "exclusive", "exists", "explain", "extract", "fail", "false", "fetch",
    "filter", "first", "float", "following", "for", "foreign", "freeze", "from", "full", "generated", "glob",
    "grant", "greatest", "group", "grouping", "groups", "having", "if", "ignore", "ilike", "immediate", "in",
    "index", "indexed", "initially", "inner", "inout", "insert", "instead", "int", "integer", "intersect",
    "interval", "into", "is", "isnull", "join", "key", "last", "lateral", "leading", "least", "left", "like",
    "limit", "localtime", "localtimestamp", "match", "materialized", "national", "natural", "nchar", "no",
    "none", "normalize", "not", "nothing", "notnull", "null", "nullif", "nulls", "numeric", "of", "offset",
    "on", "only", "or", "order", "others", "out", "outer", "over", "overlaps", "overlay", "partition",
    "placing", "plan", "position", "pragma", "preceding", "precision", "primary", "query", "raise", "range",
    "real", "recursive", "references", "regexp", "reindex", "release", "rename", "replace", "restrict",
    "returning", "right", "rollback", "row", "rows", "savepoint", "select", "session_user", "set", "setof",
    "similar", "smallint", "some", "substring", "symmetric", "table", "tablesample", "temp", "temporary",
    "then", "ties", "time", "timestamp", "to", "trailing", "transaction", "treat", "trigger", "trim", "true",
    "unbounded", "union", "unique", "update", "user", "using", "vacuum", "values", "varchar", "variadic",
    "verbose", "view", "virtual", "when", "where", "window", "with", "without", "xmlattributes", "xmlconcat",
    "xmlelement", "xmlexists", "xmlforest", "xmlnamespaces", "xmlparse", "xmlpi", "xmlroot", "xmlserialize",
    "xmltable",
};

static int dt__sql_clave(const char *s, size_t n) {
    size_t lo = 0, hi = sizeof dt__sql_claves / sizeof dt__sql_claves[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *k = dt__sql_claves[mid];
        size_t kn = strlen(k);
        int c = memcmp(s, k, n < kn ? n : kn);
        if (c == 0) c = n < kn ? -1 : n > kn ? 1 : 0;
        if (c == 0) return 1;
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return 0;
}

/* A UTF-8 sequence starting at s[i] (a byte >= 0x80): its length, or 0 when it is not well formed
 * (overlong, a surrogate, beyond U+10FFFF, cut short). */
static size_t dt__sql_utf8(const unsigned char *s, size_t n, size_t i) {
    unsigned c = s[i];
    size_t m = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (m == 0 || i + m > n) return 0;
    for (size_t k = 1; k < m; k++)
        if ((s[i + k] & 0xC0) != 0x80) return 0;
    if ((c == 0xE0 && s[i + 1] < 0xA0) || (c == 0xED && s[i + 1] > 0x9F) || (c == 0xF0 && s[i + 1] < 0x90) ||
        (c == 0xF4 && s[i + 1] > 0x8F))
        return 0;
    return m;
}

int dt__sql_nombre_valido(const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    if (n == 0 || n > DT__SQL_NOMBRE_MAX || (u[0] >= '0' && u[0] <= '9')) return 0;
    for (size_t i = 0; i < n;) {
        unsigned c = u[i];
        if (c >= 0x80) {
            size_t m = dt__sql_utf8(u, n, i);
            if (m == 0) return 0;
            /* U+0080..U+009F (C1 controls) and U+00A0 (no-break space) are not letters of a name */
            if (c == 0xC2 && u[i + 1] <= 0xA0) return 0;
            i += m;
            continue;
        }
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return 0;
        i++;
    }
    return 1;
}

size_t dt__sql_nombre(const char *s, size_t n, char *out) {
    int bare = n > 0 && !(s[0] >= '0' && s[0] <= '9');
    for (size_t i = 0; bare && i < n; i++)
        bare = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_';
    if (bare && !dt__sql_clave(s, n)) {
        memcpy(out, s, n);
        out[n] = '\0';
        return n;
    }
    size_t k = 0;
    out[k++] = '"';
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"') out[k++] = '"';
        out[k++] = s[i];
    }
    out[k++] = '"';
    out[k] = '\0';
    return k;
}
