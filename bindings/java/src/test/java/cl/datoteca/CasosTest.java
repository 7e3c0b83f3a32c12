package cl.datoteca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The registry-driven argument cases (tests/casos_argumentos.json, generated from the spec) and the one
 * table of bad inputs (tests/casos_errores.json): an accepted case gives the CLI's value (an outside
 * judge: another program over the same C), a refused one the table's class and the very sentence C,
 * Python and Node give.
 */
class CasosTest {
    static final String CLI = System.getProperty("datoteca.cli", Json.ROOT.resolve("build-c/datoteca").toString());

    @SuppressWarnings("unchecked")
    static <T> T get(Object m, String k) {
        return (T) ((Map<String, Object>) m).get(k);
    }

    static String cli(List<String> argv) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "the CLI refused " + argv + ": " + out);
        return out.stripTrailing();
    }

    @TestFactory
    Stream<DynamicTest> argumentos() {
        List<Object> cases = get(Json.leer("tests/casos_argumentos.json"), "cases");
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            Object c = cases.get(i);
            String call = get(c, "call");
            Map<String, Object> args = get(c, "args");
            Object want = get(c, "expect");
            String where = "argument case " + (i + 1) + ", " + call + " " + Json.compacto(args);
            tests.add(DynamicTest.dynamicTest(where, () -> {
                if ("ok".equals(want)) {
                    List<String> argv = new ArrayList<>(List.of(CLI, call, "--seed", "7", "-n", "1", "--format", "plain"));
                    args.forEach((k, v) -> {
                        argv.add("--" + k);
                        argv.add(String.valueOf(v));
                    });
                    Object v;
                    try (Datoteca d = new Datoteca(7)) {
                        v = d.call(call, args);
                    }
                    String mine;
                    if (v instanceof Registros.Registro) {
                        List<String> parts = new ArrayList<>();
                        ((Registros.Registro) v).campos().values().forEach(x -> parts.add(x == null ? "" : x.toString()));
                        mine = String.join("\t", parts);
                    } else {
                        mine = v.toString();
                    }
                    assertEquals(cli(argv), mine, where);
                    return;
                }
                DatotecaException e = null;
                try (Datoteca d = new Datoteca(7)) {
                    d.call(call, args);
                } catch (DatotecaException x) {
                    e = x;
                }
                assertNotNull(e, where + ": accepted");
                assertInstanceOf(InvalidArgumentException.class, e, where);
                assertInstanceOf(IllegalArgumentException.class, e, where);
                assertEquals(want, e.getMessage(), where);
                assertEquals(2, e.status(), where);
            }));
        }
        return tests.stream();
    }

    static Runnable ejecutar(Object c) {
        String de = get(c, "de");
        String nombre = get(c, "nombre");
        String hoy = get(c, "hoy");
        Map<String, Object> args = get(c, "args");
        switch (de) {
            case "llamada":
                return () -> {
                    try (Datoteca d = new Datoteca(1)) {
                        if (hoy != null) {
                            d.hoy(hoy);
                        }
                        d.call(nombre, args);
                    }
                };
            case "utilidad":
                // the generic path: a bad choice name ('x') has no enum constant to pass
                return () -> Nucleo.util(Nucleo.utilidad(nombre), get(c, "texto") == null ? null : "texto", get(c, "texto"),
                        Nucleo.porNombre(Nucleo.utilidad(nombre), args));
            case "tabla":
                return () -> {
                    Map<String, Object> o = new LinkedHashMap<>(get(c, "opciones"));
                    if (hoy != null) {
                        o.put("hoy", hoy);
                    }
                    o.putAll(args);
                    new Tabla(nombre, o).close();
                };
            case "esquema":
                // the document in a file of the case's name: sentences name the file as given
                return () -> {
                    try {
                        Path dir = Files.createTempDirectory("datoteca-errores-");
                        Path f = dir.resolve(nombre);
                        Files.writeString(f, (String) get(c, "texto"), StandardCharsets.UTF_8);
                        try {
                            Long seed = get(c, "seed");
                            Esquema.desdeArchivo(f, seed == null ? 0 : seed, hoy == null ? null : java.time.LocalDate.parse(hoy)).close();
                        } finally {
                            Files.delete(f);
                            Files.delete(dir);
                        }
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                };
            case "estado":
                return () -> {
                    try (Datoteca d = new Datoteca(1)) {
                        d.restoreState(new byte[Constantes.STATE_SIZE]);
                    }
                };
            default:
                throw new IllegalStateException("error case of an unknown kind: " + de);
        }
    }

    @TestFactory
    Stream<DynamicTest> errores() {
        List<Object> cases = get(Json.leer("tests/casos_errores.json"), "cases");
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            Object c = cases.get(i);
            Object what = get(c, "args") != null && !((Map<?, ?>) get(c, "args")).isEmpty() ? get(c, "args") : get(c, "texto");
            String where = "error case " + (i + 1) + " (" + get(c, "de") + " " + get(c, "nombre") + " " + Json.compacto(what) + ")";
            tests.add(DynamicTest.dynamicTest(where, () -> {
                DatotecaException e = null;
                try {
                    ejecutar(c).run();
                } catch (DatotecaException x) {
                    e = x;
                }
                assertNotNull(e, where + " did not throw");
                assertEquals(get(c, "error"), e.errorName(), where);
                assertEquals(get(c, "error").toString().replaceAll("Error$", "Exception"), e.getClass().getSimpleName(), where);
                assertTrue(e instanceof IllegalArgumentException, where + ": not an IllegalArgumentException");
                assertEquals(get(c, "frase"), e.getMessage(), where);
                assertEquals(get(c, "estado"), e.code(), where);
            }));
        }
        return tests.stream();
    }
}
