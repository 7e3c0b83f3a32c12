package cl.datoteca;

/**
 * Chooses the loader once per process and checks the library's major version before anything else
 * runs. On Java 22 and later the Foreign Function &amp; Memory API ({@code NativoFfm}, in the jar's
 * META-INF/versions/22); on 17 and 21, JNA ({@link NativoJna}). The system property
 * {@code datoteca.ffi} (else the environment variable {@code DATOTECA_FFI}) forces one: {@code jna}
 * or {@code ffm}; {@code ffm} where it cannot run fails saying why, never falls back.
 */
final class Nativo {
    private Nativo() {}

    /** Where the library was loaded from. */
    static final String RUTA = Ruta.RUTA;
    /** The loader of this process. */
    static final Enlace E = elegir();

    static {
        long major = Integer.toUnsignedLong(E.dt_version_number()) / 10000;
        if (major != Constantes.ABI_MAJOR) {
            throw new UnsatisfiedLinkError("datoteca: " + RUTA + " is version " + E.dt_version()
                    + ", this binding needs major version " + Constantes.ABI_MAJOR);
        }
    }

    private static Enlace elegir() {
        String pedido = System.getProperty("datoteca.ffi");
        String de = "-Ddatoteca.ffi";
        if (pedido == null || pedido.isEmpty()) {
            pedido = System.getenv("DATOTECA_FFI");
            de = "DATOTECA_FFI";
        }
        if (pedido == null || pedido.isEmpty()) {
            pedido = "";
        }
        int java = Runtime.version().feature();
        switch (pedido) {
            case "jna":
                return new NativoJna();
            case "ffm":
                if (java < 22) {
                    throw new UnsatisfiedLinkError("datoteca: " + de + "=ffm needs Java 22 or later (the Foreign Function & Memory API); "
                            + "this is Java " + Runtime.version());
                }
                return ffm(de + "=ffm");
            case "":
                return java >= 22 ? ffm(null) : new NativoJna();
            default:
                throw new UnsatisfiedLinkError("datoteca: " + de + " must be 'ffm' or 'jna' (or unset: ffm on Java 22+, else jna), got '"
                        + pedido + "'");
        }
    }

    /** The FFM loader; when it is not in this jar (built on a JDK before 22), JNA unless FFM was asked for. */
    private static Enlace ffm(String pedido) {
        Class<?> c;
        try {
            c = Class.forName("cl.datoteca.NativoFfm");
        } catch (ClassNotFoundException e) {
            if (pedido != null) {
                throw new UnsatisfiedLinkError("datoteca: " + pedido + " but this jar has no FFM loader (it was built on a JDK "
                        + "before 22: build it on 22 or later)");
            }
            return new NativoJna();
        }
        try {
            return (Enlace) c.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            Throwable t = e.getCause() != null ? e.getCause() : e;
            if (t instanceof Error) {
                throw (Error) t;
            }
            UnsatisfiedLinkError u = new UnsatisfiedLinkError("datoteca: the FFM loader failed: " + t);
            u.initCause(t);
            throw u;
        }
    }
}
