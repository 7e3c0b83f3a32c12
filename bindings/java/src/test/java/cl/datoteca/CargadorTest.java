package cl.datoteca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Which loader runs: FFM on Java 22 and later, JNA on 17 and 21, JNA wherever -Ddatoteca.ffi=jna
 * asks. `make test-java` names the loader each pass must run (-Ddatoteca.esperado), so a silent
 * fallback to JNA on a 22+ JDK fails here. Then a JVM of its own with the other loader must give the
 * same bytes on every native path ({@link Sonda}).
 */
class CargadorTest {
    static final int JAVA = Runtime.version().feature();

    static String esperado() {
        String e = System.getProperty("datoteca.esperado");
        if (e != null && !e.isEmpty()) {
            return e;
        }
        String f = System.getProperty("datoteca.ffi", System.getenv("DATOTECA_FFI"));
        if (f != null && !f.isEmpty()) {
            return f;
        }
        return JAVA >= 22 ? "ffm" : "jna";
    }

    @Test
    void theExpectedLoaderRuns() {
        System.out.println("datoteca loader (java): " + Datoteca.loader() + " on Java " + Runtime.version() + " ("
                + System.getProperty("java.home") + ")");
        assertEquals(esperado(), Datoteca.loader(), "the loader on Java " + Runtime.version()
                + " (datoteca.ffi=" + System.getProperty("datoteca.ffi") + ")");
    }

    /** java -cp (the tests' class path) cl.datoteca.Sonda with -Ddatoteca.ffi=ffi: exit status and output. */
    static Object[] sonda(String ffi) throws Exception {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                "--enable-native-access=ALL-UNNAMED", "-Ddatoteca.ffi=" + ffi, "-Ddatoteca.root=" + Json.ROOT, "-cp", cp, "cl.datoteca.Sonda"));
        String lib = System.getProperty("datoteca.library");
        if (lib != null) {
            cmd.add(1, "-Ddatoteca.library=" + lib);
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("DATOTECA_FFI");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the probe JVM (datoteca.ffi=" + ffi + ") did not end: " + out);
        return new Object[] {p.exitValue(), out};
    }

    @Test
    void theOtherLoaderGivesTheSameBytes() throws Exception {
        String aqui = Sonda.huella();
        if (JAVA >= 22) {
            for (String ffi : List.of("ffm", "jna")) {
                Object[] r = sonda(ffi);
                String out = (String) r[1];
                assertEquals(0, r[0], "the probe JVM with datoteca.ffi=" + ffi + " failed:\n" + out);
                assertTrue(out.contains("loader " + ffi + "\n"), "datoteca.ffi=" + ffi + " must run that loader, got:\n" + out);
                assertTrue(out.contains("digest " + aqui + "\n"), "datoteca.ffi=" + ffi + " gave other bytes than " + Datoteca.loader()
                        + " here (digest " + aqui + "):\n" + out);
            }
        } else {
            Object[] r = sonda("ffm");
            String out = (String) r[1];
            assertEquals(3, r[0], "datoteca.ffi=ffm on Java " + JAVA + " must fail, got:\n" + out);
            assertTrue(out.contains("datoteca.ffi=ffm needs Java 22 or later"), out);
            r = sonda("jna");
            assertEquals(0, r[0], (String) r[1]);
            assertTrue(((String) r[1]).contains("digest " + aqui + "\n"), "JNA in another JVM gave other bytes:\n" + r[1]);
        }
        Object[] r = sonda("jni");
        assertEquals(3, r[0], (String) r[1]);
        assertTrue(((String) r[1]).contains("-Ddatoteca.ffi must be 'ffm' or 'jna'"), (String) r[1]);
    }
}
