/* A small RFC 4180 reader for the tests, so they read the CSVs in c/data themselves instead of
 * trusting the generated tables. Loads the whole file; rows of string fields. */
#ifndef DT_TEST_CSV_H
#define DT_TEST_CSV_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archivo.h"

typedef struct csv_tabla {
    size_t filas, columnas;
    char **celdas; /* filas * columnas, row-major; row 0 is the header */
} csv_tabla;

static csv_tabla csv_leer(const char *ruta) {
    csv_tabla t = {0, 0, NULL};
    long n;
    char *s = leer_archivo(ruta, &n);
    size_t cap = 1024, k = 0, col = 0;
    t.celdas = malloc(cap * sizeof(char *));
    char *campo = malloc((size_t)n + 1);
    size_t cl = 0;
    int comillas = 0;
    for (long i = 0; i <= n; i++) {
        char c = i < n ? s[i] : '\n';
        if (comillas) {
            if (c == '"' && i + 1 < n && s[i + 1] == '"') { campo[cl++] = '"'; i++; }
            else if (c == '"') comillas = 0;
            else campo[cl++] = c;
            continue;
        }
        if (c == '"') { comillas = 1; continue; }
        if (c == '\r') continue;
        if (c == ',' || c == '\n') {
            if (c == '\n' && col == 0 && cl == 0) continue; /* blank line */
            if (k == cap) { cap *= 2; t.celdas = realloc(t.celdas, cap * sizeof(char *)); }
            campo[cl] = 0;
            t.celdas[k] = malloc(cl + 1);
            memcpy(t.celdas[k++], campo, cl + 1);
            cl = 0;
            col++;
            if (c == '\n') {
                if (t.columnas == 0) t.columnas = col;
                if (col != t.columnas) { fprintf(stderr, "%s: ragged row %zu\n", ruta, t.filas); exit(1); }
                t.filas++;
                col = 0;
            }
            continue;
        }
        campo[cl++] = c;
    }
    free(campo);
    free(s);
    return t;
}

static void csv_liberar(csv_tabla *t) {
    for (size_t i = 0; i < t->filas * t->columnas; i++) free(t->celdas[i]);
    free(t->celdas);
    t->celdas = NULL;
}

static int csv_col(const csv_tabla *t, const char *nombre) {
    for (size_t j = 0; j < t->columnas; j++)
        if (strcmp(t->celdas[j], nombre) == 0) return (int)j;
    fprintf(stderr, "no column %s\n", nombre);
    exit(1);
}

static const char *csv_celda(const csv_tabla *t, size_t fila, int col) { return t->celdas[fila * t->columnas + (size_t)col]; }

#endif
