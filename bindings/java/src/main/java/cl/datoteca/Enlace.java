package cl.datoteca;

/**
 * The C functions the binding calls, one method per function with the C name, in types both loaders
 * can pass without a per-call object: a handle or a pointer the library returns is a {@code long},
 * memory the binding passes is a Java array (the library reads or writes it during the call only) or
 * a {@link Bloque} (native memory that must outlive one call). Two implementations: {@code NativoJna}
 * (JNA direct mapping, every JDK from 17) and {@code NativoFfm} (java.lang.foreign, compiled only for
 * Java 22+, in the jar's META-INF/versions/22); {@link Nativo} chooses one per process.
 */
interface Enlace {
    /** "ffm" or "jna". */
    String nombre();

    String dt_version();
    int dt_version_number();
    int dt_data_version();
    String dt_status_str(int status);

    int dt_new(long seed, long[] out);
    int dt_new_str(byte[] seed, long len, long[] out);
    void dt_free(long g);
    int dt_set_hoy(long g, int anio, int mes, int dia);
    int dt_get_hoy(long g, int[] anio, int[] mes, int[] dia);
    int dt_next_u32(long g, int[] out);
    /** {@code len} may be null. */
    int dt_state_save(long g, byte[] buf, long cap, long[] len);
    int dt_state_restore(long g, byte[] buf, long len);
    int dt_derive(long g, byte[] label, long len, long[] out);

    long dt_call_count();
    long dt_call_at(long index);
    /** {@code len} may be null. */
    int dt_call_check(long index, long[] args, long nargs, byte[] buf, long cap, long[] len);
    /** {@code outLen} may be null. */
    int dt_param_choice(long info, long param, byte[] name, long len, long[] value, byte[] buf, long cap, long[] outLen);
    long dt_util_count();
    long dt_util_at(long index);
    /** {@code texto}, {@code args} and {@code outLen} may be null. */
    int dt_util(long index, byte[] texto, long len, long[] args, long nargs, byte[] buf, long cap, long[] outLen);
    long dt_referencia_count();
    int dt_referencia_at(long index, Bloque out);

    int dt_tabla_new(Bloque opciones, long[] out, byte[] why, long whycap);
    void dt_tabla_free(long t);
    long dt_tabla_columnas(long t);
    int dt_tabla_columna(long t, long j, Bloque out);
    long dt_tabla_capacidad(long t);
    int dt_tabla_filas(long t, long desde, long n, Bloque buf, long cap, long[] len);
    int dt_esquema_new(byte[] texto, long len, int formato, byte[] archivo, long seed, int anio, int mes, int dia, long[] out,
            byte[] why, long whycap);
    void dt_esquema_free(long e);
    long dt_esquema_tablas(long e);
    long dt_esquema_tabla(long e, long tabla);
    long dt_esquema_tabla_filas(long e, long tabla);
    int dt_esquema_filas(long e, long tabla, long desde, long n, Bloque buf, long cap, long[] len);

    /** A 64-bit value at an address the library gave (its registries are static storage). */
    long leerLong(long direccion);

    /** A 32-bit value at an address the library gave. */
    int leerInt(long direccion);

    /** The NUL-terminated UTF-8 text at an address the library gave; null for 0. */
    String leerTexto(long direccion);

    /** {@code tamano} bytes of zeroed native memory, freed once unreachable. */
    Bloque bloque(long tamano);

    /** The buffers of one {@link Datoteca}'s calls. */
    Canal canal();

    /** Native memory the binding fills or reads around a call (a struct, a large output). */
    interface Bloque {
        long direccion();

        void ponerLong(long offset, long v);

        void ponerInt(long offset, int v);

        /** The bytes of {@code b} at {@code offset}. */
        void escribir(long offset, byte[] b);

        long leerLong(long offset);

        int leerInt(long offset);

        /** {@code n} bytes from {@code offset} into {@code destino} (from 0). */
        void leer(long offset, byte[] destino, int n);

        /** The NUL-terminated UTF-8 text at {@code offset}. */
        String texto(long offset);
    }

    /**
     * One instance's single-value path (dt_call) and bulk path (dt_call_many), over buffers made once
     * and reused by every call: no allocation per call but the value's own bytes. Not thread-safe,
     * as the {@link Datoteca} that owns it.
     */
    interface Canal {
        /** dt_call into the buffer; the status. On 0 the value is {@code datos()[0, largo())}; else {@link #frase()}. */
        int llamar(long g, long index, long[] args, int nargs);

        /** dt_call_many of {@code n} values, each ending in '\n'; the status. */
        int muchos(long g, long index, long[] args, int nargs, int n);

        /** The bytes of the last call's output (the array is reused: valid until the next call). */
        byte[] datos();

        /** The length of the last call's output. */
        int largo();

        /** The library's sentence after a failed call. */
        String frase();
    }
}
