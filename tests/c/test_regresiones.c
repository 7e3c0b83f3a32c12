/* Named regression tests: each is a bug that was found, minimised and fixed, kept so it
 * cannot come back. Crashes found by fuzzing go here too (none so far). */
#include "check.h"
#include "datoteca.h"
#include "ref/tablas.gen.h"

/* regresion_alias_potencia_de_dos (found while writing the first CLI run, before 1.0.0):
 * the generator scaled the 16 regions' alias table to k = 28, so n << k = 2^32 overflowed the
 * 32-bit bound to 0, below(0) always returned 0, and every address was in Tarapacá.
 * Root cause: largest_k allowed n * 2^k == 2^32. Fixed: n * 2^k < 2^32. */
static void regresion_alias_potencia_de_dos(void) {
    const dt_t_alias *tablas[] = {&dt_t_region_alias, &dt_t_nombres_f_alias, &dt_t_nombres_m_alias, &dt_t_apellidos_alias};
    for (size_t i = 0; i < sizeof tablas / sizeof tablas[0]; i++)
        CHECK((uint64_t)tablas[i]->n << tablas[i]->k < (1ull << 32), "alias table %zu: n=%u k=%u overflows", i, tablas[i]->n, tablas[i]->k);
    for (int r = 0; r < DT_T_N_REGIONES; r++) {
        const dt_t_alias *a = &dt_t_regiones[r].comunas;
        CHECK((uint64_t)a->n << a->k < (1ull << 32), "region %d comunas: n=%u k=%u overflows", r + 1, a->n, a->k);
    }
    dt_gen *g;
    dt_new(1, &g);
    char buf[DT_MAX_TEXT];
    int rm = 0, distintas = 0;
    char vistas[16][64] = {{0}};
    for (int i = 0; i < 10000; i++) {
        dt_direccion_region(g, buf, sizeof buf, NULL);
        rm += strcmp(buf, "Región Metropolitana de Santiago") == 0;
        int nueva = 1;
        for (int k = 0; k < distintas; k++) nueva &= strcmp(vistas[k], buf) != 0;
        if (nueva && distintas < 16) snprintf(vistas[distintas++], sizeof vistas[0], "%.63s", buf);
    }
    dt_free(g);
    CHECK(distintas == 16, "10,000 regions drawn, only %d distinct", distintas);
    CHECK(rm > 3700 && rm < 4400, "Región Metropolitana drawn %d times in 10,000 (40.5 %% of the population)", rm);
}

/* regresion_rut_puntos_sin_guion: "12.345.6785" (dots, no dash) is a spelling people type and
 * was listed as invalid in the first validator table; it is valid. */
static void regresion_rut_puntos_sin_guion(void) {
    uint32_t cuerpo = 0;
    CHECK(dt_rut_leer("12.345.6785", 11, &cuerpo, NULL) == DT_OK && cuerpo == 12345678, "12.345.6785 rejected");
}

int main(void) {
    regresion_alias_potencia_de_dos();
    regresion_rut_puntos_sin_guion();
    return dt_test_done("test_regresiones");
}
