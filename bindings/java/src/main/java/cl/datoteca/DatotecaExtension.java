package cl.datoteca;

import java.lang.reflect.Method;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * JUnit 5: a {@link Datoteca} parameter seeded for this test alone, the same from every working
 * directory, IDE and CI.
 *
 * <pre>{@code
 * @ExtendWith(DatotecaExtension.class)
 * class AltaTest {
 *     @Test
 *     void alta(Datoteca d) { ... d.persona.persona() ... }
 * }
 * }</pre>
 *
 * The seed is the text {@code "{base}:{class}#{method}"} (the class's fully qualified name), hashed
 * by the library as every text seed: the shape of the pytest and Vitest helpers'
 * {@code "{base}:{path}::{name}"} (docs/helpers.md), with the class standing for the path. The base
 * seed is {@code -Ddatoteca.seed}, else {@code DATOTECA_SEED}, else 0; decimal or 0x-hex, in [0, 2^64).
 * A failing test's error gets the seed and a command that reruns it with the same data:
 *
 * <pre>
 * datoteca seed: '0:cl.empresa.AltaTest#alta'
 * replay with: cd '/home/ana/proyecto' &amp;&amp; mvn -Dtest='AltaTest#alta' -Ddatoteca.seed=0 test
 * </pre>
 *
 * Each injected instance is closed after its test. Thread-safety: one instance per test, as JUnit
 * runs it.
 */
public final class DatotecaExtension implements ParameterResolver, AfterEachCallback, TestExecutionExceptionHandler {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(DatotecaExtension.class);

    /** The base seed: -Ddatoteca.seed, else the environment's DATOTECA_SEED, else 0. */
    public static long semillaBase() {
        String v = System.getProperty("datoteca.seed");
        if (v == null || v.isEmpty()) {
            v = System.getenv("DATOTECA_SEED");
        }
        if (v == null || v.isEmpty()) {
            return 0;
        }
        try {
            return Nucleo.semillaBase(v);
        } catch (DatotecaException e) {
            throw new ExtensionConfigurationException("-Ddatoteca.seed / DATOTECA_SEED " + e.getMessage());
        }
    }

    /** A test's seed: {@code "{base}:{class}#{method}"}, base as an unsigned decimal. */
    public static String semilla(long base, Class<?> clase, String metodo) {
        return Long.toUnsignedString(base) + ":" + clase.getName() + "#" + metodo;
    }

    /** The command that reruns one test with this base seed, pasteable into a shell from anywhere. */
    public static String replay(long base, Class<?> clase, String metodo) {
        String dir = System.getProperty("basedir", System.getProperty("user.dir"));
        String pkg = clase.getPackageName();
        String nombre = pkg.isEmpty() ? clase.getName() : clase.getName().substring(pkg.length() + 1);
        return "cd " + shell(dir) + " && mvn -Dtest=" + shell(nombre + "#" + metodo) + " -Ddatoteca.seed="
                + Long.toUnsignedString(base) + " test";
    }

    static String shell(String s) {
        return "'" + s.replace("'", "'\"'\"'") + "'";
    }

    private static final class Instancia implements ExtensionContext.Store.CloseableResource {
        final Datoteca d;
        final String semilla;
        final long base;

        Instancia(Datoteca d, String semilla, long base) {
            this.d = d;
            this.semilla = semilla;
            this.base = base;
        }

        @Override
        public void close() {
            d.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext c) {
        return p.getParameter().getType() == Datoteca.class && p.getDeclaringExecutable() instanceof Method;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext c) {
        Instancia i = c.getStore(NS).getOrComputeIfAbsent(Instancia.class, k -> {
            long base = semillaBase();
            String s = semilla(base, c.getRequiredTestClass(), c.getRequiredTestMethod().getName());
            return new Instancia(new Datoteca(s), s, base);
        }, Instancia.class);
        return i.d;
    }

    @Override
    public void afterEach(ExtensionContext c) {
        Instancia i = c.getStore(NS).remove(Instancia.class, Instancia.class);
        if (i != null) {
            i.close();
        }
    }

    @Override
    public void handleTestExecutionException(ExtensionContext c, Throwable t) throws Throwable {
        Instancia i = c.getStore(NS).get(Instancia.class, Instancia.class);
        if (i == null) {
            throw t;
        }
        String msg = (t.getMessage() == null ? t.getClass().getName() : t.getMessage()) + "\ndatoteca seed: " + shell(i.semilla)
                + "\nreplay with: " + replay(i.base, c.getRequiredTestClass(), c.getRequiredTestMethod().getName());
        AssertionError e = new AssertionError(msg, t);
        e.setStackTrace(t.getStackTrace());
        throw e;
    }
}
