/* The schema document and its two parsers (c/src/esquema/, docs/esquemas-formato.md): good inputs
 * against hand-written dumps of their trees (lines included), bad inputs against their exact
 * sentences, TOML documents against their JSON twins, declaration order, the limits, the readers'
 * NULL behaviour and sentences. Every failure names its case. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "datoteca.h"
#include "esquema/documento.h"

typedef enum { TOML, JSON } formato;

#ifdef DT_TEST_WRAP_MALLOC
/* Linked with -Wl,--wrap=malloc,--wrap=calloc (tests/c/CMakeLists.txt): allocation number
 * `fallar_en` fails, so every out-of-memory path of the parsers runs (and valgrind and ASan see
 * whether it leaks). */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
static long fallar_en = -1, asignaciones = 0;
void *__wrap_malloc(size_t n) { return fallar_en >= 0 && asignaciones++ == fallar_en ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) { return fallar_en >= 0 && asignaciones++ == fallar_en ? NULL : __real_calloc(n, size); }
#endif

static dt_status parse(formato f, const char *text, size_t len, const char *file, dt__doc **d, char *why, size_t cap) {
    return f == TOML ? dt__doc_parse_toml(text, len, file, d, why, cap) : dt__doc_parse_json(text, len, file, d, why, cap);
}

/* The dump as a malloc'd string (asked for its size first, as a caller would). */
static char *dump(const dt__doc_node *n, unsigned flags) {
    size_t len = 0;
    dt_status st = dt__doc_dump(n, flags, NULL, 0, &len);
    CHECK(st == DT_ERR_BUFFER_TOO_SMALL, "dump size query: %s", dt_status_str(st));
    char *b = (char *)malloc(len + 1);
    size_t len2 = 0;
    st = dt__doc_dump(n, flags, b, len + 1, &len2);
    CHECK(st == DT_OK && len2 == len && strlen(b) == len, "dump: %s, %zu then %zu bytes", dt_status_str(st), len, len2);
    return b;
}

/* ---- good inputs: the tree as a dump with lines ---- */

typedef struct bueno {
    const char *nombre;
    formato f;
    const char *texto;
    const char *arbol; /* dt__doc_dump with DT__DOC_DUMP_LINES */
    size_t len;        /* 0: strlen(texto) */
} bueno;

static const bueno buenos[] = {
    {"toml empty", TOML, "", "{}@1", 0},
    {"toml comments and blank lines", TOML, "# only a comment\n\n   \t\n# another\t one\n", "{}@1", 0},
    {"toml bare, quoted and literal keys", TOML, "a = 1\n\"b c\" = 2\n'd.e' = 3\n\"\" = 4\n1234 = 5\n-_ = 6\ntrue = 7\n",
     "{\"a\":1@1,\"b c\":2@2,\"d.e\":3@3,\"\":4@4,\"1234\":5@5,\"-_\":6@6,\"true\":7@7}@1", 0},
    {"toml dotted keys with spaces", TOML, "a . b. \"c\" = 1\na.d = 2\n",
     "{\"a\":{\"b\":{\"c\":1@1}@1,\"d\":2@2}@1}@1", 0},
    {"toml basic string escapes", TOML, "s = \"tab\\there \\\"q\\\" back\\\\slash \\u00e9 \\U0001F600 \\b\\f\\n\\r\"\n",
     "{\"s\":\"tab\\there \\\"q\\\" back\\\\slash é 😀 \\b\\f\\n\\r\"@1}@1", 0},
    {"toml raw tab and UTF-8 in strings", TOML, "s = \"a\tb ñandú\"\nl = 'c\td'\n",
     "{\"s\":\"a\\tb ñandú\"@1,\"l\":\"c\\td\"@2}@1", 0},
    {"toml literal strings keep backslashes", TOML, "p = 'C:\\Users\\x'\nq = ''\nr = \"\"\n",
     "{\"p\":\"C:\\\\Users\\\\x\"@1,\"q\":\"\"@2,\"r\":\"\"@3}@1", 0},
    {"toml integers", TOML, "a = 0\nb = +0\nc = -0\nd = 1_000_000\ne = -9223372036854775808\nf = 9223372036854775807\ng = +42\nh = 1_2_3\n",
     "{\"a\":0@1,\"b\":0@2,\"c\":0@3,\"d\":1000000@4,\"e\":-9223372036854775808@5,\"f\":9223372036854775807@6,\"g\":42@7,\"h\":123@8}@1", 0},
    {"toml booleans", TOML, "t = true\nf = false\n", "{\"t\":true@1,\"f\":false@2}@1", 0},
    {"toml multi-line array with comments and a trailing comma", TOML,
     "a = [\n  1, # one\n  2,\n  [ \"x\", 'y' ],\n  { k = true },\n]\nb = []\nc = [ # empty\n]\n",
     "{\"a\":[1@2,2@3,[\"x\"@4,\"y\"@4]@4,{\"k\":true@5}@5]@1,\"b\":[]@7,\"c\":[]@8}@1", 0},
    {"toml an array inside an inline table may span lines", TOML, "p = { a = [\n1, # c\n2], b = 3 }\n",
     "{\"p\":{\"a\":[1@2,2@3]@1,\"b\":3@3}@1}@1", 0},
    {"toml mixed array", TOML, "m = [1, \"a\", true, [], {}]",
     "{\"m\":[1@1,\"a\"@1,true@1,[]@1,{}@1]@1}@1", 0},
    {"toml tables and an implicit table defined later", TOML, "[t]\nx = 1\n[t.u]\ny = 2\n[v.w]\nz = 3\n[v]\nq = 4\n",
     "{\"t\":{\"x\":1@2,\"u\":{\"y\":2@4}@3}@1,\"v\":{\"w\":{\"z\":3@6}@5,\"q\":4@8}@7}@1", 0},
    {"toml arrays of tables", TOML,
     "[[t]]\nn = 1\n[t.sub]\nm = 1\n[[t]]\nn = 2\n[[t.items]]\ni = 1\n[[t.items]]\ni = 2\n",
     "{\"t\":[{\"n\":1@2,\"sub\":{\"m\":1@4}@3}@1,{\"n\":2@6,\"items\":[{\"i\":1@8}@7,{\"i\":2@10}@9]@7}@5]@1}@1", 0},
    {"toml empty array-of-tables elements", TOML, "[[a]]\n[[a]]\n", "{\"a\":[{}@1,{}@2]@1}@1", 0},
    {"toml inline tables with dotted keys", TOML, "p = { a.b = 1, a.c = 2, d = {}, \"e f\" = [1] }\n",
     "{\"p\":{\"a\":{\"b\":1@1,\"c\":2@1}@1,\"d\":{}@1,\"e f\":[1@1]@1}@1}@1", 0},
    {"toml dotted keys, then a header below them", TOML,
     "[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n[fruit.apple.texture]\nsmooth = true\n",
     "{\"fruit\":{\"apple\":{\"color\":\"red\"@2,\"taste\":{\"sweet\":true@3}@3,\"texture\":{\"smooth\":true@5}@4}@2}@1}@1", 0},
    {"toml dotted keys extending a table a deeper header made", TOML, "[a.b.c]\n[a]\nb.d = 1\n",
     "{\"a\":{\"b\":{\"c\":{}@1,\"d\":1@3}@3}@2}@1", 0},
    {"toml CRLF line ends", TOML, "a = 1\r\nb = [\r\n2\r\n]\r\n", "{\"a\":1@1,\"b\":[2@3]@2}@1", 0},
    {"toml byte order mark", TOML, "\xEF\xBB\xBF" "a = 1", "{\"a\":1@1}@1", 0},
    {"toml whitespace and comments after headers and values", TOML, "[ t ] # c\na = 1 # c\n[[ x . y ]]\t# c\n",
     "{\"t\":{\"a\":1@2}@1,\"x\":{\"y\":[{}@3]@3}@3}@1", 0},
    {"toml NUL and controls through escapes", TOML, "a = \"x\\u0000y\\u001f\\u007f\"",
     "{\"a\":\"x\\u0000y\\u001F\\u007F\"@1}@1", 0},
    {"toml UTF-8 keys, values and comments", TOML, "\"ñandú\" = \"Peñalolén\" # ¿qué?\n",
     "{\"ñandú\":\"Peñalolén\"@1}@1", 0},
    {"toml header through an array of tables goes to its last table", TOML, "[[a]]\n[[a]]\n[a.b]\nx = 1\n",
     "{\"a\":[{}@1,{\"b\":{\"x\":1@4}@3}@2]@1}@1", 0},
    {"toml no final newline", TOML, "a = 1", "{\"a\":1@1}@1", 0},
    {"json empty object", JSON, "{}", "{}@1", 0},
    {"json nested, with lines", JSON, "{\n  \"a\": 1,\n  \"b\": [true, false, \"x\"],\n  \"c\": {\"d\": -5, \"e\": {}}\n}\n",
     "{\"a\":1@2,\"b\":[true@3,false@3,\"x\"@3]@3,\"c\":{\"d\":-5@4,\"e\":{}@4}@4}@1", 0},
    {"json escapes and a surrogate pair", JSON,
     "{\"s\": \"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t \\u00e9 \\ud83d\\ude00 \\u0000\"}",
     "{\"s\":\"q\\\" b\\\\ s/ \\b\\f\\n\\r\\t é 😀 \\u0000\"@1}@1", 0},
    {"json whitespace everywhere", JSON, " \t\r\n{ \"a\" : [ ] , \"b\" :\n { } } \n", "{\"a\":[]@2,\"b\":{}@3}@2", 0},
    {"json integer extremes", JSON, "{\"a\":0,\"b\":-0,\"c\":9223372036854775807,\"d\":-9223372036854775808}",
     "{\"a\":0@1,\"b\":0@1,\"c\":9223372036854775807@1,\"d\":-9223372036854775808@1}@1", 0},
    {"json keys in declaration order", JSON, "{\"z\":1,\"a\":2,\"\":3,\"m n\":4,\"ñ\":5}",
     "{\"z\":1@1,\"a\":2@1,\"\":3@1,\"m n\":4@1,\"ñ\":5@1}@1", 0},
    {"json raw UTF-8 and DEL in strings", JSON, "{\"a\":\"Ñuñoa \x7F\"}", "{\"a\":\"Ñuñoa \\u007F\"@1}@1", 0},
    {"json byte order mark", JSON, "\xEF\xBB\xBF{\"a\":[[1]]}", "{\"a\":[[1@1]@1]@1}@1", 0},
    {"json NUL in a key", JSON, "{\"a\\u0000b\":true}", "{\"a\\u0000b\":true@1}@1", 0},
};

static void buenos_dan_su_arbol(void) {
    for (size_t i = 0; i < sizeof buenos / sizeof buenos[0]; i++) {
        const bueno *c = &buenos[i];
        dt__doc *d = NULL;
        char why[DT_SENTENCE_MAX];
        dt_status st = parse(c->f, c->texto, c->len ? c->len : strlen(c->texto), "t", &d, why, sizeof why);
        CHECK(st == DT_OK, "good case '%s': %s: %s", c->nombre, dt_status_str(st), why);
        if (st != DT_OK) continue;
        char *got = dump(dt__doc_root(d), DT__DOC_DUMP_LINES);
        CHECK(strcmp(got, c->arbol) == 0, "good case '%s':\n    expected %s\n    got      %s", c->nombre, c->arbol, got);
        free(got);
        dt__doc_free(d);
    }
}

/* ---- bad inputs: the exact sentence ---- */

typedef struct malo {
    const char *nombre;
    formato f;
    const char *texto;
    const char *frase; /* the file is "t.toml" or "t.json" */
    size_t len;        /* 0: strlen(texto) */
} malo;

static const malo malos[] = {
    /* TOML: what datoteca does not use */
    {"toml float", TOML, "a = 1.5", "t.toml:1: a float is not accepted (datoteca uses integers): 1.5", 0},
    {"toml float with exponent", TOML, "x = 1\na = 1e6", "t.toml:2: a float is not accepted (datoteca uses integers): 1e6", 0},
    {"toml float with underscores and exponent", TOML, "a = -3_1.4e-2", "t.toml:1: a float is not accepted (datoteca uses integers): -3_1.4e-2", 0},
    {"toml inf", TOML, "a = -inf", "t.toml:1: a float is not accepted (datoteca uses integers): -inf", 0},
    {"toml nan in an array", TOML, "a = [\n1,\nnan]", "t.toml:3: a float is not accepted (datoteca uses integers): nan", 0},
    {"toml date", TOML, "a = 1979-05-27", "t.toml:1: a date or time is not accepted (write it as a string): 1979-05-27", 0},
    {"toml date-time", TOML, "a = 1979-05-27T07:32:00Z", "t.toml:1: a date or time is not accepted (write it as a string): 1979-05-27T07:32:00Z", 0},
    {"toml time", TOML, "a = 07:32:00", "t.toml:1: a date or time is not accepted (write it as a string): 07:32:00", 0},
    {"toml multi-line basic string", TOML, "a = \"\"\"x\"\"\"", "t.toml:1: multi-line strings are not accepted: write the text on one line, with \\n for a line break", 0},
    {"toml multi-line literal string", TOML, "a = '''\nx'''", "t.toml:1: multi-line strings are not accepted: write the text on one line, with \\n for a line break", 0},
    {"toml hexadecimal", TOML, "a = 0xff", "t.toml:1: hexadecimal, octal and binary integers are not accepted (write it in decimal): 0xff", 0},
    {"toml octal", TOML, "a = 0o17", "t.toml:1: hexadecimal, octal and binary integers are not accepted (write it in decimal): 0o17", 0},
    {"toml binary", TOML, "a = 0b101", "t.toml:1: hexadecimal, octal and binary integers are not accepted (write it in decimal): 0b101", 0},
    {"toml null", TOML, "a = null", "t.toml:1: null is not accepted (leave the key out)", 0},
    /* TOML: integers */
    {"toml leading zeros", TOML, "a = 007", "t.toml:1: an integer with leading zeros is not accepted: 007", 0},
    {"toml negative leading zero", TOML, "a = -01", "t.toml:1: an integer with leading zeros is not accepted: -01", 0},
    {"toml double underscore", TOML, "a = 1__000", "t.toml:1: an underscore in an integer must be between two digits: 1__000", 0},
    {"toml trailing underscore", TOML, "a = 1_", "t.toml:1: an underscore in an integer must be between two digits: 1_", 0},
    {"toml underscore after the sign", TOML, "a = +_1", "t.toml:1: an underscore in an integer must be between two digits: +_1", 0},
    {"toml above int64", TOML, "a = 9223372036854775808", "t.toml:1: an integer out of range (-9223372036854775808 to 9223372036854775807): 9223372036854775808", 0},
    {"toml below int64", TOML, "a = -9223372036854775809", "t.toml:1: an integer out of range (-9223372036854775808 to 9223372036854775807): -9223372036854775809", 0},
    {"toml sign alone", TOML, "a = -", "t.toml:1: expected a value (a string, an integer, true, false, an array or an inline table), got -", 0},
    /* TOML: keys and tables defined twice */
    {"toml duplicate key", TOML, "a = 1\na = 2", "t.toml:2: duplicate key a (first written at line 1)", 0},
    {"toml duplicate key, quoted", TOML, "a = 1\n\"a\" = 2", "t.toml:2: duplicate key a (first written at line 1)", 0},
    {"toml duplicate dotted key", TOML, "a.b = 1\na.b = 2", "t.toml:2: duplicate key a.b (first written at line 1)", 0},
    {"toml duplicate key in an inline table", TOML, "p = { x = 1, x = 2 }", "t.toml:1: duplicate key p.x (first written at line 1)", 0},
    {"toml duplicate key in an array of tables", TOML, "[[t]]\n[[t]]\nk = 1\nk = 2", "t.toml:4: duplicate key t[1].k (first written at line 3)", 0},
    {"toml table twice", TOML, "[a]\nx = 1\n[a]", "t.toml:3: table a is already defined at line 1", 0},
    {"toml table after its dotted keys", TOML, "a.b = 1\n[a]", "t.toml:2: table a is already defined at line 1 by dotted keys", 0},
    {"toml subtable after its dotted keys", TOML, "[f]\napple.color = 1\n[f.apple]", "t.toml:3: table f.apple is already defined at line 2 by dotted keys", 0},
    {"toml header after dotted keys defined a table a deeper header made", TOML, "[a.b.c]\n[a]\nb.d = 1\n[a.b]",
     "t.toml:4: table a.b is already defined at line 3 by dotted keys", 0},
    {"toml dotted keys into a header's table", TOML, "[a.b]\nx = 1\n[a]\nb.y = 2", "t.toml:4: dotted keys cannot add to a.b, a table defined at line 1 by its header", 0},
    /* TOML: a value and a table of the same name */
    {"toml integer, then a table", TOML, "a = 1\n[a]", "t.toml:2: a is an integer (line 1), not a table", 0},
    {"toml integer, then dotted keys", TOML, "a = 1\na.b = 2", "t.toml:2: a is an integer (line 1), not a table", 0},
    {"toml string on a header's path", TOML, "a = \"x\"\n[a.b]", "t.toml:2: a is a string (line 1), not a table", 0},
    {"toml table header on an array of tables", TOML, "[[a]]\n[a]", "t.toml:2: a is an array of tables (line 1), not a table", 0},
    {"toml array of tables on a table", TOML, "[a]\n[[a]]", "t.toml:2: a is a table (line 1), not an array of tables", 0},
    {"toml array of tables on an array value", TOML, "a = [1]\n[[a]]", "t.toml:2: a is an array (line 1), complete as written: nothing can be added to it", 0},
    {"toml header on an inline table", TOML, "a = {x = 1}\n[a]", "t.toml:2: a is an inline table (line 1), complete as written: nothing can be added to it", 0},
    {"toml dotted keys into an inline table", TOML, "a = {x = 1}\na.y = 2", "t.toml:2: a is an inline table (line 1), complete as written: nothing can be added to it", 0},
    {"toml dotted keys into a nested inline table", TOML, "a = {b = {c = 1}, b.d = 2}", "t.toml:1: a.b is an inline table (line 1), complete as written: nothing can be added to it", 0},
    {"toml header below an inline table", TOML, "a = {b = {}}\n[a.b.c]", "t.toml:2: a is an inline table (line 1), complete as written: nothing can be added to it", 0},
    {"toml dotted keys through an array", TOML, "[[x.a]]\n[x]\na.b = 1", "t.toml:3: x.a is an array of tables (line 1), not a table", 0},
    /* TOML: strings */
    {"toml invalid escape", TOML, "a = \"\\x41\"", "t.toml:1: invalid escape \\x in a string (valid: \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)", 0},
    {"toml escape of TOML 1.1", TOML, "a = \"\\e\"", "t.toml:1: invalid escape \\e in a string (valid: \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)", 0},
    {"toml escaped non-ASCII character", TOML, "a = \"\\ñ\"", "t.toml:1: invalid escape \\ñ in a string (valid: \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)", 0},
    {"toml short \\u", TOML, "a = \"\\u12\"", "t.toml:1: \\u must be followed by 4 hexadecimal digits: \\u12", 0},
    {"toml short \\U", TOML, "a = \"\\U0001F6x\"", "t.toml:1: \\U must be followed by 8 hexadecimal digits: \\U0001F6x", 0},
    {"toml \\U above 10FFFF", TOML, "a = \"\\U00110000\"", "t.toml:1: an escape must be a Unicode scalar value (not a surrogate, at most 10FFFF): \\U00110000", 0},
    {"toml \\U far above 10FFFF", TOML, "a = \"\\UFFFFFFFF\"", "t.toml:1: an escape must be a Unicode scalar value (not a surrogate, at most 10FFFF): \\UFFFFFFFF", 0},
    {"toml surrogate escape", TOML, "a = \"\\uDC00\"", "t.toml:1: an escape must be a Unicode scalar value (not a surrogate, at most 10FFFF): \\uDC00", 0},
    {"toml control character in a string", TOML, "a = \"x\x01\"", "t.toml:1: a control character (U+0001) is not accepted in a string; write it as an escape", 0},
    {"toml DEL in a literal string", TOML, "a = 'x\x7F'", "t.toml:1: a control character (U+007F) is not accepted in a string", 0},
    {"toml NUL byte in a string", TOML, "a = \"x\0\"", "t.toml:1: a control character (U+0000) is not accepted in a string; write it as an escape", 8},
    {"toml control character in a comment", TOML, "# x\x1B[0m", "t.toml:1: a control character (U+001B) is not accepted in a comment", 0},
    {"toml string not closed", TOML, "a = \"abc\nb = 1", "t.toml:1: a string is not closed on its line", 0},
    {"toml string ending in a backslash", TOML, "a = \"abc\\", "t.toml:1: a string is not closed on its line", 0},
    {"toml literal string not closed", TOML, "a = 'abc", "t.toml:1: a string is not closed on its line", 0},
    /* TOML: encoding */
    {"toml invalid UTF-8", TOML, "a = 1\n\n# \xFF\n", "t.toml:3: invalid UTF-8 (byte 0xFF)", 0},
    {"toml overlong UTF-8", TOML, "a = \"\xC0\xAF\"", "t.toml:1: invalid UTF-8 (byte 0xC0)", 0},
    {"toml UTF-8 surrogate", TOML, "a = \"\xED\xA0\x80\"", "t.toml:1: invalid UTF-8 (byte 0xED)", 0},
    {"toml truncated UTF-8", TOML, "a = 1 # \xE2\x82", "t.toml:1: invalid UTF-8 (byte 0xE2)", 0},
    {"toml lone carriage return", TOML, "a = 1\rb = 2", "t.toml:1: expected the end of the line after the value, got U+000D", 0},
    /* TOML: structure */
    {"toml key without =", TOML, "a\nb = 1", "t.toml:1: expected = after the key a, got the end of the line", 0},
    {"toml dotted key without =", TOML, "a . \"b\" : 1", "t.toml:1: expected = after the key a . \"b\", got ':'", 0},
    {"toml no value", TOML, "a =\n", "t.toml:1: expected a value, got the end of the line", 0},
    {"toml no value at the end", TOML, "a = ", "t.toml:1: expected a value, got the end of the document", 0},
    {"toml unknown word", TOML, "a = yes", "t.toml:1: expected a value (a string, an integer, true, false, an array or an inline table), got yes", 0},
    {"toml True is not true", TOML, "a = True", "t.toml:1: expected a value (a string, an integer, true, false, an array or an inline table), got True", 0},
    {"toml two pairs on a line", TOML, "a = 1 b = 2", "t.toml:1: expected the end of the line after the value, got 'b'", 0},
    {"toml junk after a header", TOML, "[a] b = 1", "t.toml:1: expected the end of the line after the header, got 'b'", 0},
    {"toml array not closed", TOML, "a = [1,\n2", "t.toml:2: an array opened at line 1 is not closed", 0},
    {"toml array without a comma", TOML, "a = [1 2]", "t.toml:1: expected a comma or ] in the array, got '2'", 0},
    {"toml array with an empty item", TOML, "a = [1,,2]", "t.toml:1: expected a value, got ','", 0},
    {"toml inline table on two lines", TOML, "a = {x = 1,\ny = 2}", "t.toml:1: an inline table must be written on one line (it opened at line 1)", 0},
    {"toml inline table with a trailing comma", TOML, "a = {x = 1,}", "t.toml:1: a trailing comma is not accepted in an inline table", 0},
    {"toml inline table not closed", TOML, "a = {x = 1", "t.toml:1: an inline table opened at line 1 is not closed", 0},
    {"toml inline table without a comma", TOML, "a = {x = 1 y = 2}", "t.toml:1: expected a comma or } in the inline table, got 'y'", 0},
    {"toml header not closed", TOML, "[a\nx = 1", "t.toml:1: expected ] to close the table header, got the end of the line", 0},
    {"toml array-of-tables header not closed", TOML, "[[a]\n", "t.toml:1: expected ]] to close the array-of-tables header, got the end of the line", 0},
    {"toml array-of-tables header split", TOML, "[ [a] ]", "t.toml:1: expected a key, got '['", 0},
    {"toml empty header", TOML, "[]", "t.toml:1: expected a key, got ']'", 0},
    {"toml empty dotted part", TOML, "a..b = 1", "t.toml:1: expected a key, got '.'", 0},
    {"toml key of a character bare keys lack", TOML, "ñ = 1", "t.toml:1: expected a key, a [table] header or a comment, got 'ñ'", 0},
    {"toml value before a key", TOML, "= 1", "t.toml:1: expected a key, a [table] header or a comment, got '='", 0},
    /* JSON */
    {"json null", JSON, "{\"a\": null}", "t.json:1: null is not accepted (leave the key out)", 0},
    {"json fraction", JSON, "{\n\"a\": 1.5}", "t.json:2: a float is not accepted (datoteca uses integers): 1.5", 0},
    {"json exponent", JSON, "{\"a\": 1e5}", "t.json:1: a float is not accepted (datoteca uses integers): 1e5", 0},
    {"json negative exponent", JSON, "{\"a\": [-1E-2]}", "t.json:1: a float is not accepted (datoteca uses integers): -1E-2", 0},
    {"json leading zeros", JSON, "{\"a\": 01}", "t.json:1: an integer with leading zeros is not accepted: 01", 0},
    {"json minus alone", JSON, "{\"a\": -}", "t.json:1: invalid number: -", 0},
    {"json plus sign", JSON, "{\"a\": +1}", "t.json:1: expected a value, got '+'", 0},
    {"json above int64", JSON, "{\"a\": 99999999999999999999}", "t.json:1: an integer out of range (-9223372036854775808 to 9223372036854775807): 99999999999999999999", 0},
    {"json duplicate key", JSON, "{\"a\": 1,\n \"a\": 2}", "t.json:2: duplicate key a (first written at line 1)", 0},
    {"json duplicate nested key", JSON, "{\"t\": {\"b c\": 1, \"b c\": 2}}", "t.json:1: duplicate key t.\"b c\" (first written at line 1)", 0},
    {"json root array", JSON, "[1]", "t.json:1: expected a JSON object as the document, got '['", 0},
    {"json root string", JSON, "\n\"x\"", "t.json:2: expected a JSON object as the document, got '\"'", 0},
    {"json empty", JSON, "", "t.json:1: the document is empty (expected a JSON object)", 0},
    {"json only whitespace", JSON, " \n\t\r\n", "t.json:3: the document is empty (expected a JSON object)", 0},
    {"json trailing comma in an object", JSON, "{\"a\": 1,}", "t.json:1: a trailing comma is not accepted in JSON", 0},
    {"json trailing comma in an array", JSON, "{\"a\": [1,\n]}", "t.json:2: a trailing comma is not accepted in JSON", 0},
    {"json lone high surrogate", JSON, "{\"a\": \"\\ud800\"}", "t.json:1: a lone surrogate is not accepted (a pair is \\uD800-\\uDBFF then \\uDC00-\\uDFFF): \\ud800", 0},
    {"json lone low surrogate", JSON, "{\"a\": \"\\uDC00x\"}", "t.json:1: a lone surrogate is not accepted (a pair is \\uD800-\\uDBFF then \\uDC00-\\uDFFF): \\uDC00", 0},
    {"json high surrogate before a non-surrogate", JSON, "{\"a\": \"\\uD83D\\u0041\"}", "t.json:1: a lone surrogate is not accepted (a pair is \\uD800-\\uDBFF then \\uDC00-\\uDFFF): \\uD83D", 0},
    {"json invalid escape", JSON, "{\"a\": \"\\x41\"}", "t.json:1: invalid escape \\x in a string (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", 0},
    {"json short \\u", JSON, "{\"a\": \"\\u00e\"}", "t.json:1: \\u must be followed by 4 hexadecimal digits: \\u00e", 0},
    {"json raw newline in a string", JSON, "{\"a\": \"x\ny\"}", "t.json:1: a control character (U+000A) is not accepted in a string; write it as an escape", 0},
    {"json string not closed", JSON, "{\"a\": \"x", "t.json:1: a string is not closed", 0},
    {"json missing colon", JSON, "{\"a\" 1}", "t.json:1: expected a colon after the key, got '1'", 0},
    {"json missing comma", JSON, "{\"a\": 1 \"b\": 2}", "t.json:1: expected a comma or } in the object, got '\"'", 0},
    {"json missing comma in an array", JSON, "{\"a\": [1 2]}", "t.json:1: expected a comma or ] in the array, got '2'", 0},
    {"json unquoted key", JSON, "{a: 1}", "t.json:1: expected a key in double quotes, got 'a'", 0},
    {"json single quotes", JSON, "{\"a\": 'x'}", "t.json:1: expected a value, got \"'\"", 0},
    {"json comment", JSON, "{// no\n}", "t.json:1: expected a key in double quotes, got '/'", 0},
    {"json junk after the document", JSON, "{\"a\": 1}\nx", "t.json:2: expected the end of the document after its object, got 'x'", 0},
    {"json two documents", JSON, "{}{}", "t.json:1: expected the end of the document after its object, got '{'", 0},
    {"json object not closed", JSON, "{\"a\": 1\n", "t.json:2: an object opened at line 1 is not closed", 0},
    {"json array not closed", JSON, "{\"a\": [1", "t.json:1: an array opened at line 1 is not closed", 0},
    {"json misspelt true", JSON, "{\"a\": tru}", "t.json:1: expected a value (an object, an array, a string, an integer, true or false), got tru", 0},
    {"json NaN", JSON, "{\"a\": NaN}", "t.json:1: expected a value (an object, an array, a string, an integer, true or false), got NaN", 0},
    {"json invalid UTF-8", JSON, "{\"a\": \"\xC3\x28\"}", "t.json:1: invalid UTF-8 (byte 0xC3)", 0},
    {"json NUL byte", JSON, "{\"a\": 1\0}", "t.json:1: expected a comma or } in the object, got U+0000", 9},
};

static void malos_dan_su_frase(void) {
    for (size_t i = 0; i < sizeof malos / sizeof malos[0]; i++) {
        const malo *c = &malos[i];
        dt__doc *d = (dt__doc *)&d; /* must come back NULL */
        char why[DT_SENTENCE_MAX];
        size_t len = c->len ? c->len : strlen(c->texto);
        dt_status st = parse(c->f, c->texto, len, c->f == TOML ? "t.toml" : "t.json", &d, why, sizeof why);
        CHECK(st == DT_ERR_INVALID_ARG && d == NULL, "bad case '%s': %s, document %s", c->nombre, dt_status_str(st),
              d ? "not NULL" : "NULL");
        CHECK(strcmp(why, c->frase) == 0, "bad case '%s':\n    expected %s\n    got      %s", c->nombre, c->frase, why);
        /* The same refusal with a small buffer, and with none. */
        char small[12];
        st = parse(c->f, c->texto, len, c->f == TOML ? "t.toml" : "t.json", &d, small, sizeof small);
        CHECK(st == DT_ERR_INVALID_ARG && strncmp(small, c->frase, sizeof small - 1) == 0 && strlen(small) == sizeof small - 1,
              "bad case '%s' with 12 bytes for the sentence: %s, '%s'", c->nombre, dt_status_str(st), small);
        st = parse(c->f, c->texto, len, "t", &d, NULL, 0);
        CHECK(st == DT_ERR_INVALID_ARG && d == NULL, "bad case '%s' without a sentence: %s", c->nombre, dt_status_str(st));
    }
}

/* ---- twins: a TOML document and its JSON give the same tree ---- */

typedef struct gemelo {
    const char *nombre, *toml, *json;
} gemelo;

static const gemelo gemelos[] = {
    {"a bank schema",
     "# banco.toml\nversion = 1\n\n[tablas.clientes]\nfilas = 100\ncolumnas = [\n"
     "  { nombre = \"rut\", llamada = \"rut\", unico = true },\n"
     "  { nombre = \"nombre\", llamada = \"persona.nombre_completo\" },\n]\n\n"
     "[tablas.cuentas]\nfilas = 250\n\n[[tablas.cuentas.columnas]]\nnombre = \"cliente\"\nreferencia = \"clientes.rut\"\n\n"
     "[[tablas.cuentas.columnas]]\nnombre = \"banco\"\nllamada = \"banco.cuenta\"\nargs = { tipo = 2 }\n",
     "{\"version\": 1, \"tablas\": {\n"
     "  \"clientes\": {\"filas\": 100, \"columnas\": [\n"
     "    {\"nombre\": \"rut\", \"llamada\": \"rut\", \"unico\": true},\n"
     "    {\"nombre\": \"nombre\", \"llamada\": \"persona.nombre_completo\"}]},\n"
     "  \"cuentas\": {\"filas\": 250, \"columnas\": [\n"
     "    {\"nombre\": \"cliente\", \"referencia\": \"clientes.rut\"},\n"
     "    {\"nombre\": \"banco\", \"llamada\": \"banco.cuenta\", \"args\": {\"tipo\": 2}}]}}}\n"},
    {"strings and escapes", "a = \"\\u00f1\\t\\\"\"\nb = 'lit\\eral'\nc = \"\\U0001F600\"\n",
     "{\"a\": \"ñ\\t\\\"\", \"b\": \"lit\\\\eral\", \"c\": \"\\ud83d\\ude00\"}"},
    {"dotted keys and nested objects", "x.y.z = -7\nx.w = false\n[p.q]\nr = []\n",
     "{\"x\": {\"y\": {\"z\": -7}, \"w\": false}, \"p\": {\"q\": {\"r\": []}}}"},
    {"arrays of tables and arrays of objects", "[[a]]\nb = [[1, 2], [3]]\n[[a]]\n",
     "{\"a\": [{\"b\": [[1, 2], [3]]}, {}]}"},
};

static void gemelos_iguales(void) {
    for (size_t i = 0; i < sizeof gemelos / sizeof gemelos[0]; i++) {
        const gemelo *g = &gemelos[i];
        dt__doc *t = NULL, *j = NULL;
        char why[DT_SENTENCE_MAX];
        CHECK_OK(dt__doc_parse_toml(g->toml, strlen(g->toml), "twin.toml", &t, why, sizeof why), "twin '%s' TOML: %s", g->nombre, why);
        CHECK_OK(dt__doc_parse_json(g->json, strlen(g->json), "twin.json", &j, why, sizeof why), "twin '%s' JSON: %s", g->nombre, why);
        if (t == NULL || j == NULL) {
            dt__doc_free(t);
            dt__doc_free(j);
            continue;
        }
        char *a = dump(dt__doc_root(t), 0), *b = dump(dt__doc_root(j), 0);
        CHECK(strcmp(a, b) == 0, "twin '%s':\n    TOML %s\n    JSON %s", g->nombre, a, b);
        /* The dump is JSON: read back, it is the same tree again. */
        dt__doc *r = NULL;
        CHECK_OK(dt__doc_parse_json(a, strlen(a), "dump", &r, why, sizeof why), "twin '%s' dump read back: %s", g->nombre, why);
        char *c = r ? dump(dt__doc_root(r), 0) : NULL;
        CHECK(c && strcmp(a, c) == 0, "twin '%s': the dump read back dumps as %s", g->nombre, c ? c : "(nothing)");
        free(a);
        free(b);
        free(c);
        dt__doc_free(r);
        dt__doc_free(t);
        dt__doc_free(j);
    }
}

/* ---- declaration order and lookups over many keys ---- */

static void orden_de_declaracion(void) {
    enum { N = 20000 };
    char *toml = (char *)malloc((size_t)N * 32), *json = (char *)malloc((size_t)N * 32 + 4);
    size_t nt = 0, nj = 0;
    json[nj++] = '{';
    /* Keys in an order no hash or sort would give: k(i) = (i * 7919) mod N. */
    for (uint32_t i = 0; i < N; i++) {
        uint32_t k = (uint32_t)(((uint64_t)i * 7919u) % N);
        nt += (size_t)snprintf(toml + nt, 32, "k%u = %u\n", k, i);
        nj += (size_t)snprintf(json + nj, 32, "%s\"k%u\":%u", i ? "," : "", k, i);
    }
    json[nj++] = '}';
    for (int f = 0; f < 2; f++) {
        dt__doc *d = NULL;
        char why[DT_SENTENCE_MAX];
        dt_status st = f == 0 ? dt__doc_parse_toml(toml, nt, "orden.toml", &d, why, sizeof why)
                              : dt__doc_parse_json(json, nj, "orden.json", &d, why, sizeof why);
        CHECK(st == DT_OK, "order, %s: %s", f ? "JSON" : "TOML", why);
        if (st != DT_OK) continue;
        const dt__doc_node *root = dt__doc_root(d);
        CHECK(dt__doc_len(root) == N, "order, %s: %zu keys, not %d", f ? "JSON" : "TOML", dt__doc_len(root), N);
        int malos_vistos = 0;
        for (uint32_t i = 0; i < N && malos_vistos < 3; i++) {
            char want[16];
            int wn = snprintf(want, sizeof want, "k%u", (uint32_t)(((uint64_t)i * 7919u) % N));
            size_t kn;
            const dt__doc_node *e = dt__doc_item(root, i);
            const char *k = dt__doc_key(e, &kn);
            int ok = k && kn == (size_t)wn && memcmp(k, want, kn) == 0 && dt__doc_integer(e) == i &&
                     dt__doc_get(root, want, (size_t)wn) == e && dt__doc_line(e) == (f ? 1u : i + 1);
            if (!ok) malos_vistos++;
            CHECK(ok, "order, %s: entry %u is %.*s = %lld (line %u), expected %s = %u", f ? "JSON" : "TOML", i, (int)kn,
                  k ? k : "", (long long)dt__doc_integer(e), dt__doc_line(e), want, i);
        }
        CHECK(dt__doc_get(root, "k", 1) == NULL && dt__doc_get(root, "k20000", 6) == NULL, "order: absent keys found");
        dt__doc_free(d);
    }
    free(toml);
    free(json);
}

/* ---- limits ---- */

/* depth levels of arrays, or of tables, written in each form. */
static char *anidado(const char *forma, int depth, size_t *len) {
    char *s = (char *)malloc((size_t)depth * 8 + 64), *p = s;
    if (strcmp(forma, "toml arrays") == 0) {
        p += sprintf(p, "a = ");
        for (int i = 1; i < depth; i++) *p++ = '[';
        p += sprintf(p, "1");
        for (int i = 1; i < depth; i++) *p++ = ']';
    } else if (strcmp(forma, "toml inline tables") == 0) {
        p += sprintf(p, "a = ");
        for (int i = 1; i < depth; i++) p += sprintf(p, "{b = ");
        p += sprintf(p, "1");
        for (int i = 1; i < depth; i++) p += sprintf(p, "}");
    } else if (strcmp(forma, "toml dotted keys") == 0) {
        for (int i = 0; i < depth; i++) p += sprintf(p, "%sa", i ? "." : "");
        p += sprintf(p, " = 1");
    } else if (strcmp(forma, "toml headers") == 0) {
        p += sprintf(p, "[");
        for (int i = 1; i < depth; i++) p += sprintf(p, "%sa", i > 1 ? "." : "");
        p += sprintf(p, "]\nb = 1");
    } else if (strcmp(forma, "json objects") == 0) {
        for (int i = 0; i < depth; i++) p += sprintf(p, "{\"a\":");
        p += sprintf(p, "1");
        for (int i = 0; i < depth; i++) *p++ = '}'; /* the first is the root */
    } else {
        p += sprintf(p, "{\"a\":");
        for (int i = 1; i < depth; i++) *p++ = '[';
        p += sprintf(p, "1");
        for (int i = 1; i < depth; i++) *p++ = ']';
        *p++ = '}';
    }
    *p = '\0';
    *len = (size_t)(p - s);
    return s;
}

static void limites(void) {
    static const char *const formas[] = {"toml arrays", "toml inline tables", "toml dotted keys", "toml headers", "json objects", "json arrays"};
    char why[DT_SENTENCE_MAX], want[DT_SENTENCE_MAX];
    for (size_t f = 0; f < sizeof formas / sizeof formas[0]; f++) {
        formato fm = formas[f][0] == 't' ? TOML : JSON;
        for (int depth = DT__DOC_MAX_DEPTH; depth <= DT__DOC_MAX_DEPTH + 1; depth++) {
            size_t len;
            char *s = anidado(formas[f], depth, &len);
            dt__doc *d = NULL;
            dt_status st = parse(fm, s, len, "deep", &d, why, sizeof why);
            if (depth == DT__DOC_MAX_DEPTH) {
                CHECK(st == DT_OK, "depth %d in %s refused: %s (%s)", depth, formas[f], why, s);
                /* The innermost value is at the limit: walk down to it. */
                const dt__doc_node *n = dt__doc_root(d);
                int levels = 0;
                while (dt__doc_len(n) > 0) n = dt__doc_item(n, dt__doc_len(n) - 1), levels++;
                CHECK(levels == DT__DOC_MAX_DEPTH && dt__doc_integer(n) == 1, "depth in %s: the value is %d levels down", formas[f], levels);
            } else {
                /* A header of 32 parts is fine: its key's value on line 2 is the 33rd level. */
                snprintf(want, sizeof want, "deep:%u: nesting deeper than %d levels is not accepted", f == 3 ? 2u : 1u,
                         DT__DOC_MAX_DEPTH);
                CHECK(st == DT_ERR_INVALID_ARG && strcmp(why, want) == 0, "depth %d in %s: %s, '%s'", depth, formas[f], dt_status_str(st), why);
            }
            dt__doc_free(d);
            free(s);
        }
    }

    /* The size limit, exactly: a comment (or JSON whitespace) filling the document. */
    size_t max = DT__DOC_MAX_BYTES;
    char *big = (char *)malloc(max + 1);
    memset(big, ' ', max + 1);
    memcpy(big, "{}", 2);
    dt__doc *d = NULL;
    CHECK_OK(dt__doc_parse_json(big, max, "big.json", &d, why, sizeof why), "a JSON document of exactly the limit: %s", why);
    dt__doc_free(d);
    CHECK(dt__doc_parse_json(big, max + 1, "big.json", &d, why, sizeof why) == DT_ERR_INVALID_ARG &&
              strcmp(why, "big.json: the document is 1048577 bytes; the limit is 1048576") == 0,
          "JSON over the limit: '%s'", why);
    big[0] = '#';
    big[1] = ' ';
    CHECK_OK(dt__doc_parse_toml(big, max, "big.toml", &d, why, sizeof why), "a TOML document of exactly the limit: %s", why);
    dt__doc_free(d);
    CHECK(dt__doc_parse_toml(big, max + 1, "big.toml", &d, why, sizeof why) == DT_ERR_INVALID_ARG &&
              strcmp(why, "big.toml: the document is 1048577 bytes; the limit is 1048576") == 0,
          "TOML over the limit: '%s'", why);
    free(big);

    /* Quoted values, keys, paths and file names are shortened, so every sentence fits. */
    const char *largo = "a = 123456789012345678901234567890123456789012345678901234567890.5";
    CHECK(dt__doc_parse_toml(largo, strlen(largo), "t.toml", &d, why, sizeof why) == DT_ERR_INVALID_ARG &&
              strcmp(why, "t.toml:1: a float is not accepted (datoteca uses integers): 1234567890123456789012345678901234567890...") == 0,
          "long value: '%s'", why);
    const char *utf = "a = \"\\q ññññññññññññññññññññññññññññññññññ\"";
    CHECK(dt__doc_parse_toml(utf, strlen(utf), "t.toml", &d, why, sizeof why) == DT_ERR_INVALID_ARG &&
              strcmp(why, "t.toml:1: invalid escape \\q in a string (valid: \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)") == 0,
          "escape cited alone: '%s'", why);
    char file[300];
    memset(file, 'f', sizeof file - 1);
    file[sizeof file - 1] = '\0';
    memcpy(file + sizeof file - 6, ".toml", 5);
    CHECK(dt__doc_parse_toml("a = 1.0", 7, file, &d, why, sizeof why) == DT_ERR_INVALID_ARG && strncmp(why, "...fff", 6) == 0 &&
              strstr(why, "f.toml:1: a float") == why + DT__DOC_FILE_MAX - 6,
          "long file name: '%s'", why);
    CHECK(dt__doc_parse_toml("a = 1.0", 7, "dos\nlineas", &d, why, sizeof why) == DT_ERR_INVALID_ARG &&
              strncmp(why, "dos?lineas:1:", 13) == 0,
          "file name with a newline: '%s'", why);
    /* A duplicate deep in long keys: the path keeps its end. */
    char txt[4096], *p = txt;
    for (int i = 0; i < 2; i++) {
        for (int k = 0; k < 20; k++) p += sprintf(p, "%s\"%s clave %02d con espacios y más texto que cuarenta\"", k ? "." : "", "la", k);
        p += sprintf(p, " = %d\n", i);
    }
    CHECK(dt__doc_parse_toml(txt, (size_t)(p - txt), "t.toml", &d, why, sizeof why) == DT_ERR_INVALID_ARG && strlen(why) < DT_SENTENCE_MAX,
          "long path: '%s'", why);
    const char *want_path = "t.toml:2: duplicate key ...\"la clave 16 con espacios y más texto qu...\".\"la clave 17 con espacios y más "
                            "texto qu...\".\"la clave 18 con espacios y más texto qu...\".\"la clave 19 con espacios y más texto qu...\" "
                            "(first written at line 1)";
    CHECK(strcmp(why, want_path) == 0, "long path:\n    expected %s\n    got      %s", want_path, why);
}

/* ---- readers, checks and their sentences ---- */

static void lectores(void) {
    const char *src = "[tablas.cuentas]\nfilas = \"muchas\"\nactiva = true\n[tablas.\"mi tabla\"]\ncolumnas = [ { n = 1 }, 2 ]\n";
    dt__doc *d = NULL;
    char why[DT_SENTENCE_MAX];
    CHECK_OK(dt__doc_parse_toml(src, strlen(src), "banco.toml", &d, why, sizeof why), "readers: %s", why);
    if (d == NULL) return;
    const dt__doc_node *root = dt__doc_root(d);
    const dt__doc_node *tablas = dt__doc_get(root, "tablas", 6);
    const dt__doc_node *cuentas = dt__doc_get(tablas, "cuentas", 7);
    const dt__doc_node *filas = dt__doc_get(cuentas, "filas", 5);
    int64_t v = 99;
    CHECK(dt__doc_want_integer(filas, &v, why, sizeof why) == DT_ERR_INVALID_ARG && v == 99 &&
              strcmp(why, "banco.toml:2: tablas.cuentas.filas must be an integer, got a string") == 0,
          "want_integer: '%s'", why);
    int b = 0;
    CHECK(dt__doc_want_boolean(dt__doc_get(cuentas, "activa", 6), &b, why, sizeof why) == DT_OK && b == 1, "want_boolean");
    const char *s = NULL;
    size_t n = 0;
    CHECK(dt__doc_want_string(filas, &s, &n, why, sizeof why) == DT_OK && n == 6 && strcmp(s, "muchas") == 0, "want_string");
    CHECK(dt__doc_need(cuentas, "columnas", why, sizeof why) == NULL &&
              strcmp(why, "banco.toml:1: tablas.cuentas needs the key columnas") == 0,
          "need: '%s'", why);
    CHECK(dt__doc_need(root, "version", why, sizeof why) == NULL && strcmp(why, "banco.toml:1: the document needs the key version") == 0,
          "need at the root: '%s'", why);
    CHECK(dt__doc_need(filas, "x", why, sizeof why) == NULL &&
              strcmp(why, "banco.toml:2: tablas.cuentas.filas must be a table, got a string") == 0,
          "need on a string: '%s'", why);
    const dt__doc_node *mi = dt__doc_get(tablas, "mi tabla", 8);
    const dt__doc_node *col = dt__doc_need(mi, "columnas", why, sizeof why);
    const dt__doc_node *item = dt__doc_item(col, 1);
    char path[DT__DOC_PATH_MAX + 1];
    CHECK(dt__doc_path(item, path, sizeof path) == 29 && strcmp(path, "tablas.\"mi tabla\".columnas[1]") == 0, "path: '%s'", path);
    CHECK(dt__doc_want(item, DT__DOC_TABLE, why, sizeof why) == DT_ERR_INVALID_ARG &&
              strcmp(why, "banco.toml:5: tablas.\"mi tabla\".columnas[1] must be a table, got an integer") == 0,
          "want table: '%s'", why);
    CHECK(dt__doc_path(item, path, 8) == 29 && strcmp(path, "tablas.") == 0, "path truncated: '%s'", path);
    CHECK(dt__doc_path(root, path, sizeof path) == 0 && path[0] == '\0', "root path: '%s'", path);
    CHECK(dt__doc_want(root, DT__DOC_ARRAY, why, sizeof why) == DT_ERR_INVALID_ARG &&
              strcmp(why, "banco.toml:1: the document must be an array, got a table") == 0,
          "root want: '%s'", why);
    CHECK(dt__doc_refuse(dt__doc_item(col, 0), why, sizeof why, "%s is odd (%d)", "this", 7) == DT_ERR_INVALID_ARG &&
              strcmp(why, "banco.toml:5: this is odd (7)") == 0,
          "refuse: '%s'", why);
    CHECK(dt__doc_parent(item) == col && dt__doc_parent(root) == NULL && dt__doc_key(item, &n) == NULL && n == 0, "parent and key");
    CHECK(strcmp(dt__doc_file(item), "banco.toml") == 0 && dt__doc_format_of(item) == DT__DOC_TOML, "file and format");
    CHECK(dt__doc_kind_of(col) == DT__DOC_ARRAY && dt__doc_len(col) == 2 && dt__doc_item(col, 2) == NULL && dt__doc_len(item) == 0 &&
              dt__doc_item(item, 0) == NULL && dt__doc_get(col, "n", 1) == NULL,
          "containers");
    CHECK(dt__doc_string(item, &n) == NULL && n == 0 && dt__doc_integer(filas) == 0 && dt__doc_boolean(filas) == 0, "wrong-kind readers");
    /* NULL everywhere is the documented nothing. */
    CHECK(dt__doc_root(NULL) == NULL && dt__doc_kind_of(NULL) == 0 && dt__doc_line(NULL) == 0 && dt__doc_len(NULL) == 0 &&
              dt__doc_item(NULL, 0) == NULL && dt__doc_get(NULL, "a", 1) == NULL && dt__doc_get(root, NULL, 1) == NULL &&
              dt__doc_parent(NULL) == NULL && dt__doc_key(NULL, NULL) == NULL && dt__doc_string(NULL, NULL) == NULL &&
              dt__doc_integer(NULL) == 0 && dt__doc_boolean(NULL) == 0 && dt__doc_format_of(NULL) == 0 &&
              strcmp(dt__doc_file(NULL), "") == 0 && dt__doc_path(NULL, path, sizeof path) == 0 &&
              dt__doc_want(NULL, DT__DOC_TABLE, why, sizeof why) == DT_ERR_NULL && dt__doc_need(NULL, "a", why, sizeof why) == NULL &&
              dt__doc_dump(NULL, 0, path, sizeof path, NULL) == DT_ERR_NULL && dt__doc_dump(root, 0, NULL, 5, NULL) == DT_ERR_NULL,
          "NULL behaviour");
    dt__doc_free(NULL);
    /* The dump's buffer contract. */
    size_t len = 0;
    char small[4] = "xyz";
    CHECK(dt__doc_dump(filas, 0, small, 4, &len) == DT_ERR_BUFFER_TOO_SMALL && len == 8 && small[0] == '\0', "dump too small: %zu", len);
    char fits[9];
    CHECK(dt__doc_dump(filas, 0, fits, 9, &len) == DT_OK && len == 8 && strcmp(fits, "\"muchas\"") == 0, "dump exact: '%s'", fits);
    dt__doc_free(d);

    /* JSON names tables "objects" in its sentences; the root's line is its brace's. */
    const char *js = "\n{\"t\": {\"filas\": [1]}}";
    CHECK_OK(dt__doc_parse_json(js, strlen(js), "<dict>", &d, why, sizeof why), "json readers: %s", why);
    if (d == NULL) return;
    const dt__doc_node *fj = dt__doc_get(dt__doc_get(dt__doc_root(d), "t", 1), "filas", 5);
    CHECK(dt__doc_want_integer(fj, NULL, why, sizeof why) == DT_ERR_INVALID_ARG &&
              strcmp(why, "<dict>:2: t.filas must be an integer, got an array") == 0,
          "json want: '%s'", why);
    CHECK(dt__doc_want(dt__doc_item(fj, 0), DT__DOC_TABLE, why, sizeof why) == DT_ERR_INVALID_ARG &&
              strcmp(why, "<dict>:2: t.filas[0] must be an object, got an integer") == 0,
          "json want object: '%s'", why);
    CHECK(dt__doc_line(dt__doc_root(d)) == 2 && dt__doc_format_of(fj) == DT__DOC_JSON, "json root line");
    dt__doc_free(d);

    /* NULL inputs and the default file name. */
    CHECK(dt__doc_parse_toml(NULL, 0, NULL, &d, why, sizeof why) == DT_OK && dt__doc_len(dt__doc_root(d)) == 0 &&
              strcmp(dt__doc_file(dt__doc_root(d)), "<document>") == 0,
          "NULL empty TOML");
    dt__doc_free(d);
    CHECK(dt__doc_parse_json(NULL, 0, NULL, &d, why, sizeof why) == DT_ERR_INVALID_ARG &&
              strcmp(why, "<document>:1: the document is empty (expected a JSON object)") == 0,
          "NULL empty JSON: '%s'", why);
    CHECK(dt__doc_parse_toml(NULL, 1, "x", &d, why, sizeof why) == DT_ERR_NULL && dt__doc_parse_json(NULL, 1, "x", &d, why, sizeof why) == DT_ERR_NULL &&
              dt__doc_parse_toml("a=1", 3, "x", NULL, why, sizeof why) == DT_ERR_NULL &&
              dt__doc_parse_json("{}", 2, "x", NULL, why, sizeof why) == DT_ERR_NULL,
          "NULL arguments");
    /* Strings are length-counted: an escaped NUL stays inside. */
    CHECK_OK(dt__doc_parse_toml("a = \"x\\u0000y\"", 14, "t", &d, why, sizeof why), "NUL string: %s", why);
    const char *z = dt__doc_string(dt__doc_get(dt__doc_root(d), "a", 1), &n);
    CHECK(z && n == 3 && memcmp(z, "x\0y", 4) == 0, "NUL string: %zu bytes", n);
    dt__doc_free(d);
}

/* ---- out of memory: each allocation of a parse fails in turn ---- */

static void sin_memoria(void) {
#ifdef DT_TEST_WRAP_MALLOC
    /* Big enough for several arena blocks and index growths. */
    size_t cap = 200000, nt = 0, nj = 0;
    char *toml = (char *)malloc(cap), *json = (char *)malloc(cap);
    nj += (size_t)snprintf(json + nj, cap - nj, "{");
    for (int i = 0; i < 3000; i++) {
        nt += (size_t)snprintf(toml + nt, cap - nt, "[t.k%d]\nv = \"texto %d\"\nw = [1, {a = %d}]\n", i, i, i);
        nj += (size_t)snprintf(json + nj, cap - nj, "%s\"k%d\": {\"v\": \"texto %d\", \"w\": [1, {\"a\": %d}]}", i ? "," : "", i, i, i);
    }
    nj += (size_t)snprintf(json + nj, cap - nj, "}");
    const char *rechazado = "a = 1\nb = [1, 2, \"x\"]\n[c]\nd = 1.5\n";
    struct { const char *nombre; formato f; const char *texto; size_t len; dt_status final; } casos[] = {
        {"a big TOML document", TOML, toml, nt, DT_OK},
        {"a big JSON document", JSON, json, nj, DT_OK},
        {"a refused TOML document", TOML, rechazado, strlen(rechazado), DT_ERR_INVALID_ARG},
        {"a refused JSON document", JSON, "{\"a\": [1, {\"b\": null}]}", 22, DT_ERR_INVALID_ARG},
    };
    for (size_t c = 0; c < sizeof casos / sizeof casos[0]; c++) {
        long fallos = 0;
        for (long k = 0;; k++) {
            dt__doc *d = (dt__doc *)&d;
            char why[DT_SENTENCE_MAX];
            asignaciones = 0;
            fallar_en = k;
            dt_status st = parse(casos[c].f, casos[c].texto, casos[c].len, "mem.toml", &d, why, sizeof why);
            int fallo = asignaciones > k;
            fallar_en = -1;
            if (!fallo) {
                CHECK(st == casos[c].final, "out of memory, %s: with every allocation served: %s (%s)", casos[c].nombre,
                      dt_status_str(st), why);
                dt__doc_free(st == DT_OK ? d : NULL);
                break;
            }
            fallos++;
            CHECK(st == DT_ERR_NO_MEMORY && d == NULL && strcmp(why, "mem.toml: out of memory") == 0,
                  "out of memory, %s, allocation %ld failing: %s, '%s'", casos[c].nombre, k, dt_status_str(st), why);
            if (st == DT_OK) dt__doc_free(d);
        }
        CHECK(fallos >= 2, "out of memory, %s: only %ld allocations", casos[c].nombre, fallos);
    }
    free(toml);
    free(json);
#endif
}

int main(void) {
    buenos_dan_su_arbol();
    malos_dan_su_frase();
    gemelos_iguales();
    orden_de_declaracion();
    limites();
    lectores();
    sin_memoria();
    printf("documento: %zu good, %zu bad, %zu twin cases\n", sizeof buenos / sizeof buenos[0], sizeof malos / sizeof malos[0],
           sizeof gemelos / sizeof gemelos[0]);
    return dt_test_done("test_documento");
}
