package cl.datoteca;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The tests' JSON: Gson reads (integers as Long, objects in order); the canonical form the fixtures use is written here. */
final class Json {
    private Json() {}

    static final Path ROOT = Path.of(System.getProperty("datoteca.root", "../..")).toAbsolutePath().normalize();

    static String leerTexto(String rel) {
        try {
            return Files.readString(ROOT.resolve(rel), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> leer(String rel) {
        return (Map<String, Object>) valor(JsonParser.parseString(leerTexto(rel)));
    }

    static Object valor(JsonElement e) {
        if (e == null || e.isJsonNull()) {
            return null;
        }
        if (e.isJsonObject()) {
            Map<String, Object> m = new LinkedHashMap<>();
            e.getAsJsonObject().entrySet().forEach(x -> m.put(x.getKey(), valor(x.getValue())));
            return m;
        }
        if (e.isJsonArray()) {
            List<Object> l = new ArrayList<>();
            e.getAsJsonArray().forEach(x -> l.add(valor(x)));
            return l;
        }
        if (e.getAsJsonPrimitive().isNumber()) {
            BigDecimal d = e.getAsBigDecimal();
            return d.scale() <= 0 || d.stripTrailingZeros().scale() <= 0 ? (Object) d.longValueExact() : d;
        }
        if (e.getAsJsonPrimitive().isBoolean()) {
            return e.getAsBoolean();
        }
        return e.getAsString();
    }

    /** JSON.stringify's (and json.dumps(ensure_ascii=False)'s) string form. */
    static void cadena(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\t': sb.append("\\t"); break;
                case '\b': sb.append("\\b"); break;
                case '\f': sb.append("\\f"); break;
                default:
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }

    /** JSON.stringify(v, null, 2) when indent is 0 and pretty, or JSON.stringify(v) when not pretty. */
    static void escribir(StringBuilder sb, Object v, String indent, boolean pretty) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String) {
            cadena(sb, (String) v);
        } else if (v instanceof Number || v instanceof Boolean) {
            sb.append(v);
        } else if (v instanceof Map) {
            Map<?, ?> m = (Map<?, ?>) v;
            if (m.isEmpty()) {
                sb.append("{}");
                return;
            }
            String in = indent + "  ";
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                sb.append(first ? "" : ",");
                first = false;
                if (pretty) {
                    sb.append('\n').append(in);
                }
                cadena(sb, (String) e.getKey());
                sb.append(pretty ? ": " : ":");
                escribir(sb, e.getValue(), in, pretty);
            }
            if (pretty) {
                sb.append('\n').append(indent);
            }
            sb.append('}');
        } else if (v instanceof List) {
            List<?> l = (List<?>) v;
            if (l.isEmpty()) {
                sb.append("[]");
                return;
            }
            String in = indent + "  ";
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                sb.append(i == 0 ? "" : ",");
                if (pretty) {
                    sb.append('\n').append(in);
                }
                escribir(sb, l.get(i), in, pretty);
            }
            if (pretty) {
                sb.append('\n').append(indent);
            }
            sb.append(']');
        } else {
            throw new IllegalArgumentException("no JSON form for " + v.getClass());
        }
    }

    static String compacto(Object v) {
        StringBuilder sb = new StringBuilder();
        escribir(sb, v, "", false);
        return sb.toString();
    }

    static String bonito(Object v) {
        StringBuilder sb = new StringBuilder();
        escribir(sb, v, "", true);
        return sb.append('\n').toString();
    }

    /** The fixtures' form of a value: integers (a call's, or a record's integer fields) as decimal strings. */
    static Object plano(Object v) {
        if (v instanceof Registros.Registro) {
            Map<String, Object> m = new LinkedHashMap<>();
            ((Registros.Registro) v).campos().forEach((k, x) -> m.put(k, x instanceof Long ? x.toString() : x));
            return m;
        }
        return v instanceof Long ? v.toString() : v;
    }

    static String sha256(byte[] b) {
        try {
            StringBuilder sb = new StringBuilder();
            for (byte x : MessageDigest.getInstance("SHA-256").digest(b)) {
                sb.append(String.format("%02x", x));
            }
            return sb.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
