/* What a column's name says it holds, in Spanish, English and Portuguese (docs/enmascarar.md, "What
 * a column's name says"), for the detector's proposal (detector.c): the name is cut into words (at
 * '_', '-', '.', spaces, digits and lower-to-upper case changes: FirstName, first_name, "First Name"
 * and FIRST_NAME are the words first and name), folded to lower-case ASCII (endereço is endereco), and
 * the words are looked up. A table's name says whether its rows are people (customer, staff,
 * empleados), which decides what a bare `name` holds. Pure functions of the names; thread-safe. */
#include <string.h>

#include "internal.h"
#include "mascara/detector_nombres.h"

#define DT__DN_PALABRAS 8
#define DT__DN_LARGO 24

typedef struct dt__dn_palabras {
    char w[DT__DN_PALABRAS][DT__DN_LARGO];
    size_t n;
} dt__dn_palabras;

static int dt__dn_min(unsigned char c) { return c >= 'a' && c <= 'z'; }
static int dt__dn_may(unsigned char c) { return c >= 'A' && c <= 'Z'; }

/* The words of s, folded: Latin letters with accents (two bytes, C3 xx) to their base letter. */
static void dt__dn_cortar(const char *s, dt__dn_palabras *p) {
    p->n = 0;
    size_t l = 0;
    int antes_min = 0;
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        char x = 0;
        if (dt__dn_min(*c)) x = (char)*c;
        else if (dt__dn_may(*c)) x = (char)(*c + 32);
        else if (*c == 0xC3 && c[1] >= 0x80 && c[1] <= 0xBF) {
            char f[4];
            char *e = dt__put_ascii_fold(f, (const char *)c, 2);
            x = e > f ? (char)(f[0] >= 'A' && f[0] <= 'Z' ? f[0] + 32 : f[0]) : 0;
            if (x == 0 || !dt__dn_min((unsigned char)x)) x = 0;
            c++;
        }
        int corte = x == 0 || (dt__dn_may(*c) && antes_min);
        if (corte && l > 0 && p->n < DT__DN_PALABRAS) {
            p->w[p->n][l] = '\0';
            p->n++;
            l = 0;
        }
        if (x != 0 && p->n < DT__DN_PALABRAS && l + 1 < DT__DN_LARGO) p->w[p->n][l++] = x;
        antes_min = x != 0 && !dt__dn_may(*c);
    }
    if (l > 0 && p->n < DT__DN_PALABRAS) {
        p->w[p->n][l] = '\0';
        p->n++;
    }
}

/* Whether one of the words is one of `lista` (NULL-terminated). */
static int dt__dn_hay(const dt__dn_palabras *p, const char *const *lista) {
    for (size_t i = 0; i < p->n; i++)
        for (const char *const *q = lista; *q; q++)
            if (strcmp(p->w[i], *q) == 0) return 1;
    return 0;
}
static int dt__dn_es(const dt__dn_palabras *p, const char *w) {
    const char *l[2] = {w, NULL};
    return dt__dn_hay(p, l);
}
/* The name is exactly these words, in this order. */
static int dt__dn_solo(const dt__dn_palabras *p, const char *a, const char *b) {
    if (b == NULL) return p->n == 1 && strcmp(p->w[0], a) == 0;
    return p->n == 2 && strcmp(p->w[0], a) == 0 && strcmp(p->w[1], b) == 0;
}
/* The last word (an identifier's suffix: customer_id, usuario_fk). */
static const char *dt__dn_ultima(const dt__dn_palabras *p) { return p->n ? p->w[p->n - 1] : ""; }

static const char *const dt__dn_id[] = {"id", "ids", "fk", "pk", "uuid", "guid", "key", "sk", "idx", "num", "nro", "no", NULL};
static const char *const dt__dn_nombre[] = {"name", "nome", "nombre", "nombres", "nm", NULL};
static const char *const dt__dn_dado[] = {"first", "given", "fname", "forename", "forenames", "firstname", "prenom",
                                          "primeiro", "middle", "givenname", "primer", "segundo", NULL};
static const char *const dt__dn_apellido[] = {"surname", "surnames", "lname", "lastname", "familyname", "sobrenome",
                                              "apellido", "apellidos", "paterno", "materno", "patronimico", NULL};
static const char *const dt__dn_completo[] = {"full", "fullname", "complete", "completo", "display", "contact", "mae",
                                              "pai", "mother", "father", "conyuge", "spouse", "esposa",
                                              "esposo", "tutor", "apoderado", "conjuge", "emergencia", "emergency",
                                              "contactname", "contacto", "responsavel", "responsable", "titular",
                                              "holder", "owner", "nombrecompleto", "nomecompleto", NULL};
static const char *const dt__dn_usuario[] = {"username", "usuario", "login", "nickname", "nick", "handle", "screenname",
                                             "userid_text", "apelido", "alias", "usr", NULL};
static const char *const dt__dn_telefono[] = {"phone", "phones", "telephone", "tel", "telefono", "telefone", "fono",
                                              "mobile", "cell", "cellphone", "celular", "movil", "fax", "whatsapp",
                                              "homephone", "workphone", "msisdn", "phonenumber", NULL};
static const char *const dt__dn_email[] = {"email", "emails", "mail", "correo", "emailaddress", NULL};
static const char *const dt__dn_direccion[] = {"address", "addresses", "addr", "street", "endereco", "logradouro", "rua",
                                               "direccion", "domicilio", "calle", "streetaddress", "bairro", NULL};
static const char *const dt__dn_postal[] = {"zip", "zipcode", "postal", "postcode", "postalcode", "cep", NULL};
static const char *const dt__dn_nacimiento[] = {"birth", "birthdate", "birthday", "dob", "nacimiento", "nascimento",
                                                "born", "nac", "nasc", "natalicio", NULL};
static const char *const dt__dn_documento[] = {"passport", "pasaporte", "passaporte", "ssn", "dni", "cpf", "rg", "nif",
                                               "nie", "cedula", "document", "documento", "documentos", "nationalid",
                                               "license", "licence", "licencia", "nin", "curp", "cuil", "cuit",
                                               "identidad", "identity", "idcard", NULL};
static const char *const dt__dn_ip[] = {"ip", "ipaddress", "ipv4", "ipv6", "ipaddr", "remoteaddr", NULL};
static const char *const dt__dn_coordenada[] = {"lat", "latitude", "latitud", "lng", "lon", "longitude", "longitud", NULL};
static const char *const dt__dn_foto[] = {"photo", "photos", "picture", "avatar", "image", "imagen", "imagem", "foto",
                                          "portrait", "pic", "thumbnail", "selfie", "signature", "firma", NULL};
static const char *const dt__dn_clave[] = {"password", "passwd", "pwd", "pass", "senha", "contrasena", "hash", "salt",
                                           "secret", "token", "apikey", "otp", "pin", "credential", "credentials", NULL};
static const char *const dt__dn_nota[] = {"notes", "note", "comment", "comments", "remark", "remarks", "observacion",
                                          "observaciones", "observacao", "observacoes", "obs", "comentario",
                                          "comentarios", "nota", "notas", "bio", "biography", "about", "memo",
                                          "annotation", "mensaje", "message", "mensagem", "body", "detalle", NULL};
static const char *const dt__dn_monto[] = {"amount", "amt", "balance", "price", "prices", "total", "subtotal", "cost",
                                           "costs", "salary", "wage", "wages", "payment", "fee", "fees", "credit",
                                           "debit", "debe", "haber", "haberes", "saldo", "monto", "montos", "ingreso",
                                           "ingresos", "sueldo", "salario", "renta", "precio", "cupo", "importe",
                                           "pago", "deuda", "valor", "liquido", "iva", "neto", "bruto", "exento",
                                           "descuento", "descuentos", "impuesto", "freight", "revenue", "income",
                                           "charge", "discount", "tip", "bonus", "bono", "comision", "commission",
                                           "abono", "preco", "salario", "remuneracion", "imponible", NULL};
static const char *const dt__dn_personas[] = {"customer", "customers", "client", "clients", "cliente", "clientes",
                                              "staff", "employee", "employees", "empleado", "empleados", "user", "users",
                                              "usuario", "usuarios", "person", "persons", "people", "persona", "personas",
                                              "pessoa", "pessoas", "contact", "contacts", "contacto", "contactos",
                                              "member", "members", "socio", "socios", "patient", "patients", "paciente",
                                              "pacientes", "student", "students", "alumno", "alumnos", "aluno", "alunos",
                                              "funcionario", "funcionarios", "account", "accounts", "profile",
                                              "profiles", "perfil", "perfiles", "author", "authors", "autor", "autores",
                                              "driver", "drivers", "conductor", "worker", "trabajador", "trabajadores",
                                              "beneficiario", "beneficiarios", "titular", "titulares", "afiliado",
                                              "afiliados", "applicant", "candidate", "candidato", "guest", "guests",
                                              "huesped", "passenger", "pasajero", "owner", "owners", "actor", "actors",
                                              "doctor", "medico", "vendedor", "seller", "buyer", "comprador", NULL};

int dt__dn_tabla_personas(const char *tabla) {
    if (tabla == NULL) return 0;
    const char *punto = strrchr(tabla, '.'); /* esquema.tabla: the table's own name */
    dt__dn_palabras p;
    dt__dn_cortar(punto ? punto + 1 : tabla, &p);
    return dt__dn_hay(&p, dt__dn_personas);
}

int dt__dn_pista(const char *columna) {
    dt__dn_palabras p;
    dt__dn_cortar(columna, &p);
    if (p.n == 0) return DT__DN_NINGUNA;
    const char *u = dt__dn_ultima(&p);
    /* the words that say what a value is come first: national_id is a document, not an identifier */
    if (dt__dn_hay(&p, dt__dn_email) || (dt__dn_es(&p, "e") && dt__dn_es(&p, "mail"))) return DT__DN_EMAIL;
    if (dt__dn_hay(&p, dt__dn_clave)) return DT__DN_CLAVE;
    if (dt__dn_hay(&p, dt__dn_documento) || (dt__dn_es(&p, "national") && dt__dn_es(&p, "id")) ||
        (dt__dn_es(&p, "tax") && dt__dn_es(&p, "id")))
        return DT__DN_DOCUMENTO;
    int es_id = p.n > 1 && dt__dn_hay(&p, dt__dn_id) &&
                (strcmp(u, "id") == 0 || strcmp(u, "fk") == 0 || strcmp(u, "uuid") == 0 || strcmp(u, "key") == 0);
    if (dt__dn_solo(&p, "id", NULL) || es_id) return DT__DN_ID;
    if (dt__dn_hay(&p, dt__dn_ip)) return DT__DN_IP;
    if (dt__dn_hay(&p, dt__dn_telefono)) return DT__DN_TELEFONO;
    if (dt__dn_hay(&p, dt__dn_coordenada) || dt__dn_solo(&p, "long", NULL)) return DT__DN_COORDENADA;
    int cod = dt__dn_es(&p, "cod") || dt__dn_es(&p, "codigo") || dt__dn_es(&p, "code") || dt__dn_es(&p, "cut");
    if (dt__dn_es(&p, "comuna") && cod) return DT__DN_CODIGO_COMUNA;
    if (dt__dn_es(&p, "region") && cod) return DT__DN_CODIGO_REGION;
    if (dt__dn_hay(&p, dt__dn_postal)) return DT__DN_POSTAL;
    if (dt__dn_hay(&p, dt__dn_direccion)) return DT__DN_DIRECCION;
    if (dt__dn_hay(&p, dt__dn_nacimiento)) return DT__DN_NACIMIENTO;
    if (dt__dn_hay(&p, dt__dn_foto)) return DT__DN_FOTO;
    if (dt__dn_hay(&p, dt__dn_usuario) || dt__dn_solo(&p, "user", NULL) || dt__dn_solo(&p, "user", "name"))
        return DT__DN_USUARIO;
    if (dt__dn_hay(&p, dt__dn_apellido) || (dt__dn_es(&p, "last") && dt__dn_hay(&p, dt__dn_nombre)) ||
        (dt__dn_es(&p, "family") && dt__dn_hay(&p, dt__dn_nombre)) || (dt__dn_es(&p, "ultimo") && dt__dn_es(&p, "nome")))
        return DT__DN_APELLIDO;
    if (dt__dn_hay(&p, dt__dn_dado)) return DT__DN_NOMBRE;
    if (dt__dn_hay(&p, dt__dn_completo) && (dt__dn_hay(&p, dt__dn_nombre) || p.n == 1)) return DT__DN_NOMBRE_COMPLETO;
    if (dt__dn_solo(&p, "nombres", NULL)) return DT__DN_NOMBRE;
    if (dt__dn_es(&p, "comuna")) return DT__DN_COMUNA;
    if (dt__dn_es(&p, "region")) return DT__DN_REGION;
    if (dt__dn_es(&p, "provincia")) return DT__DN_PROVINCIA;
    if (dt__dn_es(&p, "sexo") || dt__dn_es(&p, "sex") || dt__dn_es(&p, "gender") || dt__dn_es(&p, "genero"))
        return DT__DN_SEXO;
    if (dt__dn_hay(&p, dt__dn_nota)) return DT__DN_NOTA;
    if (dt__dn_hay(&p, dt__dn_monto)) return DT__DN_MONTO;
    /* a bare name, or a people word before it (customer_name, NombreCliente): a person's when the table
     * or the word before says so, else the values decide */
    if (dt__dn_hay(&p, dt__dn_nombre)) return dt__dn_hay(&p, dt__dn_personas) ? DT__DN_NOMBRE_COMPLETO : DT__DN_NOMBRE_SOLO;
    if (dt__dn_hay(&p, dt__dn_id)) return DT__DN_ID;
    return DT__DN_NINGUNA;
}
