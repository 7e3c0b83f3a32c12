/* datoteca enmascarar's CSV cells: with --separador other than ',' (quoted as RFC 4180 with that byte),
 * and --csv-seguro: CSV cells a spreadsheet would run as a formula are written as
 * text (docs/enmascarar.md, "CSV for spreadsheets: --csv-seguro"), as OWASP's CSV injection page
 * advises: a cell starting with '=', '+', '-', '@', a tab or a carriage return gets a single quote in
 * front, and the cell is put in double quotes. A number or a phone (a '+' or '-', then only digits,
 * spaces and . , ( ) - $, one digit at least) is left as it is: with no letter in it, it names no
 * function, no cell and no program, and a negative amount stays a number. Output formatting only:
 * the masked value is the library's, unchanged. */
#include <stdio.h>
#include <string.h>

#include "cli_interno.h"

int dt__cli_csv_formula(const char *s, size_t n) {
    if (n == 0) return 0;
    char c = s[0];
    if (c == '=' || c == '@' || c == '\t' || c == '\r') return 1;
    if (c != '+' && c != '-') return 0;
    int digito = 0;
    for (size_t i = 1; i < n; i++) {
        char b = s[i];
        if (b >= '0' && b <= '9') digito = 1;
        else if (!(b == ' ' || b == '.' || b == ',' || b == '(' || b == ')' || b == '-' || b == '$')) return 1;
    }
    return !digito;
}

/* A cell with another separator than ',' (enmascarar --separador): quoted when it holds the separator,
 * a quote or a line break, as RFC 4180 asks with that separator. */
static void dt__cli_csv_field_sep(outbuf *o, const char *s, size_t n, char separador) {
    size_t i = 0;
    while (i < n && s[i] != separador && s[i] != '"' && s[i] != '\n' && s[i] != '\r') i++;
    if (i == n) {
        dt__cli_ob_put(o, s, n);
        return;
    }
    char *p = dt__cli_ob_reservar(o, 2 * n + 2);
    *p++ = '"';
    for (i = 0; i < n; i++) {
        if (s[i] == '"') *p++ = '"';
        *p++ = s[i];
    }
    *p++ = '"';
    o->p = p;
}

void dt__cli_csv_field_seguro(outbuf *o, const char *s, size_t n, int seguro, char separador) {
    if (!seguro || !dt__cli_csv_formula(s, n)) {
        if (separador == ',') dt__cli_csv_field(o, s, n, 0);
        else dt__cli_csv_field_sep(o, s, n, separador);
        return;
    }
    char *p = dt__cli_ob_reservar(o, 2 * n + 4);
    *p++ = '"';
    *p++ = '\'';
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"') *p++ = '"';
        *p++ = s[i];
    }
    *p++ = '"';
    o->p = p;
}

int dt__cli_separador(const char *v, const char *comando, int *sep) {
    if (strcmp(v, ",") == 0 || strcmp(v, ";") == 0 || strcmp(v, "|") == 0 || strcmp(v, "\t") == 0) *sep = v[0];
    else if (strcmp(v, "tab") == 0) *sep = '\t';
    else {
        fprintf(stderr, "datoteca: %s: --separador must be one of , ; tab | (one byte: a comma, a semicolon, a tab, "
                        "a vertical bar)\n", comando);
        return 2;
    }
    return 0;
}
