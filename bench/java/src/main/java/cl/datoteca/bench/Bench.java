package cl.datoteca.bench;

import cl.datoteca.Datoteca;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.IntConsumer;
import net.datafaker.Faker;

/**
 * datoteca vs Datafaker (its es locale: it has no Chilean one), measured in the same run, interleaved,
 * medians of several repetitions after a warm-up. Prints a Markdown table: µs per value and
 * Datafaker / datoteca. Not a test: nothing asserts a time.
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

    static double median(List<Double> a) {
        List<Double> s = new ArrayList<>(a);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }

    record Fila(String label, Runnable datoteca, Runnable faker) {}

    record Lote(String label, IntConsumer datoteca, String single) {}

    public static void main(String[] args) {
        boolean quick = List.of(args).contains("--quick");
        int reps = quick ? 5 : 9;
        int n = quick ? 20000 : 100000;
        Datoteca d = new Datoteca(42);
        Faker f = new Faker(Locale.forLanguageTag("es"), new Random(42));
        Runnable persona4 = () -> sink = Map.of("name", f.name().fullName(), "address", f.address().streetAddress(),
                "phone", f.phoneNumber().cellPhone(), "email", f.internet().emailAddress());
        List<Fila> filas = List.of(
                new Fila("rut (Datafaker has no Chilean RUT)", () -> sink = d.rut(), null),
                new Fila("nombre completo / name().fullName()", () -> sink = d.persona.nombreCompleto(), () -> sink = f.name().fullName()),
                new Fila("dirección record / address().streetAddress()", () -> sink = d.direccion.direccion(), () -> sink = f.address().streetAddress()),
                new Fila("teléfono / phoneNumber().cellPhone()", () -> sink = d.telefono.movil(), () -> sink = f.phoneNumber().cellPhone()),
                new Fila("email / internet().emailAddress()", () -> sink = d.persona.email(), () -> sink = f.internet().emailAddress()),
                new Fila("empresa / company().name()", () -> sink = d.empresa.razonSocial(), () -> sink = f.company().name()),
                new Fila("persona record (14 fields; Datafaker: 4)", () -> sink = d.persona.persona(), persona4));
        List<Lote> lotes = List.of(
                new Lote("rut, bulk", k -> sink = d.many("rut", k, null), filas.get(0).label()),
                new Lote("nombre completo, bulk", k -> sink = d.many("persona.nombre_completo", k, null), filas.get(1).label()),
                new Lote("persona record, bulk", k -> sink = d.many("persona.persona", k, null), filas.get(6).label()));
        // warm-up: let the JIT compile both sides before anything is timed
        for (Fila r : filas) {
            perCall(r.datoteca(), n / 2);
            if (r.faker() != null) {
                perCall(r.faker(), n / 20);
            }
        }
        List<List<Double>> ds = new ArrayList<>();
        List<List<Double>> fs = new ArrayList<>();
        List<List<Double>> bs = new ArrayList<>();
        filas.forEach(r -> {
            ds.add(new ArrayList<>());
            fs.add(new ArrayList<>());
        });
        lotes.forEach(l -> bs.add(new ArrayList<>()));
        for (int rep = 0; rep < reps; rep++) {
            for (int i = 0; i < filas.size(); i++) {
                ds.get(i).add(perCall(filas.get(i).datoteca(), n));
                if (filas.get(i).faker() != null) {
                    fs.get(i).add(perCall(filas.get(i).faker(), n / 10));
                }
            }
            for (int i = 0; i < lotes.size(); i++) {
                bs.get(i).add(perValue(lotes.get(i).datoteca(), n));
            }
        }
        System.out.printf("datoteca %s (data %d) vs Datafaker 2.7.0 (es); Java %s; medians of %d interleaved runs%n%n",
                Datoteca.version(), Datoteca.dataVersion(), System.getProperty("java.version"), reps);
        System.out.println("| call | datoteca µs | Datafaker µs | Datafaker / datoteca |\n|---|---|---|---|");
        Map<String, Double> single = new java.util.HashMap<>();
        for (int i = 0; i < filas.size(); i++) {
            double dm = median(ds.get(i));
            Double fm = fs.get(i).isEmpty() ? null : median(fs.get(i));
            single.put(filas.get(i).label(), fm);
            System.out.printf(Locale.ROOT, "| %s | %.3f | %s | %s |%n", filas.get(i).label(), dm, fm == null ? "—" : String.format(Locale.ROOT, "%.2f", fm),
                    fm == null ? "—" : String.format(Locale.ROOT, "%.1f×", fm / dm));
        }
        for (int i = 0; i < lotes.size(); i++) {
            double bm = median(bs.get(i));
            Double fm = single.get(lotes.get(i).single());
            System.out.printf(Locale.ROOT, "| %s | %.3f | %s | %s |%n", lotes.get(i).label(), bm, fm == null ? "—" : String.format(Locale.ROOT, "%.2f", fm),
                    fm == null ? "—" : String.format(Locale.ROOT, "%.1f×", fm / bm));
        }
        d.close();
    }
}
