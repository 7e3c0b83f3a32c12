package cl.datoteca;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test that fails on purpose, run only by ExtensionTest (through JUnit's launcher and through the
 * replay command it prints): its name matches none of surefire's default includes.
 */
@ExtendWith(DatotecaExtension.class)
class FalloAdrede {
    static volatile String visto;

    @Test
    void falla(Datoteca d) {
        visto = d.rut();
        fail("el RUT " + visto + " no se esperaba");
    }

    @Test
    void pasa(Datoteca d) {
        String r = d.rut();
        assertTrue(Utilidades.validarRut(r), r);
    }
}
