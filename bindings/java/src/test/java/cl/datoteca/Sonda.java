package cl.datoteca;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;

/**
 * Run in a JVM of its own by {@link CargadorTest}: prints the loader it got and a digest of values
 * through every path a loader implements (each call one at a time and in bulk, a dataset, a
 * schema, a utility, the stream and its state), or the error loading gave.
 */
public final class Sonda {
    private Sonda() {}

    public static void main(String[] args) throws Exception {
        try {
            System.out.println("loader " + Datoteca.loader());
            System.out.println("digest " + huella());
        } catch (Throwable t) {
            System.out.println("error " + t.getMessage());
            System.exit(3);
        }
    }

    /** sha256 of what every native path gives for fixed seeds: the same bytes whatever the loader. */
    static String huella() throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        StringBuilder s = new StringBuilder();
        for (String nombre : Nucleo.LLAMADAS.keySet()) {
            try (Datoteca d = new Datoteca(42).hoy("2026-01-01")) {
                for (int i = 0; i < 50; i++) {
                    s.append(d.call(nombre)).append('\n');
                }
                s.append(d.many(nombre, 50, null)).append('\n');
                s.append(d.nextU32()).append(HexFormat.of().formatHex(d.saveState())).append('\n');
            }
        }
        try (Datoteca d = new Datoteca("sonda"); Datoteca hijo = d.derive("hijo")) {
            s.append(hijo.persona.persona()).append(d.hoy()).append('\n');
            try {
                d.call("persona.persona", Map.of("edad_min", 200));
            } catch (DatotecaException e) {
                s.append(e.errorName()).append(e.getMessage()).append('\n');
            }
        }
        try (Tabla t = new Tabla("persona.persona", Map.of("seed", 7, "unico", java.util.List.of("rut")))) {
            s.append(t.columnas()).append(t.capacidad()).append(t.texto(1000, 50));
        }
        try (Esquema e = Esquema.desdeArchivo(Json.ROOT.resolve("esquemas/retail.toml"), 42, null)) {
            for (String tabla : e.tablas()) {
                s.append(tabla).append(e.total(tabla)).append(e.texto(tabla, 0, 20));
            }
        }
        s.append(Utilidades.validarRut("60.803.000-k")).append(Utilidades.formatearRut("60803000K", Opciones.FormatoRut.GUION));
        s.append(Datoteca.tablas());
        return HexFormat.of().formatHex(md.digest(s.toString().getBytes(StandardCharsets.UTF_8)));
    }
}
