package cl.datoteca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The data contract in Java, as tests/node/golden_runner.mjs: the golden sequence replayed through
 * this binding value by value (with the draws each took, counted here from the saved states by the
 * PCG32 jump-ahead, independently of the library), then byte for byte against fixtures/golden.json;
 * the table digests, the digests of the first 10,000 values of every call, of every dataset case and
 * of every shipped schema in fixtures/fingerprint.json. Nothing here writes a fixture.
 */
class ContratoTest {
    static final int VALUES_PER_CALL = 10000;
    static final int CHUNK = 1000;
    static final Map<String, Object> FP = Json.leer("fixtures/fingerprint.json");

    @SuppressWarnings("unchecked")
    static <T> T get(Object m, String k) {
        return (T) ((Map<String, Object>) m).get(k);
    }

    /** PCG32 steps from one saved state to another: the LCG's jump-ahead, bit by bit. */
    static long drawsBetween(byte[] before, byte[] after) {
        long cur = le64(before, 4);
        long plus = le64(before, 12);
        long target = le64(after, 4);
        long mult = 6364136223846793005L;
        long distance = 0;
        for (long bit = 1; cur != target; bit <<= 1) {
            if (((cur ^ target) & bit) != 0) {
                cur = cur * mult + plus;
                distance |= bit;
            }
            plus = (mult + 1) * plus;
            mult = mult * mult;
        }
        return distance;
    }

    static long le64(byte[] b, int off) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (b[off + i] & 0xff);
        }
        return v;
    }

    static Datoteca instancia(String seed, String hoy) {
        return new Datoteca(Long.parseUnsignedLong(seed)).hoy(hoy);
    }

    @Test
    void drawsBetweenCounts() {
        for (int k : new int[] {0, 1, 2, 3, 31, 1000, 65537}) {
            try (Datoteca d = new Datoteca(99)) {
                byte[] before = d.saveState();
                for (int i = 0; i < k; i++) {
                    d.nextU32();
                }
                assertEquals(k, drawsBetween(before, d.saveState()), "after " + k + " draws");
            }
        }
    }

    @Test
    void versions() {
        Map<String, Object> golden = Json.leer("fixtures/golden.json");
        long lib = Datoteca.dataVersion();
        assertEquals(lib, (long) (Long) golden.get("data_version"), "data version: golden.json vs the library");
        assertEquals(lib, (long) (Long) FP.get("data_version"), "data version: fingerprint.json vs the library");
    }

    @Test
    void tables() {
        List<Datoteca.Referencia> have = Datoteca.tablas();
        List<Object> want = get(FP, "tables");
        assertEquals(want.size(), have.size(), "fingerprint: number of tables");
        for (int i = 0; i < want.size(); i++) {
            Datoteca.Referencia h = have.get(i);
            Object w = want.get(i);
            assertEquals(get(w, "table"), h.nombre(), "fingerprint: table " + (i + 1));
            assertEquals((long) (Long) get(w, "rows"), h.filas(), "fingerprint: table " + h.nombre() + " rows");
            assertEquals(get(w, "digest"), h.digest(), "fingerprint: table " + h.nombre() + " digest");
        }
    }

    @Test
    void golden() throws Exception {
        Map<String, Object> seq = Json.leer("fixtures/golden-sequence.json");
        String text = Json.leerTexto("fixtures/golden.json");
        Map<String, Object> golden = Json.leer("fixtures/golden.json");
        String hoy = (String) seq.get("hoy");
        List<Object> calls = get(seq, "calls");
        List<Object> runs = new ArrayList<>();
        List<Object> wantRuns = get(golden, "runs");
        List<String> seeds = get(seq, "seeds");
        assertEquals(seeds.size(), wantRuns.size(), "golden: the fixture's seeds are not the sequence's");
        for (int r = 0; r < seeds.size(); r++) {
            String seed = seeds.get(r);
            assertEquals(seed, get(wantRuns.get(r), "seed"), "golden: run " + (r + 1) + "'s seed");
            List<Object> want = get(wantRuns.get(r), "values");
            List<Object> values = new ArrayList<>();
            try (Datoteca d = instancia(seed, hoy)) {
                byte[] before = d.saveState();
                for (int i = 0; i < calls.size(); i++) {
                    String call = get(calls.get(i), "call");
                    Map<String, Object> args = get(calls.get(i), "args");
                    Object value = Json.plano(d.call(call, args));
                    byte[] after = d.saveState();
                    long draws = drawsBetween(before, after);
                    before = after;
                    String where = "golden: seed " + seed + ", call " + (i + 1) + " of " + calls.size() + " (" + call + " " + Json.compacto(args) + ")";
                    assertEquals(get(want.get(i), "call"), call, where + ": the fixture has another call here");
                    assertEquals(Json.compacto(get(want.get(i), "value")), Json.compacto(value), where);
                    assertEquals((long) (Long) get(want.get(i), "draws"), draws, where + ": same value, other draws");
                    Map<String, Object> v = new LinkedHashMap<>();
                    v.put("call", call);
                    v.put("value", value);
                    v.put("draws", draws);
                    values.add(v);
                }
            }
            Map<String, Object> run = new LinkedHashMap<>();
            run.put("seed", seed);
            run.put("values", values);
            runs.add(run);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("data_version", (long) Datoteca.dataVersion());
        doc.put("hoy", hoy);
        doc.put("runs", runs);
        String mine = Json.bonito(doc);
        String out = System.getProperty("datoteca.golden.out");
        if (out != null && !out.isEmpty()) { // tools/golden_cross.sh compares every runtime's file
            Files.writeString(Path.of(out), mine, StandardCharsets.UTF_8);
        }
        if (!mine.equals(text)) {
            int k = 0;
            while (k < mine.length() && k < text.length() && mine.charAt(k) == text.charAt(k)) {
                k++;
            }
            fail("golden: the canonical form differs from fixtures/golden.json at character " + k + " although every value agrees");
        }
    }

    @Test
    void callDigests() {
        assertEquals((long) VALUES_PER_CALL, (long) (Long) FP.get("values_per_call"), "fingerprint: values_per_call");
        String hoy = (String) FP.get("hoy");
        List<String> failures = new ArrayList<>();
        for (Object entry : (List<Object>) get(FP, "calls")) {
            String call = get(entry, "call");
            Map<String, Object> args = get(entry, "args");
            for (Object r : (List<Object>) get(entry, "runs")) {
                String seed = get(r, "seed");
                try (Datoteca d = instancia(seed, hoy)) {
                    byte[] start = d.saveState();
                    List<Object> values = d.many(call, VALUES_PER_CALL, args);
                    StringBuilder sb = new StringBuilder();
                    for (Object v : values) {
                        sb.append(Json.compacto(Json.plano(v))).append('\n');
                    }
                    String sha = Json.sha256(sb.toString().getBytes(StandardCharsets.UTF_8));
                    long draws = drawsBetween(start, d.saveState());
                    String where = "fingerprint: seed " + seed + ", " + call + " " + Json.compacto(args);
                    if (!sha.equals(get(r, "sha256"))) {
                        failures.add(where + ": the first " + VALUES_PER_CALL + " values differ (sha256 " + sha.substring(0, 16) + "…)");
                    } else if (draws != (Long) get(r, "draws")) {
                        failures.add(where + ": same values, but " + draws + " draws instead of " + get(r, "draws"));
                    }
                }
            }
        }
        assertEquals(List.of(), failures);
    }

    static long fnv(byte[] b, long h) {
        for (byte x : b) {
            h ^= x & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** The first difference of one slice (its first row, else the first 1,000 rows whose running FNV-1a 64 differs), or null. */
    static String compare(String where, Object w, String rows) {
        long desde = (Long) get(w, "desde");
        long n = (Long) get(w, "n");
        String head = where + ", rows " + desde + ".." + (desde + n - 1);
        String[] lines = rows.split("\n", -1);
        String first = lines[0];
        if (!first.equals(get(w, "first_row"))) {
            return head + ": row " + desde + " differs: expected \"" + get(w, "first_row") + "\", got \"" + first + "\"";
        }
        List<String> every = get(w, "every_1000");
        long h = 0xcbf29ce484222325L;
        for (int k = 0, i = 0; k < n; k += CHUNK, i++) {
            StringBuilder sb = new StringBuilder();
            for (int j = k; j < Math.min(k + CHUNK, n); j++) {
                sb.append(lines[j]).append('\n');
            }
            h = fnv(sb.toString().getBytes(StandardCharsets.UTF_8), h);
            String hex = String.format("%016x", h);
            if (!hex.equals(every.get(i))) {
                return head + ": row " + desde + " agrees; the first difference is in rows " + (desde + k) + ".."
                        + (Math.min(desde + k + CHUNK, desde + n) - 1) + " (fnv1a64 up to there " + hex + ", expected " + every.get(i) + ")";
            }
        }
        return null;
    }

    @Test
    void datasets() {
        List<String> failures = new ArrayList<>();
        for (Object entry : (List<Object>) get(FP, "datasets")) {
            String call = get(entry, "call");
            Map<String, Object> options = get(entry, "options");
            String where = "dataset: " + call + " " + Json.compacto(options);
            try (Tabla t = new Tabla(call, options)) {
                Long cap = get(entry, "capacity");
                long want = cap == null ? 1L << 63 : cap;
                if (t.capacidad() != want) {
                    failures.add(where + ": capacity " + Long.toUnsignedString(t.capacidad()) + ", expected " + Long.toUnsignedString(want));
                    continue;
                }
                for (Object w : (List<Object>) get(entry, "slices")) {
                    String f = compare(where, w, t.texto((Long) get(w, "desde"), (int) (long) (Long) get(w, "n")));
                    if (f != null) {
                        failures.add(f);
                        break;
                    }
                }
            }
        }
        assertEquals(List.of(), failures);
    }

    @Test
    void esquemas() throws Exception {
        List<String> failures = new ArrayList<>();
        String hoy = (String) FP.get("hoy");
        for (Object entry : (List<Object>) get(FP, "esquemas")) {
            String name = get(entry, "esquema");
            long seed = (Long) get(entry, "seed");
            String where = "esquema: " + name + " (seed " + seed + ")";
            Path file = Json.ROOT.resolve("esquemas").resolve(name);
            String sha = Json.sha256(Files.readAllBytes(file));
            if (!sha.equals(get(entry, "sha256"))) {
                failures.add(where + ": the schema file changed (sha256 " + sha.substring(0, 16) + "…)");
            }
            try (Esquema e = Esquema.desdeArchivo(file, seed, java.time.LocalDate.parse(hoy))) {
                List<String> names = new ArrayList<>();
                for (Object t : (List<Object>) get(entry, "tablas")) {
                    names.add(get(t, "tabla"));
                }
                if (!e.tablas().equals(names)) {
                    failures.add(where + ": tables " + e.tablas() + ", expected " + names);
                    continue;
                }
                for (Object t : (List<Object>) get(entry, "tablas")) {
                    String tabla = get(t, "tabla");
                    if (e.total(tabla) != (Long) get(t, "filas")) {
                        failures.add(where + ", table " + tabla + ": " + e.total(tabla) + " rows, expected " + get(t, "filas"));
                        continue;
                    }
                    for (Object w : (List<Object>) get(t, "slices")) {
                        String f = compare(where + ", table " + tabla, w, e.texto(tabla, (Long) get(w, "desde"), (int) (long) (Long) get(w, "n")));
                        if (f != null) {
                            failures.add(f);
                            break;
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), failures);
    }
}
