package cl.datoteca;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The surface around the generated methods: typed and generic paths agree, closing, the hierarchy, loading. */
class ApiTest {
    @Test
    void typedAndGenericAgree() {
        try (Datoteca a = new Datoteca(42); Datoteca b = new Datoteca(42)) {
            Registros.Persona p = a.persona.persona(Opciones.Sexo.F, 30L, 40L);
            Object q = b.call("persona.persona", Map.of("sexo", "F", "edad_min", 30, "edad_max", 40));
            assertEquals(p, q);
            assertEquals("F", p.sexo());
            assertTrue(Utilidades.validarRut(p.rut()), p.rut());
            Registros.Direccion dir = a.direccion.direccion();
            assertEquals(dir, b.call("direccion.direccion"));
            assertTrue(dir.numero() > 0, "numero is a long: " + dir.numero());
        }
    }

    @Test
    void manyIsSingleCallsInARow() {
        try (Datoteca a = new Datoteca("texto"); Datoteca b = new Datoteca("texto")) {
            List<Registros.Persona> bulk = a.many("persona.persona", 3000, null);
            List<Registros.Persona> one = new ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                one.add(b.persona.persona());
            }
            assertEquals(one, bulk);
            assertArrayEquals(a.saveState(), b.saveState(), "the same stream position");
        }
    }

    @Test
    void nullFieldsAreNull() {
        try (Datoteca d = new Datoteca(1)) {
            boolean sinTramo = false;
            for (int i = 0; i < 200 && !sinTramo; i++) {
                Registros.Prevision p = d.prevision.prevision();
                sinTramo = p.tramo() == null;
                assertFalse("".equals(p.tramo()), "an empty field is null, never \"\"");
            }
            assertTrue(sinTramo, "some prevision has no tramo (an Isapre)");
        }
    }

    @Test
    void closedAndHierarchy() {
        Datoteca d = new Datoteca(3);
        d.close();
        d.close(); // a no-op
        ClosedException e = assertThrows(ClosedException.class, d::rut);
        assertEquals("rut: this Datoteca was closed", e.getMessage());
        assertInstanceOf(DatotecaException.class, e);
        try (Datoteca x = new Datoteca(3)) {
            InvalidArgumentException r = assertThrows(InvalidArgumentException.class, () -> x.direccion.comuna(17L));
            assertInstanceOf(IllegalArgumentException.class, r);
            assertEquals("DT_ERR_INVALID_ARG", r.code());
            assertEquals("InvalidArgumentError", r.errorName());
            ArgumentTypeException t = assertThrows(ArgumentTypeException.class, () -> x.call("rut", Map.of("tipo", 1)));
            assertEquals("rut: tipo must be one of 'persona', 'empresa' or null, got Integer", t.getMessage());
            assertThrows(ArgumentTypeException.class, () -> x.call("rut", Map.of("tipos", "persona")));
            InvalidArgumentException big = assertThrows(InvalidArgumentException.class,
                    () -> x.call("fecha.fecha", Map.of("desde", new java.math.BigInteger("99999999999999999999"))));
            assertEquals("fecha.fecha: desde must be from -36500 to 36500, got 99999999999999999999", big.getMessage());
        }
    }

    @Test
    void utilities() {
        assertEquals("5", Utilidades.rutDv(12345678));
        assertEquals("12345678-5", Utilidades.formatearRut("12.345.678-5", Opciones.FormatoRut.GUION));
        assertEquals("123456785", Utilidades.limpiarRut("12.345.678-5"));
        assertFalse(Utilidades.validarRut("12.345.678-4"));
        assertEquals("$1.234.567", Utilidades.formatearClp(1234567));
        InvalidRutException e = assertThrows(InvalidRutException.class, () -> Utilidades.formatearRut("12.345.678-4"));
        assertEquals("formatear_rut: rut is not a valid RUT", e.getMessage());
    }

    /** The examples of README.md and docs/java.md, as written there. */
    @Test
    void theDocsExamples() {
        try (Datoteca d = new Datoteca(42)) {
            assertEquals("13.354.725-8", d.rut());
            Registros.Persona p = d.persona.persona(Opciones.Sexo.F, 30L, null);
            assertEquals("F", p.sexo());
            List<Registros.Persona> ps = d.many("persona.persona", 1000, null);
            assertEquals(1000, ps.size());
            assertTrue(Utilidades.validarRut("60.803.000-k"));
        }
        try (Datoteca d = new Datoteca(42).hoy("2026-01-01")) {
            assertEquals("13.354.725-8", d.rut());
            String rutEmpresa = d.rut(Opciones.TipoRut.EMPRESA, null);
            assertTrue(rutEmpresa.startsWith("7"), rutEmpresa);
            long numero = d.direccion.direccion().numero();
            assertTrue(numero > 0);
            Object v = d.call("persona.nombre", Map.of("sexo", "F"));
            assertInstanceOf(String.class, v);
            assertEquals(24, d.saveState().length);
        }
        try (Tabla t = new Tabla("persona.persona", Map.of("seed", 42, "unico", List.of("rut"), "nulos", Map.of("email", 100)))) {
            List<String[]> filas = t.filas(0, 1000);
            assertEquals(1000, filas.size());
            assertEquals(t.columnas().size(), filas.get(0).length);
        }
        assertEquals("60803000-K", Utilidades.formatearRut("60803000K", Opciones.FormatoRut.GUION));
    }

    @Test
    void theLibraryLoaded() {
        String override = System.getProperty("datoteca.library", System.getenv("DATOTECA_LIBRARY"));
        if (override == null || override.isEmpty()) {
            assertTrue(Nativo.RUTA.contains("libdatoteca-"), "the bundled copy, extracted: " + Nativo.RUTA);
        } else {
            assertEquals(override, Nativo.RUTA);
        }
        assertEquals(Constantes.ABI_MAJOR, Integer.parseInt(Datoteca.version().split("\\.")[0]));
        assertNull(Registros.fabrica("rut"), "rut is not a record");
    }
}
