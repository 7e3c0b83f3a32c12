package cl.datoteca;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * libdatoteca through JNA direct mapping (static natives: no proxy, no reflection per call). Pointers
 * the library returns are kept as {@code long}: only linux-x86-64 is bundled, where a pointer and a
 * size_t are both 64-bit. Loaded once, from the system property {@code datoteca.library} (a path),
 * else the environment variable {@code DATOTECA_LIBRARY}, else the copy bundled in the jar. The
 * major version is checked against the spec's DT_ABI_MAJOR before anything else runs.
 */
final class Nativo {
    private Nativo() {}

    static final String RUTA;

    static {
        RUTA = ruta();
        Native.register(Nativo.class, NativeLibrary.getInstance(RUTA));
        long major = Integer.toUnsignedLong(dt_version_number()) / 10000;
        if (major != Constantes.ABI_MAJOR) {
            throw new UnsatisfiedLinkError("datoteca: " + RUTA + " is version " + dt_version().getString(0, "UTF-8")
                    + ", this binding needs major version " + Constantes.ABI_MAJOR);
        }
    }

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
        try (InputStream q = Nativo.class.getResourceAsStream("nativo.properties")) {
            if (q != null) {
                props.load(q);
                in = Nativo.class.getResourceAsStream(props.getProperty("recurso", ""));
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

    static native Pointer dt_version();
    static native int dt_version_number();
    static native int dt_data_version();
    static native Pointer dt_status_str(int status);
    static native int dt_new(long seed, long[] out);
    static native int dt_new_str(byte[] seed, long len, long[] out);
    static native void dt_free(long g);
    static native int dt_set_hoy(long g, int anio, int mes, int dia);
    static native int dt_get_hoy(long g, int[] anio, int[] mes, int[] dia);
    static native int dt_next_u32(long g, int[] out);
    static native int dt_state_save(long g, byte[] buf, long cap, long[] len);
    static native int dt_state_restore(long g, byte[] buf, long len);
    static native int dt_derive(long g, byte[] label, long len, long[] out);
    static native long dt_call_count();
    static native long dt_call_at(long index);
    static native int dt_call_check(long index, long[] args, long nargs, byte[] buf, long cap, long[] len);
    static native int dt_call(long g, long index, Pointer args, long nargs, Pointer buf, long cap, Pointer len);
    static native int dt_call_many(long g, long index, long[] args, long nargs, long n, Pointer buf, long cap, long[] len);
    static native int dt_param_choice(long info, long param, byte[] name, long len, long[] value, byte[] buf, long cap,
            long[] outLen);
    static native long dt_util_count();
    static native long dt_util_at(long index);
    static native int dt_util(long index, byte[] texto, long len, long[] args, long nargs, byte[] buf, long cap, long[] outLen);
    static native long dt_referencia_count();
    static native int dt_referencia_at(long index, Pointer out);
    static native int dt_tabla_new(Pointer opciones, long[] out, byte[] why, long whycap);
    static native void dt_tabla_free(long t);
    static native long dt_tabla_columnas(long t);
    static native int dt_tabla_columna(long t, long j, Pointer out);
    static native long dt_tabla_capacidad(long t);
    static native int dt_tabla_filas(long t, long desde, long n, Pointer buf, long cap, long[] len);
    static native int dt_esquema_new(byte[] texto, long len, int formato, byte[] archivo, long seed, int anio, int mes, int dia,
            long[] out, byte[] why, long whycap);
    static native void dt_esquema_free(long e);
    static native long dt_esquema_tablas(long e);
    static native Pointer dt_esquema_tabla(long e, long tabla);
    static native long dt_esquema_tabla_filas(long e, long tabla);
    static native int dt_esquema_filas(long e, long tabla, long desde, long n, Pointer buf, long cap, long[] len);
}
