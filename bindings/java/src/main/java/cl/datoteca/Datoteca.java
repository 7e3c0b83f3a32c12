package cl.datoteca;

import java.lang.ref.Cleaner;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A deterministic generator: the same seed gives the same values as Python, Node and the CLI.
 *
 * <pre>{@code
 * try (Datoteca d = new Datoteca(42)) {
 *     String rut = d.rut();
 *     Registros.Persona p = d.persona.persona(Opciones.Sexo.F, 30L, null);
 * }
 * }</pre>
 *
 * Not thread-safe: one instance is one stream (use one per thread, or {@link #derive(String)}).
 * {@link #close()} frees the C instance at once (later calls throw {@link ClosedException}); an
 * instance never closed is freed when it is garbage-collected.
 */
public final class Datoteca extends Llamadas implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();

    /** Owns the C instance: shared with the Cleaner, which must not reach the Datoteca itself. */
    private static final class Estado implements Runnable {
        long g;

        Estado(long g) {
            this.g = g;
        }

        @Override
        public void run() {
            if (g != 0) {
                Nucleo.E.dt_free(g);
                g = 0;
            }
        }
    }

    private final Estado estado;
    private final Cleaner.Cleanable limpieza;
    // this instance's call buffers, made once (the loader's: native memory for JNA, arrays for FFM)
    private final Enlace.Canal canal = Nucleo.E.canal();

    /** Seed 0. */
    public Datoteca() {
        this(0L);
    }

    /** A 64-bit seed, read as unsigned (-1L is 2^64 - 1), as every runtime reads it. */
    public Datoteca(long seed) {
        this(nuevo(seed));
    }

    /** A text seed: its UTF-8 bytes hashed with FNV-1a 64 in C, the same in every runtime. */
    public Datoteca(String seed) {
        this(nuevo(seed));
    }

    private Datoteca(long g, boolean unused) {
        this(Long.valueOf(g));
    }

    private Datoteca(Long g) {
        estado = new Estado(g);
        limpieza = CLEANER.register(this, estado);
    }

    private static Long nuevo(long seed) {
        long[] out = new long[1];
        int st = Nucleo.E.dt_new(seed, out);
        if (st != 0) {
            throw Nucleo.error(st, "Datoteca()", null);
        }
        return out[0];
    }

    private static Long nuevo(String seed) {
        if (seed == null) {
            throw Errores.tipo("seed must be a long or a String, got null");
        }
        byte[] s = Nucleo.utf8(seed);
        long[] out = new long[1];
        int st = Nucleo.E.dt_new_str(s, s.length, out);
        if (st != 0) {
            throw Nucleo.error(st, "Datoteca()", null);
        }
        return out[0];
    }

    /** Set the reference date for ages (default 2026-01-01); returns this. */
    public Datoteca hoy(LocalDate hoy) {
        if (hoy == null) {
            throw Errores.tipo("hoy must be a LocalDate or 'YYYY-MM-DD', got null");
        }
        if (hoy.getYear() < Constantes.HOY_ANIO_MIN || hoy.getYear() > Constantes.HOY_ANIO_MAX) {
            throw new InvalidArgumentException("hoy must be between " + Constantes.HOY_ANIO_MIN + "-01-01 and "
                    + Constantes.HOY_ANIO_MAX + "-12-31, got " + hoy);
        }
        int st = Nucleo.E.dt_set_hoy(estado.g, hoy.getYear(), hoy.getMonthValue(), hoy.getDayOfMonth());
        if (st != 0) {
            throw Nucleo.error(st, "hoy", null);
        }
        return this;
    }

    /** Set the reference date from "YYYY-MM-DD"; returns this. */
    public Datoteca hoy(String hoy) {
        return hoy(fecha(hoy));
    }

    static LocalDate fecha(String hoy) {
        try {
            return LocalDate.parse(hoy);
        } catch (RuntimeException e) {
            throw new InvalidArgumentException("hoy must be a date or 'YYYY-MM-DD', got '" + hoy + "'");
        }
    }

    /** The reference date used for ages. */
    public LocalDate hoy() {
        int[] y = new int[1];
        int[] m = new int[1];
        int[] d = new int[1];
        int st = Nucleo.E.dt_get_hoy(estado.g, y, m, d);
        if (st != 0) {
            throw Nucleo.error(st, "hoy", null);
        }
        return LocalDate.of(y[0], m[0], d[0]);
    }

    /** Free the C instance now; later calls throw ClosedException; closing twice is a no-op. */
    @Override
    public void close() {
        limpieza.clean();
    }

    // ---- the stream ----------------------------------------------------------------------------

    /** The next 32-bit value of the stream (one draw), as an unsigned value in a long. */
    public long nextU32() {
        int[] out = new int[1];
        int st = Nucleo.E.dt_next_u32(estado.g, out);
        if (st != 0) {
            throw Nucleo.error(st, "nextU32()", null);
        }
        return Integer.toUnsignedLong(out[0]);
    }

    /** The complete state (DT_STATE_SIZE bytes); {@link #restoreState} continues exactly from here, in any language. */
    public byte[] saveState() {
        byte[] b = new byte[Constantes.STATE_SIZE];
        int st = Nucleo.E.dt_state_save(estado.g, b, b.length, null);
        if (st != 0) {
            throw Nucleo.error(st, "saveState()", null);
        }
        return b;
    }

    /** Continue from a state made by saveState (in any language). */
    public void restoreState(byte[] state) {
        if (state == null) {
            throw Errores.tipo("state must be a byte[], got null");
        }
        int st = Nucleo.E.dt_state_restore(estado.g, state, state.length);
        if (st != 0) {
            throw Nucleo.error(st, "state", null);
        }
    }

    /** An independent child generator for {@code label}; takes draws from this stream as every runtime's derive. */
    public Datoteca derive(String label) {
        if (label == null) {
            throw Errores.tipo("label must be a String, got null");
        }
        byte[] l = Nucleo.utf8(label);
        long[] out = new long[1];
        int st = Nucleo.E.dt_derive(estado.g, l, l.length, out);
        if (st != 0) {
            throw Nucleo.error(st, "derive()", null);
        }
        return new Datoteca(out[0], true);
    }

    // ---- calls ---------------------------------------------------------------------------------

    @Override
    Object ejecutar(Nucleo.Llamada l, Object[] values) {
        if (l.index < 0) {
            throw Nucleo.desconocida(l);
        }
        long[] args = Nucleo.argumentos(l, values);
        int st = canal.llamar(estado.g, l.index, args, args == null ? 0 : args.length);
        if (st != 0) {
            throw Nucleo.error(st, l.nombre, canal.frase());
        }
        return l.valor(canal.datos(), 0, canal.largo());
    }

    /**
     * Any registered call by name, its arguments by parameter name (a Long/Integer, or a choice's
     * name or {@link Opciones.Opcion}): a String, a Long, or a {@link Registros.Registro}.
     * {@code d.call("persona.nombre", Map.of("sexo", "F"))}.
     */
    public Object call(String name, Map<String, ?> args) {
        Nucleo.Llamada l = Nucleo.buscar(name);
        return ejecutar(l, Nucleo.porNombre(l, args));
    }

    /** {@link #call(String, Map)} with every argument at its default. */
    public Object call(String name) {
        return call(name, null);
    }

    /**
     * n values of one call, crossing into C once per DT_CHUNK values; identical to n single calls in
     * the same order. {@code List<Registros.Persona> ps = d.many("persona.persona", 1000, null)}.
     */
    @SuppressWarnings("unchecked")
    public <T> List<T> many(String name, int n, Map<String, ?> args) {
        Nucleo.Llamada l = Nucleo.buscar(name);
        if (n < 0 || n > Constantes.N_MAX) {
            throw new InvalidArgumentException("n must be from 0 to " + Constantes.N_MAX + ", got " + n);
        }
        long[] a = Nucleo.argumentos(l, Nucleo.porNombre(l, args));
        int nargs = a == null ? 0 : a.length;
        List<T> out = new ArrayList<>(n);
        int chunk = Math.min(n, Constantes.CHUNK);
        for (int hecho = 0; hecho < n; ) {
            int k = Math.min(n - hecho, chunk);
            int st = canal.muchos(estado.g, l.index, a, nargs, k);
            if (st != 0) {
                throw Nucleo.error(st, l.nombre, canal.frase());
            }
            byte[] b = canal.datos();
            int from = 0;
            for (int i = 0; i < k; i++) {
                int to = from;
                while (b[to] != '\n') { // every value ends in '\n', the last one too
                    to++;
                }
                out.add((T) l.valor(b, from, to));
                from = to + 1;
            }
            hecho += k;
        }
        return out;
    }

    /** One reference table the data is drawn from: its name, rows and digest (fixtures/fingerprint.json). */
    public record Referencia(String nombre, long filas, String digest) {}

    /** The reference tables, in the library's order. */
    public static List<Referencia> tablas() {
        List<Referencia> out = new ArrayList<>();
        Enlace.Bloque m = Nucleo.E.bloque(24); // dt_referencia_info: name at 0, rows (uint32) at 8, digest at 16
        for (long i = 0, n = Nucleo.E.dt_referencia_count(); i < n; i++) {
            int st = Nucleo.E.dt_referencia_at(i, m);
            if (st != 0) {
                throw Nucleo.error(st, "tablas()", null);
            }
            String digest = String.format("%016x", m.leerLong(16));
            out.add(new Referencia(Nucleo.E.leerTexto(m.leerLong(0)), Integer.toUnsignedLong(m.leerInt(8)), digest));
        }
        return out;
    }

    /** The library's version ("3.0.0"). */
    public static String version() {
        return Nucleo.E.dt_version();
    }

    /**
     * The loader this process calls the library through: {@code "ffm"} (the Foreign Function &amp;
     * Memory API, Java 22 and later) or {@code "jna"} (Java 17 and 21, or {@code -Ddatoteca.ffi=jna}).
     */
    public static String loader() {
        return Nucleo.E.nombre();
    }

    /** The version of the reference data (fixtures/golden.json records it). */
    public static int dataVersion() {
        return Nucleo.E.dt_data_version();
    }
}
