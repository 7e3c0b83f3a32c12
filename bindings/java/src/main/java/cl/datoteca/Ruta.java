package cl.datoteca;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * Where libdatoteca is loaded from, the same for both loaders: the system property
 * {@code datoteca.library} (a path), else the environment variable {@code DATOTECA_LIBRARY}, else the
 * copy bundled in the jar (linux-x86-64), extracted to a temporary file.
 */
final class Ruta {
    private Ruta() {}

    static final String RUTA = ruta();

    private static String ruta() {
        String p = System.getProperty("datoteca.library");
        if (p == null || p.isEmpty()) {
            p = System.getenv("DATOTECA_LIBRARY");
        }
        if (p != null && !p.isEmpty()) {
            return p;
        }
        String os = System.getProperty("os.name", "").toLowerCase();
        String arch = System.getProperty("os.arch", "");
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new UnsatisfiedLinkError("datoteca: this jar bundles libdatoteca for linux-x86-64 only (this is " + os
                    + "-" + arch + "); set -Ddatoteca.library=/path/to/libdatoteca.so");
        }
        Properties props = new Properties();
        InputStream in = null;
        try (InputStream q = Ruta.class.getResourceAsStream("nativo.properties")) {
            if (q != null) {
                props.load(q);
                in = Ruta.class.getResourceAsStream(props.getProperty("recurso", ""));
            }
        } catch (IOException e) {
            in = null;
        }
        if (in == null) {
            throw new UnsatisfiedLinkError("datoteca: this jar has no bundled libdatoteca (built without build-c/libdatoteca.so?); "
                    + "set -Ddatoteca.library=/path/to/libdatoteca.so");
        }
        // A shared library cannot be mapped from inside a jar: copy it to a private temporary file.
        try (InputStream s = in) {
            File f = File.createTempFile("libdatoteca-", ".so");
            f.deleteOnExit();
            Files.copy(s, f.toPath(), StandardCopyOption.REPLACE_EXISTING);
            return f.getAbsolutePath();
        } catch (IOException e) {
            throw new UnsatisfiedLinkError("datoteca: could not extract the bundled libdatoteca: " + e.getMessage());
        }
    }
}
