package cl.datoteca;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * libdatoteca through JNA direct mapping (static natives: no proxy, no reflection per call), the
 * loader on Java 17 and 21 (and wherever {@code -Ddatoteca.ffi=jna} asks for it). Pointers the
 * library returns are kept as {@code long}: a pointer and a size_t are 64-bit on every platform the
 * binding runs on.
 */
final class NativoJna implements Enlace {
    /** The natives, registered when the JNA loader is chosen (never touched on the FFM path). */
    static final class C {
        private C() {}

        static {
            Native.register(C.class, NativeLibrary.getInstance(Ruta.RUTA));
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
        static native long dt_esquema_tabla(long e, long tabla);
        static native long dt_esquema_tabla_filas(long e, long tabla);
        static native int dt_esquema_filas(long e, long tabla, long desde, long n, Pointer buf, long cap, long[] len);
    }

    NativoJna() {
        C.dt_version_number(); // registers the natives now, so a load failure is the loader's
    }

    @Override public String nombre() { return "jna"; }
    @Override public String dt_version() { return C.dt_version().getString(0, "UTF-8"); }
    @Override public int dt_version_number() { return C.dt_version_number(); }
    @Override public int dt_data_version() { return C.dt_data_version(); }
    @Override public String dt_status_str(int status) { return C.dt_status_str(status).getString(0, "UTF-8"); }
    @Override public int dt_new(long seed, long[] out) { return C.dt_new(seed, out); }
    @Override public int dt_new_str(byte[] seed, long len, long[] out) { return C.dt_new_str(seed, len, out); }
    @Override public void dt_free(long g) { C.dt_free(g); }
    @Override public int dt_set_hoy(long g, int anio, int mes, int dia) { return C.dt_set_hoy(g, anio, mes, dia); }
    @Override public int dt_get_hoy(long g, int[] anio, int[] mes, int[] dia) { return C.dt_get_hoy(g, anio, mes, dia); }
    @Override public int dt_next_u32(long g, int[] out) { return C.dt_next_u32(g, out); }
    @Override public int dt_state_save(long g, byte[] buf, long cap, long[] len) { return C.dt_state_save(g, buf, cap, len); }
    @Override public int dt_state_restore(long g, byte[] buf, long len) { return C.dt_state_restore(g, buf, len); }
    @Override public int dt_derive(long g, byte[] label, long len, long[] out) { return C.dt_derive(g, label, len, out); }
    @Override public long dt_call_count() { return C.dt_call_count(); }
    @Override public long dt_call_at(long index) { return C.dt_call_at(index); }

    @Override
    public int dt_call_check(long index, long[] args, long nargs, byte[] buf, long cap, long[] len) {
        return C.dt_call_check(index, args, nargs, buf, cap, len);
    }

    @Override
    public int dt_param_choice(long info, long param, byte[] name, long len, long[] value, byte[] buf, long cap, long[] outLen) {
        return C.dt_param_choice(info, param, name, len, value, buf, cap, outLen);
    }

    @Override public long dt_util_count() { return C.dt_util_count(); }
    @Override public long dt_util_at(long index) { return C.dt_util_at(index); }

    @Override
    public int dt_util(long index, byte[] texto, long len, long[] args, long nargs, byte[] buf, long cap, long[] outLen) {
        return C.dt_util(index, texto, len, args, nargs, buf, cap, outLen);
    }

    @Override public long dt_referencia_count() { return C.dt_referencia_count(); }
    @Override public int dt_referencia_at(long index, Bloque out) { return C.dt_referencia_at(index, m(out)); }
    @Override public int dt_tabla_new(Bloque o, long[] out, byte[] why, long whycap) { return C.dt_tabla_new(m(o), out, why, whycap); }
    @Override public void dt_tabla_free(long t) { C.dt_tabla_free(t); }
    @Override public long dt_tabla_columnas(long t) { return C.dt_tabla_columnas(t); }
    @Override public int dt_tabla_columna(long t, long j, Bloque out) { return C.dt_tabla_columna(t, j, m(out)); }
    @Override public long dt_tabla_capacidad(long t) { return C.dt_tabla_capacidad(t); }

    @Override
    public int dt_tabla_filas(long t, long desde, long n, Bloque buf, long cap, long[] len) {
        return C.dt_tabla_filas(t, desde, n, m(buf), cap, len);
    }

    @Override
    public int dt_esquema_new(byte[] texto, long len, int formato, byte[] archivo, long seed, int anio, int mes, int dia, long[] out,
            byte[] why, long whycap) {
        return C.dt_esquema_new(texto, len, formato, archivo, seed, anio, mes, dia, out, why, whycap);
    }

    @Override public void dt_esquema_free(long e) { C.dt_esquema_free(e); }
    @Override public long dt_esquema_tablas(long e) { return C.dt_esquema_tablas(e); }
    @Override public long dt_esquema_tabla(long e, long tabla) { return C.dt_esquema_tabla(e, tabla); }
    @Override public long dt_esquema_tabla_filas(long e, long tabla) { return C.dt_esquema_tabla_filas(e, tabla); }

    @Override
    public int dt_esquema_filas(long e, long tabla, long desde, long n, Bloque buf, long cap, long[] len) {
        return C.dt_esquema_filas(e, tabla, desde, n, m(buf), cap, len);
    }

    @Override public long leerLong(long direccion) { return new Pointer(direccion).getLong(0); }
    @Override public int leerInt(long direccion) { return new Pointer(direccion).getInt(0); }

    @Override
    public String leerTexto(long direccion) {
        return direccion == 0 ? null : new Pointer(direccion).getString(0, "UTF-8");
    }

    @Override
    public Bloque bloque(long tamano) {
        return new BloqueJna(tamano);
    }

    @Override
    public Canal canal() {
        return new CanalJna();
    }

    private static Memory m(Bloque b) {
        return b == null ? null : ((BloqueJna) b).m;
    }

    private static final class BloqueJna implements Bloque {
        final Memory m;

        BloqueJna(long tamano) {
            m = new Memory(Math.max(tamano, 1));
            m.clear();
        }

        @Override public long direccion() { return Pointer.nativeValue(m); }
        @Override public void ponerLong(long offset, long v) { m.setLong(offset, v); }
        @Override public void ponerInt(long offset, int v) { m.setInt(offset, v); }
        @Override public void escribir(long offset, byte[] b) { m.write(offset, b, 0, b.length); }
        @Override public long leerLong(long offset) { return m.getLong(offset); }
        @Override public int leerInt(long offset) { return m.getInt(offset); }
        @Override public void leer(long offset, byte[] destino, int n) { m.read(offset, destino, 0, n); }
        @Override public String texto(long offset) { return m.getString(offset, "UTF-8"); }
    }

    /** Native buffers made once per instance; the value is copied into a reused array. */
    private static final class CanalJna implements Canal {
        private final Memory buf = new Memory(Constantes.MAX_TEXT);
        private final Memory largo = new Memory(8);
        private final Memory argumentos = new Memory(8L * Constantes.MAX_PARAMS);
        private final long[] len = new long[1];
        private byte[] datos = new byte[Constantes.MAX_TEXT];
        private Memory grande;
        private boolean fueGrande;
        private int n;

        @Override
        public int llamar(long g, long index, long[] args, int nargs) {
            Memory a = null;
            if (args != null) {
                a = argumentos;
                a.write(0, args, 0, nargs);
            }
            fueGrande = false;
            int st = C.dt_call(g, index, a, nargs, buf, Constantes.MAX_TEXT, largo);
            if (st == 0) {
                n = (int) largo.getLong(0);
                buf.read(0, datos, 0, n);
            }
            return st;
        }

        @Override
        public int muchos(long g, long index, long[] args, int nargs, int k) {
            long cap = (long) k * Constantes.MAX_TEXT + 1;
            if (grande == null || grande.size() < cap) {
                grande = new Memory(Math.max(cap, 1));
            }
            fueGrande = true;
            int st = C.dt_call_many(g, index, args, nargs, k, grande, cap, len);
            if (st == 0) {
                n = (int) len[0];
                if (datos.length < n) {
                    datos = new byte[Math.max(n, 2 * datos.length)];
                }
                grande.read(0, datos, 0, n);
            }
            return st;
        }

        @Override public byte[] datos() { return datos; }
        @Override public int largo() { return n; }
        @Override public String frase() { return (fueGrande ? grande : buf).getString(0, "UTF-8"); }
    }
}
