package cl.datoteca.bench;

import cl.datoteca.Datoteca;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * datoteca's side of the bench, loaded once per loader: {@link Bench} loads this class (and the
 * binding, and JNA) in a class loader of its own with -Ddatoteca.ffi set, so FFM and JNA run in the
 * same JVM, interleaved with Datafaker. Only java.* types cross between the loaders, and each
 * Runnable calls the binding directly (no reflection in the timed loop).
 */
public final class Lado {
    private Lado() {}

    static volatile Object sink;

    public static String loader() {
        return Datoteca.loader();
    }

    public static String version() {
        return Datoteca.version() + " (data " + Datoteca.dataVersion() + ")";
    }

    /** One call at a time, by the bench's row key. */
    public static Map<String, Runnable> simples(long seed) {
        Datoteca d = new Datoteca(seed);
        Map<String, Runnable> m = new LinkedHashMap<>();
        m.put("rut", () -> sink = d.rut());
        m.put("nombre completo", () -> sink = d.persona.nombreCompleto());
        m.put("dirección record", () -> sink = d.direccion.direccion());
        m.put("calle", () -> sink = d.direccion.calle());
        m.put("teléfono", () -> sink = d.telefono.movil());
        m.put("email", () -> sink = d.persona.email());
        m.put("empresa (razón social)", () -> sink = d.empresa.razonSocial());
        m.put("empresa (nombre)", () -> sink = d.empresa.nombre());
        m.put("persona record", () -> sink = d.persona.persona());
        return m;
    }

    /** n values per call of many(): the bulk path, one crossing per 2,048 values. */
    public static Map<String, IntConsumer> lotes(long seed) {
        Datoteca d = new Datoteca(seed);
        Map<String, IntConsumer> m = new LinkedHashMap<>();
        m.put("rut", k -> sink = d.many("rut", k, null));
        m.put("nombre completo", k -> sink = d.many("persona.nombre_completo", k, null));
        m.put("persona record", k -> sink = d.many("persona.persona", k, null));
        return m;
    }
}
