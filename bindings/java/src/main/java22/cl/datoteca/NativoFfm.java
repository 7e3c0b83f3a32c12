package cl.datoteca;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

/**
 * libdatoteca through the Foreign Function &amp; Memory API (java.lang.foreign, final in Java 22): the
 * loader on Java 22 and later. Compiled with --release 22 into the jar's META-INF/versions/22, so
 * Java 17 and 21 never see it.
 *
 * <p>The functions that are short, bounded and never call back into Java (dt_call, dt_util, the
 * stream and state functions, the argument checks) are linked as <em>critical</em> with heap access:
 * no thread-state transition, and Java arrays are passed to C as they are, so the single-value path
 * copies nothing but the value's own bytes into a {@code String}. The functions that may run long
 * (dt_call_many, datasets and schemas) are linked normally, so a garbage collection is never held
 * back by them; their arrays are copied through a confined arena.
 *
 * <p>Handles and pointers are {@code long} on the binding's side and {@code MemorySegment} here: the
 * segments of the static handles fold away once the JIT has compiled a call.
 */
final class NativoFfm implements Enlace {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIB = SymbolLookup.libraryLookup(Path.of(Ruta.RUTA), Arena.global());
    private static final Linker.Option[] CRITICO = {Linker.Option.critical(true)};
    private static final Linker.Option[] NORMAL = {};
    /** Every address, for reading the library's static storage (registries, names) where it points. */
    private static final MemorySegment TODO = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    private static final ValueLayout.OfLong LONG_U = JAVA_LONG.withByteAlignment(1);
    private static final ValueLayout.OfInt INT_U = JAVA_INT.withByteAlignment(1);

    private static MethodHandle h(String nombre, Linker.Option[] opciones, MemoryLayout resultado, MemoryLayout... args) {
        MemorySegment f = LIB.find(nombre).orElseThrow(() -> new UnsatisfiedLinkError("datoteca: " + Ruta.RUTA + " has no " + nombre));
        FunctionDescriptor d = resultado == null ? FunctionDescriptor.ofVoid(args) : FunctionDescriptor.of(resultado, args);
        return LINKER.downcallHandle(f, d, opciones);
    }

    private static final MethodHandle DT_VERSION = h("dt_version", NORMAL, ADDRESS);
    private static final MethodHandle DT_VERSION_NUMBER = h("dt_version_number", NORMAL, JAVA_INT);
    private static final MethodHandle DT_DATA_VERSION = h("dt_data_version", NORMAL, JAVA_INT);
    private static final MethodHandle DT_STATUS_STR = h("dt_status_str", NORMAL, ADDRESS, JAVA_INT);
    private static final MethodHandle DT_NEW = h("dt_new", CRITICO, JAVA_INT, JAVA_LONG, ADDRESS);
    private static final MethodHandle DT_NEW_STR = h("dt_new_str", CRITICO, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS);
    private static final MethodHandle DT_FREE = h("dt_free", NORMAL, null, ADDRESS);
    private static final MethodHandle DT_SET_HOY = h("dt_set_hoy", CRITICO, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT);
    private static final MethodHandle DT_GET_HOY = h("dt_get_hoy", CRITICO, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS);
    private static final MethodHandle DT_NEXT_U32 = h("dt_next_u32", CRITICO, JAVA_INT, ADDRESS, ADDRESS);
    private static final MethodHandle DT_STATE_SAVE = h("dt_state_save", CRITICO, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS);
    private static final MethodHandle DT_STATE_RESTORE = h("dt_state_restore", CRITICO, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG);
    private static final MethodHandle DT_DERIVE = h("dt_derive", CRITICO, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS);
    private static final MethodHandle DT_CALL_COUNT = h("dt_call_count", NORMAL, JAVA_LONG);
    private static final MethodHandle DT_CALL_AT = h("dt_call_at", NORMAL, ADDRESS, JAVA_LONG);
    private static final MethodHandle DT_CALL_CHECK = h("dt_call_check", CRITICO, JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS,
            JAVA_LONG, ADDRESS);
    private static final MethodHandle DT_CALL = h("dt_call", CRITICO, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS,
            JAVA_LONG, ADDRESS);
    private static final MethodHandle DT_CALL_MANY = h("dt_call_many", NORMAL, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG,
            JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS);
    private static final MethodHandle DT_PARAM_CHOICE = h("dt_param_choice", CRITICO, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS,
            JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS);
    private static final MethodHandle DT_UTIL_COUNT = h("dt_util_count", NORMAL, JAVA_LONG);
    private static final MethodHandle DT_UTIL_AT = h("dt_util_at", NORMAL, ADDRESS, JAVA_LONG);
    private static final MethodHandle DT_UTIL = h("dt_util", CRITICO, JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG,
            ADDRESS, JAVA_LONG, ADDRESS);
    private static final MethodHandle DT_REFERENCIA_COUNT = h("dt_referencia_count", NORMAL, JAVA_LONG);
    private static final MethodHandle DT_REFERENCIA_AT = h("dt_referencia_at", NORMAL, JAVA_INT, JAVA_LONG, ADDRESS);
    private static final MethodHandle DT_TABLA_NEW = h("dt_tabla_new", NORMAL, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG);
    private static final MethodHandle DT_TABLA_FREE = h("dt_tabla_free", NORMAL, null, ADDRESS);
    private static final MethodHandle DT_TABLA_COLUMNAS = h("dt_tabla_columnas", NORMAL, JAVA_LONG, ADDRESS);
    private static final MethodHandle DT_TABLA_COLUMNA = h("dt_tabla_columna", NORMAL, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS);
    private static final MethodHandle DT_TABLA_CAPACIDAD = h("dt_tabla_capacidad", NORMAL, JAVA_LONG, ADDRESS);
    private static final MethodHandle DT_TABLA_FILAS = h("dt_tabla_filas", NORMAL, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS,
            JAVA_LONG, ADDRESS);
    private static final MethodHandle DT_ESQUEMA_NEW = h("dt_esquema_new", NORMAL, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS,
            JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG);
    private static final MethodHandle DT_ESQUEMA_FREE = h("dt_esquema_free", NORMAL, null, ADDRESS);
    private static final MethodHandle DT_ESQUEMA_TABLAS = h("dt_esquema_tablas", NORMAL, JAVA_LONG, ADDRESS);
    private static final MethodHandle DT_ESQUEMA_TABLA = h("dt_esquema_tabla", NORMAL, ADDRESS, ADDRESS, JAVA_LONG);
    private static final MethodHandle DT_ESQUEMA_TABLA_FILAS = h("dt_esquema_tabla_filas", NORMAL, JAVA_LONG, ADDRESS, JAVA_LONG);
    private static final MethodHandle DT_ESQUEMA_FILAS = h("dt_esquema_filas", NORMAL, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG,
            JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS);

    /** A downcall threw: only a bug of the binding (a wrong descriptor) gets here. */
    private static Error roto(Throwable t) {
        if (t instanceof Error) {
            return (Error) t;
        }
        if (t instanceof RuntimeException) {
            throw (RuntimeException) t;
        }
        return new AssertionError("datoteca: FFM downcall failed", t);
    }

    private static MemorySegment p(long direccion) {
        return MemorySegment.ofAddress(direccion);
    }

    // Arrays for the critical functions: passed as they are (the heap is pinned for the call).
    private static MemorySegment a(byte[] b) {
        return b == null ? MemorySegment.NULL : MemorySegment.ofArray(b);
    }

    private static MemorySegment a(long[] b) {
        return b == null ? MemorySegment.NULL : MemorySegment.ofArray(b);
    }

    private static MemorySegment a(int[] b) {
        return b == null ? MemorySegment.NULL : MemorySegment.ofArray(b);
    }

    // Arrays for the other functions: copied into native memory of a confined arena.
    private static MemorySegment n(Arena arena, byte[] b) {
        return b == null ? MemorySegment.NULL : arena.allocateFrom(JAVA_BYTE, b);
    }

    private static MemorySegment n(Arena arena, long[] b) {
        return b == null ? MemorySegment.NULL : arena.allocateFrom(JAVA_LONG, b);
    }

    private static void devolver(MemorySegment s, long[] b) {
        if (b != null) {
            MemorySegment.copy(s, JAVA_LONG, 0, b, 0, b.length);
        }
    }

    private static void devolver(MemorySegment s, byte[] b) {
        if (b != null) {
            MemorySegment.copy(s, JAVA_BYTE, 0, b, 0, b.length);
        }
    }

    NativoFfm() {}

    @Override
    public String nombre() {
        return "ffm";
    }

    @Override
    public String dt_version() {
        try {
            return leerTexto(((MemorySegment) DT_VERSION.invokeExact()).address());
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public int dt_version_number() {
        try {
            return (int) DT_VERSION_NUMBER.invokeExact();
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public int dt_data_version() {
        try {
            return (int) DT_DATA_VERSION.invokeExact();
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public String dt_status_str(int status) {
        try {
            return leerTexto(((MemorySegment) DT_STATUS_STR.invokeExact(status)).address());
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public int dt_new(long seed, long[] out) {
        try {
            return (int) DT_NEW.invokeExact(seed, a(out));
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public int dt_new_str(byte[] seed, long len, long[] out) {
        try {
            return (int) DT_NEW_STR.invokeExact(a(seed), len, a(out));
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public void dt_free(long g) {
        try {
            DT_FREE.invokeExact(p(g));
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public int dt_set_hoy(long g, int anio, int mes, int dia) {
        try {
            return (int) DT_SET_HOY.invokeExact(p(g), anio, mes, dia);
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public int dt_get_hoy(long g, int[] anio, int[] mes, int[] dia) {
        try {
            return (int) DT_GET_HOY.invokeExact(p(g), a(anio), a(mes), a(dia));
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public int dt_next_u32(long g, int[] out) {
        try {
            return (int) DT_NEXT_U32.invokeExact(p(g), a(out));
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public int dt_state_save(long g, byte[] buf, long cap, long[] len) {
        try {
            return (int) DT_STATE_SAVE.invokeExact(p(g), a(buf), cap, a(len));
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public int dt_state_restore(long g, byte[] buf, long len) {
        try {
            return (int) DT_STATE_RESTORE.invokeExact(p(g), a(buf), len);
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public int dt_derive(long g, byte[] label, long len, long[] out) {
        try {
            return (int) DT_DERIVE.invokeExact(p(g), a(label), len, a(out));
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public long dt_call_count() {
        try {
            return (long) DT_CALL_COUNT.invokeExact();
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public long dt_call_at(long index) {
        try {
            return ((MemorySegment) DT_CALL_AT.invokeExact(index)).address();
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public int dt_call_check(long index, long[] args, long nargs, byte[] buf, long cap, long[] len) {
        try {
            return (int) DT_CALL_CHECK.invokeExact(index, a(args), nargs, a(buf), cap, a(len));
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public int dt_param_choice(long info, long param, byte[] name, long len, long[] value, byte[] buf, long cap, long[] outLen) {
        try {
            return (int) DT_PARAM_CHOICE.invokeExact(p(info), param, a(name), len, a(value), a(buf), cap, a(outLen));
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public long dt_util_count() {
        try {
            return (long) DT_UTIL_COUNT.invokeExact();
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public long dt_util_at(long index) {
        try {
            return ((MemorySegment) DT_UTIL_AT.invokeExact(index)).address();
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public int dt_util(long index, byte[] texto, long len, long[] args, long nargs, byte[] buf, long cap, long[] outLen) {
        try {
            return (int) DT_UTIL.invokeExact(index, a(texto), len, a(args), nargs, a(buf), cap, a(outLen));
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public long dt_referencia_count() {
        try {
            return (long) DT_REFERENCIA_COUNT.invokeExact();
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public int dt_referencia_at(long index, Bloque out) {
        try {
            return (int) DT_REFERENCIA_AT.invokeExact(index, s(out));
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public int dt_tabla_new(Bloque opciones, long[] out, byte[] why, long whycap) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment o = n(arena, out);
            MemorySegment w = n(arena, why);
            int st = (int) DT_TABLA_NEW.invokeExact(s(opciones), o, w, whycap);
            devolver(o, out);
            devolver(w, why);
            return st;
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public void dt_tabla_free(long t) {
        try {
            DT_TABLA_FREE.invokeExact(p(t));
        } catch (Throwable e) {
            throw roto(e);
        }
    }

    @Override
    public long dt_tabla_columnas(long t) {
        try {
            return (long) DT_TABLA_COLUMNAS.invokeExact(p(t));
        } catch (Throwable e) {
            throw roto(e);
        }
    }

    @Override
    public int dt_tabla_columna(long t, long j, Bloque out) {
        try {
            return (int) DT_TABLA_COLUMNA.invokeExact(p(t), j, s(out));
        } catch (Throwable e) {
            throw roto(e);
        }
    }

    @Override
    public long dt_tabla_capacidad(long t) {
        try {
            return (long) DT_TABLA_CAPACIDAD.invokeExact(p(t));
        } catch (Throwable e) {
            throw roto(e);
        }
    }

    @Override
    public int dt_tabla_filas(long t, long desde, long n, Bloque buf, long cap, long[] len) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment l = n(arena, len);
            int st = (int) DT_TABLA_FILAS.invokeExact(p(t), desde, n, s(buf), cap, l);
            devolver(l, len);
            return st;
        } catch (Throwable e) {
            throw roto(e);
        }
    }

    @Override
    public int dt_esquema_new(byte[] texto, long len, int formato, byte[] archivo, long seed, int anio, int mes, int dia, long[] out,
            byte[] why, long whycap) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment o = n(arena, out);
            MemorySegment w = n(arena, why);
            int st = (int) DT_ESQUEMA_NEW.invokeExact(n(arena, texto), len, formato, n(arena, archivo), seed, anio, mes, dia, o, w,
                    whycap);
            devolver(o, out);
            devolver(w, why);
            return st;
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public void dt_esquema_free(long e) {
        try {
            DT_ESQUEMA_FREE.invokeExact(p(e));
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public long dt_esquema_tablas(long e) {
        try {
            return (long) DT_ESQUEMA_TABLAS.invokeExact(p(e));
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public long dt_esquema_tabla(long e, long tabla) {
        try {
            return ((MemorySegment) DT_ESQUEMA_TABLA.invokeExact(p(e), tabla)).address();
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public long dt_esquema_tabla_filas(long e, long tabla) {
        try {
            return (long) DT_ESQUEMA_TABLA_FILAS.invokeExact(p(e), tabla);
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public int dt_esquema_filas(long e, long tabla, long desde, long n, Bloque buf, long cap, long[] len) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment l = n(arena, len);
            int st = (int) DT_ESQUEMA_FILAS.invokeExact(p(e), tabla, desde, n, s(buf), cap, l);
            devolver(l, len);
            return st;
        } catch (Throwable t) {
            throw roto(t);
        }
    }

    @Override
    public long leerLong(long direccion) {
        return TODO.get(LONG_U, direccion);
    }

    @Override
    public int leerInt(long direccion) {
        return TODO.get(INT_U, direccion);
    }

    @Override
    public String leerTexto(long direccion) {
        return direccion == 0 ? null : TODO.getString(direccion);
    }

    @Override
    public Bloque bloque(long tamano) {
        return new BloqueFfm(Arena.ofAuto().allocate(Math.max(tamano, 1), 8));
    }

    @Override
    public Canal canal() {
        return new CanalFfm();
    }

    private static MemorySegment s(Bloque b) {
        return b == null ? MemorySegment.NULL : ((BloqueFfm) b).s;
    }

    /** Native memory of an automatic arena (zeroed; freed by the garbage collector once unreachable). */
    private static final class BloqueFfm implements Bloque {
        final MemorySegment s;

        BloqueFfm(MemorySegment s) {
            this.s = s;
        }

        @Override public long direccion() { return s.address(); }
        @Override public void ponerLong(long offset, long v) { s.set(LONG_U, offset, v); }
        @Override public void ponerInt(long offset, int v) { s.set(INT_U, offset, v); }
        @Override public void escribir(long offset, byte[] b) { MemorySegment.copy(b, 0, s, JAVA_BYTE, offset, b.length); }
        @Override public long leerLong(long offset) { return s.get(LONG_U, offset); }
        @Override public int leerInt(long offset) { return s.get(INT_U, offset); }
        @Override public void leer(long offset, byte[] destino, int n) { MemorySegment.copy(s, JAVA_BYTE, offset, destino, 0, n); }
        @Override public String texto(long offset) { return s.getString(offset); }
    }

    /**
     * The single-value path: dt_call writes straight into this instance's byte[] (critical, heap
     * access), its length into a long[1], the arguments read from the long[] they were built in; the
     * heap segments are made once. The bulk path keeps a native buffer (dt_call_many is not critical:
     * a chunk may take milliseconds) and copies each chunk into a reused array.
     */
    private static final class CanalFfm implements Canal {
        private final byte[] buf = new byte[Constantes.MAX_TEXT];
        private final MemorySegment bufS = MemorySegment.ofArray(buf);
        private final long[] len = new long[1];
        private final MemorySegment lenS = MemorySegment.ofArray(len);
        private final MemorySegment lenN = Arena.ofAuto().allocate(JAVA_LONG);
        private MemorySegment grande;
        private byte[] copia = new byte[0];
        private byte[] datos = buf;
        private boolean fueGrande;
        private int n;

        @Override
        public int llamar(long g, long index, long[] args, int nargs) {
            int st;
            // a variable, not a conditional in the call: invokeExact would type that as Object
            MemorySegment a = a(args);
            try {
                st = (int) DT_CALL.invokeExact(MemorySegment.ofAddress(g), index, a, (long) nargs, bufS, (long) Constantes.MAX_TEXT, lenS);
            } catch (Throwable t) {
                throw roto(t);
            }
            fueGrande = false;
            datos = buf;
            n = (int) len[0];
            return st;
        }

        @Override
        public int muchos(long g, long index, long[] args, int nargs, int k) {
            long cap = (long) k * Constantes.MAX_TEXT + 1;
            if (grande == null || grande.byteSize() < cap) {
                grande = Arena.ofAuto().allocate(cap, 8);
            }
            fueGrande = true;
            int st;
            try (Arena arena = Arena.ofConfined()) {
                st = (int) DT_CALL_MANY.invokeExact(MemorySegment.ofAddress(g), index, n(arena, args), (long) nargs, (long) k, grande, cap,
                        lenN);
            } catch (Throwable t) {
                throw roto(t);
            }
            if (st == 0) {
                n = (int) lenN.get(JAVA_LONG, 0);
                if (copia.length < n) {
                    copia = new byte[n];
                }
                MemorySegment.copy(grande, JAVA_BYTE, 0, copia, 0, n);
                datos = copia;
            }
            return st;
        }

        @Override public byte[] datos() { return datos; }
        @Override public int largo() { return n; }

        @Override
        public String frase() {
            return fueGrande ? grande.getString(0) : Nucleo.texto(buf);
        }
    }
}
