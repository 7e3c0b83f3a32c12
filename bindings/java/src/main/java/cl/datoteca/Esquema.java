package cl.datoteca;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.Cleaner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * A whole relational test database from one TOML or JSON document (docs/esquemas.md), parsed and
 * checked only in C: every runtime accepts and refuses the same schemas with the same sentences.
 * Immutable and thread-safe once built.
 */
public final class Esquema implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();
    private static final int TOML = 1; // DT_ESQUEMA_TOML
    private static final int JSON = 2; // DT_ESQUEMA_JSON

    private static final class Estado implements Runnable {
        long e;

        Estado(long e) {
            this.e = e;
        }

        @Override
        public void run() {
            Nucleo.E.dt_esquema_free(e);
            e = 0;
        }
    }

    private final Estado estado;
    private final Cleaner.Cleanable limpieza;
    private final List<String> tablas = new ArrayList<>();

    /** The schema in a file (its extension, .json or else TOML, decides the format); sentences name the file. */
    public static Esquema desdeArchivo(Path archivo, long seed, LocalDate hoy) {
        byte[] texto;
        try {
            texto = Files.readAllBytes(archivo);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String nombre = archivo.getFileName().toString();
        return new Esquema(texto, nombre.endsWith(".json") ? JSON : TOML, nombre, seed, hoy);
    }

    /** A schema from its text: formato "toml" or "json"; sentences name it {@code <texto>}. */
    public static Esquema desdeTexto(String texto, String formato, long seed, LocalDate hoy) {
        if (!"toml".equals(formato) && !"json".equals(formato)) {
            throw new InvalidArgumentException("formato must be 'toml' or 'json', got '" + formato + "'");
        }
        return new Esquema(Nucleo.utf8(texto), "json".equals(formato) ? JSON : TOML, "<texto>", seed, hoy);
    }

    private Esquema(byte[] texto, int formato, String archivo, long seed, LocalDate hoy) {
        long[] out = new long[1];
        byte[] why = new byte[Constantes.SENTENCE_MAX];
        byte[] nombre = Nucleo.utf8(archivo + "\0");
        int y = hoy == null ? 0 : hoy.getYear();
        int m = hoy == null ? 0 : hoy.getMonthValue();
        int d = hoy == null ? 0 : hoy.getDayOfMonth();
        int st = Nucleo.E.dt_esquema_new(texto, texto.length, formato, nombre, seed, y, m, d, out, why, why.length);
        if (st != 0) {
            throw Nucleo.error(st, "Esquema()", Nucleo.texto(why));
        }
        estado = new Estado(out[0]);
        limpieza = CLEANER.register(this, estado);
        for (long i = 0, n = Nucleo.E.dt_esquema_tablas(out[0]); i < n; i++) {
            tablas.add(Nucleo.E.leerTexto(Nucleo.E.dt_esquema_tabla(out[0], i)));
        }
    }

    /** The tables, in declaration order. */
    public List<String> tablas() {
        return List.copyOf(tablas);
    }

    /** The rows of a table. */
    public long total(String tabla) {
        return Nucleo.E.dt_esquema_tabla_filas(estado.e, indice(tabla));
    }

    /** Rows [desde, desde + n) of a table as text (as {@link Tabla#texto}). */
    public String texto(String tabla, long desde, int n) {
        return Nucleo.filas(estado.e, indice(tabla), desde, n, "Esquema.filas()");
    }

    /** Rows [desde, desde + n) of a table: cells as text, a null as null. */
    public List<String[]> filas(String tabla, long desde, int n) {
        return Nucleo.celdas(texto(tabla, desde, n));
    }

    private int indice(String tabla) {
        int i = tablas.indexOf(tabla);
        if (i < 0) {
            throw new InvalidArgumentException("unknown table '" + tabla + "'; the tables are " + String.join(", ", tablas));
        }
        return i;
    }

    @Override
    public void close() {
        limpieza.clean();
    }
}
