package cl.datoteca.bench;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.IntConsumer;
import net.datafaker.Faker;

/**
 * datoteca vs Datafaker (its es locale: it has no Chilean one), measured in the same run, interleaved,
 * medians of several repetitions after a warm-up, one call at a time and in bulk. On Java 22+ datoteca
 * runs twice in this JVM, through FFM and through JNA, each loaded by a class loader of its own
 * ({@link Lado}); on 17 and 21 through JNA only. Prints a Markdown table: µs per value and Datafaker /
 * datoteca per loader. Not a test: nothing asserts a time.
 */
public final class Bench {
    private Bench() {}

    static volatile Object sink;

    static double perCall(Runnable f, int n) {
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            f.run();
        }
        return (System.nanoTime() - t0) / 1000.0 / n;
    }

    static double perValue(IntConsumer f, int n) {
        long t0 = System.nanoTime();
        f.accept(n);
        return (System.nanoTime() - t0) / 1000.0 / n;
    }

    /** Calls (or values) that fill a window of {@code ventana} µs at {@code porLlamada} µs each. */
    static int calibrar(double porLlamada, double ventana) {
        return (int) Math.max(200, Math.min(5_000_000, ventana / porLlamada));
    }

    /** DT_CHUNK: the bulk path's values per crossing; a bulk window holds at least one chunk. */
    static final int CHUNK = 2048;

    static double median(List<Double> a) {
        List<Double> s = new ArrayList<>(a);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }

    /** One loader's side: the binding loaded afresh with -Ddatoteca.ffi=ffi. */
    record Cargado(String ffi, String loader, String version, Map<String, Runnable> simples, Map<String, IntConsumer> lotes) {}

    @SuppressWarnings("unchecked")
    static Cargado cargar(String ffi) throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            urls.add(Path.of(e).toUri().toURL());
        }
        ClassLoader cl = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
        String antes = System.getProperty("datoteca.ffi");
        System.setProperty("datoteca.ffi", ffi); // read once, when this loader's binding initialises (below)
        try {
            Class<?> c = Class.forName("cl.datoteca.bench.Lado", true, cl);
            Method loader = c.getMethod("loader");
            Method version = c.getMethod("version");
            Method simples = c.getMethod("simples", long.class);
            Method lotes = c.getMethod("lotes", long.class);
            return new Cargado(ffi, (String) loader.invoke(null), (String) version.invoke(null),
                    (Map<String, Runnable>) simples.invoke(null, 42L), (Map<String, IntConsumer>) lotes.invoke(null, 42L));
        } finally {
            if (antes == null) {
                System.clearProperty("datoteca.ffi");
            } else {
                System.setProperty("datoteca.ffi", antes);
            }
        }
    }

    static String carga() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (Exception e) {
            return "unknown";
        }
    }

    public static void main(String[] args) throws Exception {
        boolean quick = List.of(args).contains("--quick") || List.of(args).contains("quick");
        int reps = quick ? 7 : 21;
        double ventana = quick ? 10_000 : 25_000; // µs per timed window, every side alike
        String inicio = carga();
        List<Cargado> lados = new ArrayList<>();
        if (Runtime.version().feature() >= 22) {
            lados.add(cargar("ffm"));
        }
        lados.add(cargar("jna"));
        for (Cargado c : lados) {
            if (!c.loader().equals(c.ffi())) {
                throw new IllegalStateException("asked for the " + c.ffi() + " loader, got " + c.loader());
            }
        }
        Faker f = new Faker(Locale.forLanguageTag("es"), new Random(42));
        Runnable persona4 = () -> sink = Map.of("name", f.name().fullName(), "address", f.address().streetAddress(),
                "phone", f.phoneNumber().cellPhone(), "email", f.internet().emailAddress());
        // row key (Lado's) -> label, Datafaker's nearest call (null: none)
        Map<String, Object[]> filas = new LinkedHashMap<>();
        filas.put("rut", new Object[] {"rut / idNumber().valid() (Datafaker has no Chilean RUT; its es valid() is SSN-shaped, 275-79-4940)",
                (Runnable) () -> sink = f.idNumber().valid()});
        filas.put("nombre completo", new Object[] {"nombre completo / name().fullName()", (Runnable) () -> sink = f.name().fullName()});
        filas.put("dirección record", new Object[] {"dirección record (13 fields) / address().streetAddress()",
                (Runnable) () -> sink = f.address().streetAddress()});
        filas.put("calle", new Object[] {"calle / address().streetName()", (Runnable) () -> sink = f.address().streetName()});
        filas.put("teléfono", new Object[] {"teléfono / phoneNumber().cellPhone()", (Runnable) () -> sink = f.phoneNumber().cellPhone()});
        filas.put("email", new Object[] {"email / internet().emailAddress()", (Runnable) () -> sink = f.internet().emailAddress()});
        filas.put("empresa (razón social)", new Object[] {"empresa razón social / company().name()", (Runnable) () -> sink = f.company().name()});
        filas.put("empresa (nombre)", new Object[] {"empresa nombre / company().name()", (Runnable) () -> sink = f.company().name()});
        filas.put("persona record", new Object[] {"persona record (14 fields; Datafaker: 4 calls)", persona4});
        // warm-up: let the JIT compile every side before anything is timed
        for (String k : filas.keySet()) {
            for (Cargado c : lados) {
                perCall(c.simples().get(k), 50000);
            }
            perCall((Runnable) filas.get(k)[1], 5000);
        }
        for (Cargado c : lados) {
            c.lotes().values().forEach(l -> perValue(l, 50000));
        }
        // Every side is timed over windows of the same length (calls per window calibrated now), so a
        // loaded machine's preemptions fall on each side alike; sides alternate within each round.
        Map<String, Integer> calls = new LinkedHashMap<>();
        for (String k : filas.keySet()) {
            for (Cargado c : lados) {
                calls.put(c.ffi() + " " + k, calibrar(perCall(c.simples().get(k), 20000), ventana));
            }
            calls.put("faker " + k, calibrar(perCall((Runnable) filas.get(k)[1], 2000), ventana));
        }
        for (Cargado c : lados) {
            for (Map.Entry<String, IntConsumer> l : c.lotes().entrySet()) {
                calls.put(c.ffi() + " bulk " + l.getKey(), Math.max(CHUNK, calibrar(perValue(l.getValue(), 20000), ventana)));
            }
        }
        Map<String, List<Double>> tiempos = new LinkedHashMap<>();
        for (int rep = 0; rep < reps; rep++) {
            for (String k : filas.keySet()) {
                for (Cargado c : lados) {
                    String key = c.ffi() + " " + k;
                    tiempos.computeIfAbsent(key, x -> new ArrayList<>()).add(perCall(c.simples().get(k), calls.get(key)));
                }
                tiempos.computeIfAbsent("faker " + k, x -> new ArrayList<>()).add(perCall((Runnable) filas.get(k)[1], calls.get("faker " + k)));
            }
            for (Cargado c : lados) {
                for (Map.Entry<String, IntConsumer> l : c.lotes().entrySet()) {
                    String key = c.ffi() + " bulk " + l.getKey();
                    tiempos.computeIfAbsent(key, x -> new ArrayList<>()).add(perValue(l.getValue(), calls.get(key)));
                }
            }
        }
        String fin = carga();
        System.out.printf("datoteca %s vs Datafaker 2.7.0 (es); Java %s (%s); loaders: %s, each in a class loader of its own, "
                + "in this one JVM; medians of %d interleaved windows of ~%.0f ms per side%n",
                lados.get(0).version(), System.getProperty("java.version"), System.getProperty("java.vm.name"),
                String.join(" and ", lados.stream().map(Cargado::loader).toList()), reps, ventana / 1000);
        System.out.printf("load average (/proc/loadavg) at start: %s; at end: %s; %d CPUs%n%n", inicio, fin,
                Runtime.getRuntime().availableProcessors());
        StringBuilder h = new StringBuilder("| call | Datafaker µs |");
        StringBuilder r = new StringBuilder("|---|---|");
        for (Cargado c : lados) {
            h.append(" datoteca ").append(c.loader().toUpperCase(Locale.ROOT)).append(" µs | Datafaker / ")
                    .append(c.loader().toUpperCase(Locale.ROOT)).append(" |");
            r.append("---|---|");
        }
        System.out.println(h + "\n" + r);
        for (String k : filas.keySet()) {
            double fm = median(tiempos.get("faker " + k));
            StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "| %s | %.3f |", filas.get(k)[0], fm));
            for (Cargado c : lados) {
                double dm = median(tiempos.get(c.ffi() + " " + k));
                s.append(String.format(Locale.ROOT, " %.3f | %.2f× |", dm, fm / dm));
            }
            System.out.println(s);
        }
        for (String k : lados.get(0).lotes().keySet()) {
            double fm = median(tiempos.get("faker " + k));
            StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "| %s, bulk (many) | %.3f (one at a time) |", k, fm));
            for (Cargado c : lados) {
                double dm = median(tiempos.get(c.ffi() + " bulk " + k));
                s.append(String.format(Locale.ROOT, " %.3f | %.2f× |", dm, fm / dm));
            }
            System.out.println(s);
        }
        System.out.println();
        System.out.println("Datafaker's sample values: " + f.idNumber().valid() + " | " + f.address().streetAddress() + " | "
                + f.address().streetName() + " | " + f.company().name());
    }
}
