package cl.datoteca;

import java.lang.ref.Cleaner;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A dataset of one call (docs/datasets.md): row i depends only on (seed, call, arguments, options,
 * i), so any slice equals the same rows of a full run.
 *
 * <pre>{@code
 * try (Tabla t = new Tabla("persona.persona", Map.of("seed", 42, "unico", List.of("rut")))) {
 *     List<String[]> filas = t.filas(0, 1000);
 * }
 * }</pre>
 *
 * Options: {@code seed} (a Long/Integer, or a String), {@code hoy} ("YYYY-MM-DD"), {@code campos}
 * and {@code unico} (column names), {@code nulos} and {@code sucio} (column to per mille); any other
 * key is an argument of the call. Every value is checked by the library. Immutable and
 * thread-safe once built.
 */
public final class Tabla implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();

    private static final class Estado implements Runnable {
        long t;

        Estado(long t) {
            this.t = t;
        }

        @Override
        public void run() {
            Nucleo.E.dt_tabla_free(t);
            t = 0;
        }
    }

    private final Estado estado;
    private final Cleaner.Cleanable limpieza;
    private final List<String> columnas = new ArrayList<>();
    private final long capacidad;

    /** The dataset of {@code llamada} with these options (see the class comment). */
    public Tabla(String llamada, Map<String, ?> opciones) {
        Nucleo.Llamada l = Nucleo.buscar(llamada);
        Map<String, Object> args = new LinkedHashMap<>();
        // dt_tabla_opciones (104 bytes; offsets as in datoteca.h), its texts in blocks kept alive until dt_tabla_new
        List<Enlace.Bloque> keep = new ArrayList<>();
        Enlace.Bloque o = Nucleo.E.bloque(104);
        o.ponerLong(0, 104);
        o.ponerLong(8, l.index);
        if (opciones != null) {
            for (Map.Entry<String, ?> e : opciones.entrySet()) {
                String k = e.getKey();
                Object v = e.getValue();
                switch (k) {
                    case "seed":
                        if (v instanceof String) {
                            byte[] s = Nucleo.utf8((String) v);
                            Enlace.Bloque m = texto(s, keep);
                            o.ponerLong(40, m.direccion());
                            o.ponerLong(48, s.length);
                        } else if (v instanceof Long || v instanceof Integer) {
                            o.ponerLong(32, ((Number) v).longValue());
                        } else {
                            throw Errores.tipo("seed must be a long or a String, got " + Nucleo.tipo(v));
                        }
                        break;
                    case "hoy":
                        java.time.LocalDate f = v instanceof java.time.LocalDate ? (java.time.LocalDate) v : Datoteca.fecha(String.valueOf(v));
                        o.ponerInt(56, f.getYear());
                        o.ponerInt(60, f.getMonthValue());
                        o.ponerInt(64, f.getDayOfMonth());
                        break;
                    case "campos":
                    case "unico":
                        o.ponerLong(k.equals("campos") ? 72 : 80, texto(Nucleo.utf8(lista(k, v)), keep).direccion());
                        break;
                    case "nulos":
                    case "sucio":
                        o.ponerLong(k.equals("nulos") ? 88 : 96, texto(Nucleo.utf8(tasas(k, v)), keep).direccion());
                        break;
                    default:
                        args.put(k, v);
                }
            }
        }
        long[] a = Nucleo.argumentos(l, Nucleo.porNombre(l, args));
        Enlace.Bloque am = null;
        if (a != null) {
            am = Nucleo.E.bloque(8L * a.length);
            for (int i = 0; i < a.length; i++) {
                am.ponerLong(8L * i, a[i]);
            }
            o.ponerLong(16, am.direccion());
            o.ponerLong(24, a.length);
        }
        long[] out = new long[1];
        byte[] why = new byte[Constantes.SENTENCE_MAX];
        int st = Nucleo.E.dt_tabla_new(o, out, why, why.length);
        // the option texts and arguments must live until here (the dataset copies what it needs)
        java.lang.ref.Reference.reachabilityFence(keep);
        java.lang.ref.Reference.reachabilityFence(am);
        if (st != 0) {
            throw Nucleo.error(st, "Tabla()", Nucleo.texto(why));
        }
        estado = new Estado(out[0]);
        limpieza = CLEANER.register(this, estado);
        Enlace.Bloque info = Nucleo.E.bloque(40); // dt_columna_info: the name at 0
        for (long j = 0, n = Nucleo.E.dt_tabla_columnas(out[0]); j < n; j++) {
            Nucleo.E.dt_tabla_columna(out[0], j, info);
            columnas.add(Nucleo.E.leerTexto(info.leerLong(0)));
        }
        capacidad = Nucleo.E.dt_tabla_capacidad(out[0]);
    }

    private static Enlace.Bloque texto(byte[] s, List<Enlace.Bloque> keep) {
        Enlace.Bloque m = Nucleo.E.bloque(s.length + 1L); // zeroed: the NUL is there
        m.escribir(0, s);
        keep.add(m);
        return m;
    }

    private static String lista(String name, Object v) {
        if (v instanceof String) {
            return (String) v;
        }
        if (!(v instanceof Collection)) {
            throw Errores.tipo(name + " must be column names (String), got " + Nucleo.tipo(v));
        }
        List<String> out = new ArrayList<>();
        for (Object x : (Collection<?>) v) {
            if (!(x instanceof String)) {
                throw Errores.tipo(name + " must be column names (String), got " + Nucleo.tipo(x));
            }
            out.add((String) x);
        }
        return String.join(",", out);
    }

    private static String tasas(String name, Object v) {
        if (!(v instanceof Map)) {
            throw Errores.tipo(name + " must be a map of column to per mille, got " + Nucleo.tipo(v));
        }
        List<String> parts = new ArrayList<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
            if (!(e.getKey() instanceof String) || !(e.getValue() instanceof Long || e.getValue() instanceof Integer)) {
                throw Errores.tipo(name + " must map column names to integer per mille, got " + e.getKey() + ": " + e.getValue());
            }
            // the range (0 to 1000) is the library's to check: its sentence is the one every binding gives
            parts.add(e.getKey() + ":" + e.getValue());
        }
        return String.join(",", parts);
    }

    /** The columns, in order. */
    public List<String> columnas() {
        return List.copyOf(columnas);
    }

    /** How many rows can be addressed (2^63 without unique columns, as an unsigned long). */
    public long capacidad() {
        return capacidad;
    }

    /** Rows [desde, desde + n) as dt_tabla_filas writes them: fields joined by DT_FIELD_SEP, a null as DT_NULO, each row ending in '\n'. */
    public String texto(long desde, int n) {
        return Nucleo.filas(estado.t, -1, desde, n, "Tabla.filas()");
    }

    /** Rows [desde, desde + n): each row's cells as text, a null cell as null. */
    public List<String[]> filas(long desde, int n) {
        return Nucleo.celdas(texto(desde, n));
    }

    @Override
    public void close() {
        limpieza.clean();
    }
}
