package cl.datoteca;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The generic paths over the library's registries: a call by index through dt_call/dt_call_many, a
 * utility through dt_util, converting arguments (a Long, or a choice by its name through the
 * registry's list, an unknown name through dt_param_choice so the sentence is the library's) and
 * throwing the class of a status with the sentence the library wrote. Nothing here knows a range, a
 * default or a choice: those are read from the library. Everything here is immutable after class
 * initialisation and thread-safe.
 */
final class Nucleo {
    private Nucleo() {}

    /** The loader of this process (JNA or FFM). */
    static final Enlace E = Nativo.E;
    static final long ARG_DEFAULT = Long.MIN_VALUE; // DT_ARG_DEFAULT: the parameter takes its default, in C
    static final int DT_ERR_NULL = Constantes.ERR_NULL;
    static final int DT_ERR_INVALID_ARG = Constantes.ERR_INVALID_ARG;
    static final int DT_ERR_BUFFER_TOO_SMALL = Constantes.ERR_BUFFER_TOO_SMALL;
    static final int KIND_TEXT = Constantes.KINDS.indexOf("texto");
    static final int KIND_INT = Constantes.KINDS.indexOf("entero");
    static final int KIND_RECORD = Constantes.KINDS.indexOf("registro");
    static final int KIND_VALIDAR = Constantes.KINDS.indexOf("validar");

    /** One parameter of a call or utility, as the library describes it. */
    static final class Param {
        final int index;
        final String nombre;
        final Map<String, Long> opciones; // null for an integer parameter

        /** From the library's dt_param_info at {@code p}: name at 0, min at 16, max at 24, choices at 32. */
        Param(long p, int index) {
            this.index = index;
            this.nombre = E.leerTexto(E.leerLong(p));
            long min = E.leerLong(p + 16);
            long max = E.leerLong(p + 24);
            long choices = E.leerLong(p + 32);
            if (choices == 0) {
                opciones = null;
            } else {
                Map<String, Long> m = new LinkedHashMap<>();
                for (long i = 0; i <= max - min; i++) {
                    m.put(E.leerTexto(E.leerLong(choices + i * 8)), min + i);
                }
                opciones = Collections.unmodifiableMap(m);
            }
        }
    }

    /** One registered call (or utility): its index, kind, parameters, record fields and record builder. */
    static class Llamada {
        final long index;
        final long info;
        final String nombre;
        final int kind;
        final Param[] params;
        final String[] campos;
        final Function<String[], Registros.Registro> fabrica;

        /** From the library's dt_call_info at {@code info}: name at 0, kind at 8, params (count at 16,
         * array of 40-byte dt_param_info at 24), fields (count at 32, names at 40). */
        Llamada(long index, long info) {
            this.index = index;
            this.info = info;
            this.nombre = E.leerTexto(E.leerLong(info));
            this.kind = E.leerInt(info + 8);
            int np = (int) E.leerLong(info + 16);
            params = new Param[np];
            for (int i = 0; i < np; i++) {
                params[i] = new Param(E.leerLong(info + 24) + i * 40L, i);
            }
            int nf = (int) E.leerLong(info + 32);
            campos = new String[nf];
            for (int i = 0; i < nf; i++) {
                campos[i] = E.leerTexto(E.leerLong(E.leerLong(info + 40) + i * 8L));
            }
            fabrica = nf > 0 ? Registros.fabrica(nombre) : null;
        }

        /** A name the generated code knows but this library lacks: every use refuses it. */
        Llamada(String nombre) {
            this.index = -1;
            this.info = 0;
            this.nombre = nombre;
            this.kind = -1;
            this.params = new Param[0];
            this.campos = new String[0];
            this.fabrica = null;
        }

        Param param(String name) {
            for (Param p : params) {
                if (p.nombre.equals(name)) {
                    return p;
                }
            }
            return null;
        }

        /** A value of this call from bytes [from, to) of the library's UTF-8 output. Fields are split on
         * the bytes (DT_FIELD_SEP is ASCII, so never inside a character) and each decoded alone: most
         * are ASCII, which Java decodes fast, where one text with a single 'ñ' takes the slow path whole. */
        Object valor(byte[] b, int from, int to) {
            if (kind == KIND_RECORD) {
                String[] v = new String[campos.length];
                int k = 0;
                int start = from;
                for (int i = from; i < to && k < v.length - 1; i++) {
                    if (b[i] == (byte) Constantes.FIELD_SEP) {
                        v[k++] = new String(b, start, i - start, StandardCharsets.UTF_8);
                        start = i + 1;
                    }
                }
                v[k] = new String(b, start, to - start, StandardCharsets.UTF_8);
                return fabrica.apply(v);
            }
            return valor(new String(b, from, to - from, StandardCharsets.UTF_8));
        }

        /** A value of this call from its text. */
        Object valor(String text) {
            if (kind == KIND_RECORD) {
                return fabrica.apply(text.split(String.valueOf(Constantes.FIELD_SEP), -1));
            }
            if (kind == KIND_INT) {
                return Long.valueOf(text);
            }
            return text;
        }
    }

    /** A utility: a call of the utility registry. */
    static final class Utilidad extends Llamada {
        Utilidad(long index, long info) {
            super(index, info);
        }

        Utilidad(String nombre) {
            super(nombre);
        }
    }

    static final Map<String, Llamada> LLAMADAS;
    static final Map<String, Utilidad> UTILIDADES;

    static {
        Map<String, Llamada> m = new LinkedHashMap<>();
        for (long i = 0, n = E.dt_call_count(); i < n; i++) {
            Llamada l = new Llamada(i, E.dt_call_at(i));
            m.put(l.nombre, l);
        }
        LLAMADAS = Collections.unmodifiableMap(m);
        Map<String, Utilidad> u = new LinkedHashMap<>();
        for (long i = 0, n = E.dt_util_count(); i < n; i++) {
            Utilidad l = new Utilidad(i, E.dt_util_at(i));
            u.put(l.nombre, l);
        }
        UTILIDADES = Collections.unmodifiableMap(u);
    }

    static Llamada llamada(String nombre) {
        Llamada l = LLAMADAS.get(nombre);
        return l != null ? l : new Llamada(nombre);
    }

    static Utilidad utilidad(String nombre) {
        Utilidad u = UTILIDADES.get(nombre);
        return u != null ? u : new Utilidad(nombre);
    }

    /** A call by name, or the library's UnknownCallError sentence. */
    static Llamada buscar(Object nombre) {
        if (!(nombre instanceof String)) {
            throw Errores.tipo("call must be a String, got " + tipo(nombre));
        }
        Llamada l = LLAMADAS.get(nombre);
        if (l == null) {
            throw new UnknownCallException(String.format(Constantes.FRASE_UNKNOWN_CALL, nombre));
        }
        return l;
    }

    static UnknownCallException desconocida(Llamada l) {
        return new UnknownCallException(String.format(Constantes.FRASE_UNKNOWN_CALL, l.nombre));
    }

    // ---- text and statuses ---------------------------------------------------------------------

    static String texto(byte[] buf) {
        int n = 0;
        while (n < buf.length && buf[n] != 0) {
            n++;
        }
        return new String(buf, 0, n, StandardCharsets.UTF_8);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String tipo(Object o) {
        return o == null ? "null" : o.getClass().getSimpleName();
    }

    /** The exception for a non-zero status: the library's sentence when it wrote one, else `what: <status text>`. */
    static DatotecaException error(int status, String what, String sentence) {
        if (status == DT_ERR_NULL) {
            return new ClosedException(what + ": this Datoteca was closed", status);
        }
        String text = sentence == null || sentence.isEmpty()
                ? what + ": " + E.dt_status_str(status) : sentence;
        return Errores.de(status, text);
    }

    // ---- arguments -----------------------------------------------------------------------------

    /** Positional arguments (null = absent, a Number, an Opcion or a choice name) to C's int64_t array;
     * null when every one is absent. Every value is the library's to check. */
    static long[] argumentos(Llamada l, Object[] values) {
        if (values == null) {
            return null;
        }
        boolean todos = true;
        for (Object v : values) {
            todos &= v == null;
        }
        if (todos) {
            return null;
        }
        long[] out = new long[l.params.length];
        int oversize = -1;
        BigInteger given = null;
        for (int i = 0; i < out.length; i++) {
            Object v = i < values.length ? values[i] : null;
            Param p = l.params[i];
            if (v == null) {
                out[i] = ARG_DEFAULT;
            } else if (p.opciones != null) {
                String name = v instanceof Opciones.Opcion ? ((Opciones.Opcion) v).nombre() : v instanceof String ? (String) v : null;
                if (name == null) {
                    throw Errores.tipo(l.nombre + ": " + p.nombre + " must be one of " + String.join(", ", citadas(p))
                            + " or null, got " + tipo(v));
                }
                out[i] = opcion(l, p, name);
            } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
                out[i] = ((Number) v).longValue();
                if (out[i] == ARG_DEFAULT) { // C cannot see this one value: it means "absent"
                    oversize = oversize < 0 ? i : oversize;
                    given = given == null ? BigInteger.valueOf(out[i]) : given;
                    out[i] = ARG_DEFAULT + 1;
                }
            } else if (v instanceof BigInteger) {
                BigInteger b = (BigInteger) v;
                if (b.bitLength() < 64 && b.longValue() != ARG_DEFAULT) {
                    out[i] = b.longValue();
                } else {
                    oversize = oversize < 0 ? i : oversize;
                    given = given == null ? b : given;
                    out[i] = b.signum() > 0 ? Long.MAX_VALUE : ARG_DEFAULT + 1;
                }
            } else {
                throw Errores.tipo(l.nombre + ": " + p.nombre + " must be an integer, got " + tipo(v));
            }
        }
        if (oversize >= 0) {
            // Outside int64 C cannot see the value: the library explains the nearest one it can see,
            // and the sentence then names the value given.
            byte[] why = new byte[Constantes.SENTENCE_MAX];
            if (l instanceof Utilidad) {
                E.dt_util(l.index, null, 0, out, out.length, why, why.length, null);
            } else {
                E.dt_call_check(l.index, out, out.length, why, why.length, null);
            }
            String m = texto(why);
            String seen = "got " + out[oversize];
            if (m.endsWith(seen)) {
                m = m.substring(0, m.length() - seen.length()) + "got " + given;
            }
            throw new InvalidArgumentException(m, DT_ERR_INVALID_ARG);
        }
        return out;
    }

    private static List<String> citadas(Param p) {
        List<String> q = new ArrayList<>();
        for (String c : p.opciones.keySet()) {
            q.add("'" + c + "'");
        }
        return q;
    }

    private static long opcion(Llamada l, Param p, String name) {
        Long k = p.opciones.get(name);
        if (k != null) {
            return k;
        }
        byte[] data = utf8(name);
        long[] out = new long[1];
        byte[] why = new byte[Constantes.SENTENCE_MAX];
        int st = E.dt_param_choice(l.info, p.index, data, data.length, out, why, why.length, null);
        if (st != 0) {
            throw error(st, l.nombre, texto(why));
        }
        return out[0];
    }

    /** Arguments by name (a call's parameter names) to positions; an unknown name is refused. */
    static Object[] porNombre(Llamada l, Map<String, ?> args) {
        if (args == null || args.isEmpty()) {
            return null;
        }
        Object[] v = new Object[l.params.length];
        for (Map.Entry<String, ?> e : args.entrySet()) {
            Param p = l.param(e.getKey());
            if (p == null) {
                List<String> names = new ArrayList<>();
                for (Param q : l.params) {
                    names.add(q.nombre);
                }
                throw Errores.tipo(l.nombre + "() got an unexpected argument '" + e.getKey() + "'; it takes " + names);
            }
            v[p.index] = e.getValue();
        }
        return v;
    }

    // ---- utilities -----------------------------------------------------------------------------

    /** Run a utility: a Boolean for a validar utility, else its text or the library's sentence. */
    static Object util(Utilidad u, String textoNombre, String texto, Object[] values) {
        if (u.index < 0) {
            throw desconocida(u);
        }
        byte[] data = new byte[0];
        if (textoNombre != null) {
            if (texto == null) {
                throw Errores.tipo(u.nombre + ": " + textoNombre + " must be a String, got null");
            }
            data = utf8(texto);
        }
        long[] args = argumentos(u, values);
        byte[] buf = new byte[Constantes.SENTENCE_MAX];
        long[] len = new long[1];
        int st = E.dt_util(u.index, data, data.length, args, args == null ? 0 : args.length, buf, buf.length, len);
        if (u.kind == KIND_VALIDAR && st != DT_ERR_NULL) {
            return st == 0;
        }
        if (st != 0) {
            throw error(st, u.nombre, texto(buf));
        }
        return new String(buf, 0, (int) len[0], StandardCharsets.UTF_8);
    }

    // ---- rows of a dataset or of a schema's table --------------------------------------------

    /** Rows [desde, desde + n) of a dataset (tabla &lt; 0) or of table {@code tabla} of a schema, as text. */
    static String filas(long h, long tabla, long desde, int n, String what) {
        if (n < 0) {
            throw new InvalidArgumentException("n must be from 0 to " + Constantes.N_MAX + ", got " + n);
        }
        if (n == 0) {
            return "";
        }
        long[] len = new long[1];
        long cap = (long) n * Constantes.MAX_TEXT + 1; // DT_CALL_MANY_BOUND(n): enough for a dataset; a schema row may ask for more
        for (int intento = 0; intento < 2; intento++) {
            Enlace.Bloque m = E.bloque(cap);
            int st = tabla < 0 ? E.dt_tabla_filas(h, desde, n, m, cap, len) : E.dt_esquema_filas(h, tabla, desde, n, m, cap, len);
            if (st == DT_ERR_BUFFER_TOO_SMALL && intento == 0) {
                cap = len[0];
                continue;
            }
            if (st != 0) {
                throw error(st, what, m.texto(0));
            }
            byte[] b = new byte[(int) len[0]];
            m.leer(0, b, b.length);
            return new String(b, StandardCharsets.UTF_8);
        }
        throw new IllegalStateException(what + ": the library asked for a larger buffer twice");
    }

    /** Rows' text to cells: a null (DT_NULO) as null. */
    static List<String[]> celdas(String text) {
        List<String[]> out = new ArrayList<>();
        String sep = String.valueOf(Constantes.FIELD_SEP);
        String nulo = String.valueOf(Constantes.NULO);
        int from = 0;
        while (from < text.length()) {
            int to = text.indexOf('\n', from);
            String[] row = text.substring(from, to).split(sep, -1);
            for (int i = 0; i < row.length; i++) {
                if (row[i].equals(nulo)) {
                    row[i] = null;
                }
            }
            out.add(row);
            from = to + 1;
        }
        return out;
    }

    // ---- seeds and dates -----------------------------------------------------------------------

    /** A base seed as the CLI and the other runtimes' helpers take it: decimal or 0x-hex, in [0, 2^64). */
    static long semillaBase(String text) {
        String t = text.trim();
        BigInteger v;
        try {
            v = t.regionMatches(true, 0, "0x", 0, 2) ? new BigInteger(t.substring(2), 16) : new BigInteger(t, 10);
        } catch (NumberFormatException e) {
            throw new InvalidArgumentException("must be an integer in [0, 2**64) (decimal or 0x-hexadecimal), got '" + text + "'");
        }
        if (v.signum() < 0 || v.bitLength() > 64) {
            throw new InvalidArgumentException("must be an integer in [0, 2**64) (decimal or 0x-hexadecimal), got '" + text + "'");
        }
        return v.longValue();
    }
}
