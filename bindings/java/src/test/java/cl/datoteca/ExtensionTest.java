package cl.datoteca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** DatotecaExtension: the seed it injects, the message of a failure, and that the printed replay reproduces the data. */
class ExtensionTest {
    static final String FALLA = "cl.datoteca.FalloAdrede#falla(cl.datoteca.Datoteca)";

    static TestExecutionSummary lanzar(String metodo, String base) {
        String antes = System.getProperty("datoteca.seed");
        System.setProperty("datoteca.seed", base);
        try {
            Launcher l = LauncherFactory.create();
            SummaryGeneratingListener s = new SummaryGeneratingListener();
            l.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectMethod(metodo)).build(), s);
            return s.getSummary();
        } finally {
            if (antes == null) {
                System.clearProperty("datoteca.seed");
            } else {
                System.setProperty("datoteca.seed", antes);
            }
        }
    }

    static String rut(String seed) {
        try (Datoteca d = new Datoteca(seed)) {
            return d.rut();
        }
    }

    @Test
    void laFallaDiceLaSemillaYElReplay() {
        TestExecutionSummary s = lanzar(FALLA, "0x3039");
        assertEquals(1, s.getTotalFailureCount(), "the deliberate failure failed");
        Throwable t = s.getFailures().get(0).getException();
        String m = t.getMessage();
        assertTrue(m.startsWith("el RUT " + FalloAdrede.visto + " no se esperaba\n"), m);
        assertTrue(m.contains("\ndatoteca seed: '12345:cl.datoteca.FalloAdrede#falla'\n"), m);
        assertTrue(m.matches("(?s).*\nreplay with: cd '[^']+' && mvn -Dtest='FalloAdrede#falla' -Ddatoteca.seed=12345 test"), m);
        assertInstanceOf(AssertionError.class, t.getCause(), "the test's own error is the cause");
        // the data came from that seed, hashed by the library as every text seed (docs/helpers.md)
        assertEquals(rut("12345:cl.datoteca.FalloAdrede#falla"), FalloAdrede.visto);
        String otra = lanzar(FALLA, "7").getFailures().get(0).getException().getMessage();
        assertTrue(otra.contains("datoteca seed: '7:cl.datoteca.FalloAdrede#falla'"), otra);
        assertEquals(rut("7:cl.datoteca.FalloAdrede#falla"), FalloAdrede.visto);
        assertNotEquals(rut("12345:cl.datoteca.FalloAdrede#falla"), FalloAdrede.visto, "another base seed, other data");
    }

    @Test
    void unaPruebaQuePasaNoCambia() {
        TestExecutionSummary s = lanzar("cl.datoteca.FalloAdrede#pasa(cl.datoteca.Datoteca)", "1");
        assertEquals(1, s.getTestsSucceededCount());
        assertEquals(0, s.getTotalFailureCount());
    }

    @Test
    @ExtendWith(DatotecaExtension.class)
    void inyecta(Datoteca d) {
        String seed = DatotecaExtension.semilla(DatotecaExtension.semillaBase(), ExtensionTest.class, "inyecta");
        assertEquals(rut(seed), d.rut(), "seed " + seed);
    }

    @Test
    void laSemillaBase() {
        assertEquals(255L, Nucleo.semillaBase("0xff"));
        assertEquals(-1L, Nucleo.semillaBase("18446744073709551615"));
        DatotecaException e = org.junit.jupiter.api.Assertions.assertThrows(DatotecaException.class, () -> Nucleo.semillaBase("18446744073709551616"));
        assertEquals("must be an integer in [0, 2**64) (decimal or 0x-hexadecimal), got '18446744073709551616'", e.getMessage());
    }

    /** The printed command, run through bash as a user pastes it: a new Maven, the same seed, the same RUT. */
    @Test
    void elReplayReproduceLosDatos() throws IOException, InterruptedException {
        Throwable t = lanzar(FALLA, "424242").getFailures().get(0).getException();
        String esperado = FalloAdrede.visto;
        Matcher m = Pattern.compile("\nreplay with: (.*)$").matcher(t.getMessage());
        assertTrue(m.find(), t.getMessage());
        Process p = new ProcessBuilder(List.of("bash", "-c", m.group(1))).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int rc = p.waitFor();
        // the replayed run must fail the same way, with the same data and seed
        Files.deleteIfExists(Path.of(System.getProperty("basedir", "."), "target/surefire-reports/TEST-cl.datoteca.FalloAdrede.xml"));
        Files.deleteIfExists(Path.of(System.getProperty("basedir", "."), "target/surefire-reports/cl.datoteca.FalloAdrede.txt"));
        assertNotEquals(0, rc, out);
        assertTrue(out.contains("el RUT " + esperado + " no se esperaba"), "the replay saw other data than " + esperado + ":\n" + out);
        assertTrue(out.contains("datoteca seed: '424242:cl.datoteca.FalloAdrede#falla'"), out);
    }
}
