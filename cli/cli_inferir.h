/* datoteca inferir's own internal header: what cli_inferir.c (the mapping and the command) shares with
 * cli_inferir_check.c (reading CHECK constraints). The model itself is cli/conectar.h. */
#ifndef DT_CLI_INFERIR_H
#define DT_CLI_INFERIR_H

#include <stddef.h>
#include <stdint.h>

#include "conectar.h"

/* What the CHECK constraints of a table allow one column: an IN-list (nin values, in order) and
 * integer bounds (inclusive). */
typedef struct dt__inf_check {
    char **in;
    size_t nin;
    int con_min, con_max;
    int64_t min, max;
} dt__inf_check;

/* Reads one CHECK expression of table t into r[0..ncols) (one per column; `valor_col` is the column a
 * domain's VALUE stands for, -1 for a table's CHECK). 1 when every term was read (and r updated), 0
 * when the CHECK is not one a document can say (r unchanged). */
int dt__inf_check_leer(const dt__ic_tabla *t, const char *texto, long valor_col, dt__inf_check *r, size_t ncols);
int dt__inf_lista_add(dt__inf_check *r, const char *s); /* 1 when memory runs out; a repeat is kept once */
void dt__inf_check_free(dt__inf_check *r);

#endif
