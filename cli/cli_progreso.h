/* Progress of a long command on stderr (cli/cli_progreso.c): `datoteca tabla`, `esquema`, `enmascarar`
 * and the plain stream say how far they are, for a person watching a terminal, and nothing else.
 *
 * Shown by default only when stderr is a terminal (and, for a command that writes its rows on stdout,
 * stdout is not that terminal too); --progreso shows it anyway (in a pipe: one line per second, each
 * ending in '\n'), --silencio never. On a terminal it is one line rewritten in place ('\r', then the
 * line, then clear-to-end) at most four times a second, drawn when the work starts and left as a final
 * line ('\n') when it ends well, erased when it does not. The environment variable DATOTECA_PROGRESO_MS sets the
 * least milliseconds between two drawings (0: after every block of rows, as the tests use it).
 *
 * The monotonic clock it reads decides only when the line is drawn and the rate and times it shows:
 * nothing written on stdout or into a file depends on it, nor on whether the line is shown. The line
 * holds numbers only (rows, tables, a share of the input, rows per second, times): never a value, a
 * name from the data, a path or a key.
 *
 * One dt__progreso belongs to the thread that writes the output (dt__cli_lotes_run's calling thread,
 * which writes blocks in row order); the --jobs workers never touch it. dt__cli_progreso_cortar is the
 * one function any thread may call. Not reentrant: one progress at a time per process, as the CLI runs
 * one command at a time. */
#ifndef DT_CLI_PROGRESO_H
#define DT_CLI_PROGRESO_H

#include <stddef.h>
#include <stdint.h>

/* What the command line asked for: bits of `pedido`. */
enum { DT__PROGRESO_SI = 1, DT__PROGRESO_NO = 2 };

/* 1 when `arg` is --progreso or --silencio (its bit set in *pedido), else 0 (nothing touched). */
int dt__cli_progreso_opcion(const char *arg, int *pedido);
/* 0, or 2 when both were given, with "datoteca: <quien>give --progreso or --silencio, not both" printed
 * (`quien` is "" or "enmascarar: "). */
int dt__cli_progreso_pedido(int pedido, const char *quien);

typedef struct dt__progreso {
    int activo;   /* 0: nothing is shown, and the calls below return at once */
    int terminal; /* stderr is a terminal: one line rewritten in place */
    int mostrada; /* a line is on the terminal now, without its '\n' */
    const char *orden;   /* "tabla", "esquema", "enmascarar" or "" (the stream): the line's prefix */
    uint64_t filas, total;       /* rows written, of total (0: unknown) */
    uint64_t bytes, bytes_total; /* enmascarar: input bytes read, of the input's size (0: unknown) */
    uint32_t tabla, tablas;      /* esquema: making table `tabla` (1-based) of `tablas` (0: not a schema) */
    int64_t inicio, ultimo;      /* milliseconds on the monotonic clock (-1: no clock) */
    int64_t cada;                /* the least milliseconds between two drawings */
    size_t ancho;                /* characters of the line on the terminal (Windows pads over them) */
} dt__progreso;

/* Decides whether progress is shown (pedido: the flags' bits; a_stdout: the command writes its rows on
 * stdout) and, when it is, draws the first line (0 rows). `total` rows (0: unknown), of `tablas` tables
 * (0: not a schema), from an input of `bytes_total` bytes (0: none or unknown). `orden` must outlive p.
 * Fills every field. */
void dt__cli_progreso_empezar(dt__progreso *p, const char *orden, int pedido, int a_stdout, uint64_t total, uint32_t tablas,
                              uint64_t bytes_total);
/* `n` more rows were written: the line is drawn again when a quarter of a second (a second in a pipe)
 * has passed since it last was. */
void dt__cli_progreso_filas(dt__progreso *p, uint64_t n);
/* Erases the line from the terminal before a message on stderr (the next update draws it again). */
void dt__cli_progreso_limpiar(dt__progreso *p);
/* The end: `bien`, the final line and '\n'; else the line erased. p is inactive afterwards. */
void dt__cli_progreso_terminar(dt__progreso *p, int bien);
/* From any thread, before a message printed while a command runs (a worker's refusal before it ends the
 * process): erases the line of the progress being shown, if any. Reads only what does not change while
 * the workers run. */
void dt__cli_progreso_cortar(void);

#endif
