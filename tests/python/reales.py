"""The leak search of test_fugas_reales.py: what of a real sample database's people survives in its masked
copy. Written here, from outside the library, and blind to datoteca's detector: which columns hold people
is decided by this file's own lists of column names (English, Portuguese and Spanish spellings) and by
the shape of the values (an email, an IPv4 address, a formatted CPF or RUT), never by `detectar`'s
proposal; the target is then searched whole (every table, every column, every row).

Kinds judged (a leak of any of them fails the test):
  nombre      a person's full name: `first last` (and `last, first`) from a row with a first-name and a
              last-name column, or the value of a full-name column (contact_name, full_name, nome, ...),
              found inside a target cell whose source cell held it too; or the first and the last name
              both standing whole in two cells of the person's own row (the name kept in two columns). The
              same name found where the source had another value is the masking's generator drawing a
              common name (a Sakila customer JORGE OLIVARES, and a Chilean fake Jorge Olivares): reported,
              not counted. Artists' and composers' names (Chinook's Artist.Name, Track.Composer) are not
              read as people's columns; actors' first and last names are.
  apellido    a last-name column left as it was: the same table, rowid and column holds the source's
              surname. A column counts when more than a tenth of its surnames stayed (a column the masking
              kept or half kept); below that, a surname that stayed is a generator's chance draw of the
              same common surname (GARCIA, SMITH) and is only reported.
  telefono    a phone or fax column's digits (when 7 or more): the whole digit string, or its last 8 digits
              when it has 10 or more, inside the digits of any target cell that is not a date or a time.
  email       an email (by column name, or any source cell that is one) inside any target cell, or its
              local part followed by `@` (a masking that kept the person and changed the domain).
  direccion   a street line (address, street, endereco, logradouro, ship/billing address) of 6 or more
              characters inside any target cell.
  documento   a CPF, RUT, passport, SSN, DNI ... column's value, or any source cell shaped as a CPF or a
              RUT: the value inside any target cell, or its digits (7 or more) inside a target cell's digits.
  ip          an IPv4 address (by value, in any source cell but a phone's: 88.60.15.31 is a French phone)
              inside any target cell.
  credencial  a username or login equal to a whole target cell where the source had it too (else a
              chance draw, reported), a password (hash) of 6 or more characters inside any target cell.
  foto        a BLOB of a photo/picture/avatar column of a table with people (a name column): the same bytes
              as any target cell.
Reported only (quasi-identifiers, not asserted): birth dates (the date found anywhere in the target) and
postal codes kept in place.

Text is compared after Unicode NFC, casefold and whitespace collapsed to one space."""
import hashlib
import re
import sqlite3
import unicodedata
from bisect import bisect_right

KINDS = ("nombre", "apellido", "telefono", "email", "direccion", "documento", "ip", "credencial", "foto")
INFO = ("nacimiento", "codigo_postal")


def norm(v):
    return re.sub(r"\s+", " ", unicodedata.normalize("NFC", str(v)).casefold()).strip()


def _col(name):
    """A column name reduced to its letters and digits, lower case, accents off (endereço -> endereco)."""
    s = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]", "", s)


FIRST = {"firstname", "givenname", "forename", "primeironome", "primernombre", "nombres", "prenom"}
LAST = {"lastname", "surname", "familyname", "sobrenome", "ultimonome", "apellido", "apellidos", "apellidopaterno",
        "apellidomaterno", "nom"}
FULL = {"fullname", "contactname", "contact", "nome", "nomecompleto", "nomecliente", "nomecontato", "nombre",
        "nombrecompleto", "personname", "customername", "employeename", "responsavel", "titular"}
DOCS = {"cpf", "cnpj", "cpfcnpj", "rut", "run", "rg", "ssn", "socialsecuritynumber", "passport", "passportnumber",
        "passaporte", "pasaporte", "dni", "nif", "nie", "documento", "document", "taxid", "nationalid", "cedula",
        "numerodocumento", "tituloeleitor"}
USERS = {"username", "login", "usuario", "userlogin", "loginname", "nomeusuario"}
PASSWORDS = {"password", "passwd", "senha", "pwd", "contrasena", "passwordhash", "hashsenha"}
BIRTH = {"birthdate", "dateofbirth", "dob", "datanascimento", "datadenascimento", "nascimento", "fechanacimiento",
         "fechadenacimiento", "birthday"}
POSTAL = {"postalcode", "zip", "zipcode", "postcode", "cep", "codigopostal"}
PHOTO = ("photo", "foto", "picture", "avatar", "imagem", "retrato")

EMAIL_RE = re.compile(r"[^\s@<>()\[\],;:\"']+@[^\s@<>()\[\],;:\"']+\.[^\s@<>()\[\],;:\"']+")
IPV4_RE = re.compile(r"(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\d.])")
CPF_RE = re.compile(r"(?<!\d)\d{3}\.\d{3}\.\d{3}-\d{2}(?!\d)")
RUT_RE = re.compile(r"(?<![\d.])\d{1,2}\.\d{3}\.\d{3}-[\dkK](?![\w])")
DATE_RE = re.compile(r"^\s*\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?\s*$|^\s*\d{2}:\d{2}(:\d{2})?\s*$")


def kind_of(column):
    """This file's own reading of a column name: the kind of personal data it holds, or None."""
    c = _col(column)
    if c.endswith("id") and c not in DOCS and c not in {"nationalid", "taxid"}:
        return None  # a key (address_id, CustomerId, SupportRepId)
    if c in FIRST:
        return "first"
    if c in LAST:
        return "last"
    if c in FULL or c.endswith("contactname") or c.endswith("fullname"):
        return "full"
    if c in DOCS:
        return "documento"
    if c in USERS:
        return "usuario"
    if c in PASSWORDS:
        return "password"
    if c in BIRTH:
        return "nacimiento"
    if c in POSTAL or c.endswith("postalcode") or c.endswith("zipcode"):
        return "codigo_postal"
    if "email" in c or "correo" in c:
        return "email"
    if any(w in c for w in ("phone", "fax", "mobile", "cellular", "telefon", "celular", "fone", "whatsapp")) or c == "cell":
        return "telefono"
    if c in {"ip", "ipaddress", "ipaddr", "enderecoip", "remoteaddr"}:
        return "ip"
    if any(w in c for w in ("address", "endereco", "street", "logradouro", "direccion", "domicilio")) or c == "rua":
        return "direccion"
    if any(w in c for w in PHOTO):
        return "foto"
    return None


def _tables(con):
    return [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                                      "ORDER BY name")]


def _columns(con, table):
    return [r[1] for r in con.execute(f'PRAGMA table_info("{table}")')]


def _rows(con, table):
    cols = _columns(con, table)
    sel = ", ".join(f'"{c}"' for c in cols)
    try:
        cur = con.execute(f'SELECT rowid, {sel} FROM "{table}"')
    except sqlite3.OperationalError:  # WITHOUT ROWID
        cur = ((None, *r) for r in con.execute(f'SELECT {sel} FROM "{table}"'))
    return cols, cur


def _digits(v):
    return re.sub(r"\D", "", v)


class Fuente:
    """The personal values of a source database, by kind: each a dict value -> where it was ("table.column
    rowid N"), so a report says where a leaked value came from."""

    def __init__(self, path):
        self.valores = {k: {} for k in KINDS + INFO}
        self.columnas = {}  # (table, column) -> kind, this file's reading
        self.pares = {}  # (first, last) -> (table, rowid) of its first row
        self.lugar = {}  # username -> (table, column, rowid) of its first cell
        self.apellidos = []  # (table, column, rowid, surname)
        self.postales = []  # (table, column, rowid, code)
        self.celdas = {}  # (table, column, rowid) -> normalised text, to tell a kept value from a chance draw
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        con.text_factory = lambda b: b.decode("utf-8", "replace")
        for t in _tables(con):
            cols, rows = _rows(con, t)
            kinds = {c: kind_of(c) for c in cols}
            for c, k in kinds.items():
                if k:
                    self.columnas[(t, c)] = k
            people = any(k in ("first", "last", "full") for k in kinds.values())
            for row in rows:
                rowid, vals = row[0], dict(zip(cols, row[1:]))
                donde = f"{t}.{{}} rowid {rowid}"
                first = last = None
                for c, v in vals.items():
                    if v is None:
                        continue
                    k = kinds[c]
                    at = donde.format(c)
                    if isinstance(v, bytes):
                        if k == "foto" and people and v:
                            self._add("foto", hashlib.sha256(v).hexdigest(), at)
                        continue
                    s = str(v).strip()
                    if not s:
                        continue
                    n = norm(s)
                    self.celdas[(t, c, rowid)] = n
                    if k == "first":
                        first = n
                    elif k == "last":
                        last = n
                        if len(n) >= 2:
                            self.apellidos.append((t, c, rowid, n))
                    elif k == "full" and len(n.split()) >= 2:
                        self._add("nombre", n, at)
                    elif k == "telefono":
                        self._phone(s, at)
                    elif k == "email":
                        for e in EMAIL_RE.findall(s) or [s]:
                            self._add("email", norm(e), at)
                    elif k == "direccion" and len(n) >= 6:
                        self._add("direccion", n, at)
                    elif k == "documento" and len(_digits(s)) >= 5:
                        self._add("documento", n, at)
                    elif k == "usuario" and len(n) >= 2:
                        self._add("credencial", ("=", n), at)
                        self.lugar.setdefault(n, (t, c, rowid))
                    elif k == "password" and len(n) >= 6:
                        self._add("credencial", ("in", n), at)
                    elif k == "nacimiento":
                        self._add("nacimiento", n[:10], at)
                    elif k == "codigo_postal":
                        self.postales.append((t, c, rowid, n))
                    elif k == "ip":
                        for ip in IPV4_RE.findall(s):
                            self._add("ip", ip, at)
                    # by the value's shape, whatever the column
                    if k != "email":
                        for e in EMAIL_RE.findall(s):
                            self._add("email", norm(e), at)
                    if k not in ("ip", "telefono"):  # a French phone, 88.60.15.31, is not an IP
                        for ip in IPV4_RE.findall(s):
                            self._add("ip", ip, at)
                    for d in CPF_RE.findall(s) + RUT_RE.findall(s):
                        self._add("documento", norm(d), at)
                if first and last:
                    at = donde.format("first/last")
                    self._add("nombre", f"{first} {last}", at)
                    self.pares.setdefault((first, last), (t, rowid))
        con.close()

    def cuantos(self, kind):
        """How many source values of the kind (surnames and postal codes: cells)."""
        return {"apellido": len(self.apellidos), "codigo_postal": len(self.postales)}.get(kind, len(self.valores[kind]))

    def _add(self, kind, value, at):
        self.valores[kind].setdefault(value, at)

    def _phone(self, s, at):
        d = _digits(s)
        if len(d) >= 7:
            self._add("telefono", d, at)


class Destino:
    """Every cell of the target, as text (NFC, casefolded), as digits (dates and times left out), and each
    row's set of whole values; BLOBs by their digest."""

    def __init__(self, path):
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        con.text_factory = lambda b: b.decode("utf-8", "replace")
        self.celdas = []  # (table, column, rowid)
        textos, digitos, self.blobs = [], [], {}
        self.filas = {}  # whole value -> set of (table, rowid)
        self.en_sitio = {}  # (table, column, rowid) -> normalised value
        for t in _tables(con):
            cols, rows = _rows(con, t)
            for row in rows:
                rowid = row[0]
                for c, v in zip(cols, row[1:]):
                    if v is None:
                        continue
                    if isinstance(v, bytes):
                        self.blobs.setdefault(hashlib.sha256(v).hexdigest(), (t, c, rowid))
                        continue
                    s = str(v)
                    n = norm(s)
                    self.celdas.append((t, c, rowid))
                    textos.append(n)
                    digitos.append("" if DATE_RE.match(s) else _digits(s))
                    self.filas.setdefault(n, set()).add((t, rowid))
                    self.en_sitio[(t, c, rowid)] = n
        con.close()
        self.texto = "\x00".join(textos)
        self.digitos = "\x00".join(digitos)
        self._inicio_t = _starts(textos)
        self._inicio_d = _starts(digitos)
        self._textos = textos

    def donde(self, needle, digits=False):
        """Every cell that has needle inside (its text, or its digits), in order."""
        hay, starts = (self.digitos, self._inicio_d) if digits else (self.texto, self._inicio_t)
        i = hay.find(needle)
        while i >= 0:
            j = bisect_right(starts, i) - 1
            yield self.celdas[j]
            i = hay.find(needle, starts[j + 1] if j + 1 < len(starts) else len(hay))

    def busca(self, needle, digits=False):
        """The first cell that has needle inside, or None."""
        return next(self.donde(needle, digits), None)


def _starts(parts):
    out, pos = [], 0
    for p in parts:
        out.append(pos)
        pos += len(p) + 1
    return out


def fugas(fuente, destino):
    """kind -> {"fuente": how many source values, "fugas": [(value, where in the source, where in the target)],
    "azar": the same for matches reported but not counted}.

    A name or a username found where the source had another value (a cell whose source text does not
    hold it, a row other than the person's) is not counted: the masking's generator drew a common name
    (Jorge Olivares, Mike) by chance. Everything else counts wherever it is found: no generator draws a
    source's email, street line or phone digits."""
    out = {k: {"fuente": len(fuente.valores[k]), "fugas": [], "azar": []} for k in KINDS + INFO}

    def cell(c):
        return f"{c[0]}.{c[1]} rowid {c[2]}"

    def atribuida(needles, at, kind, igual=False):
        """Counts the first target cell holding one of needles where the source cell held it too; else
        reports the first chance one."""
        azar = None
        for v in needles:
            hits = (c for c, n in zip(destino.celdas, destino._textos) if n == v) if igual else destino.donde(v)
            for hit in hits:
                if v in fuente.celdas.get(hit, ""):
                    out[kind]["fugas"].append((needles[0], at, cell(hit)))
                    return True
                azar = azar or (needles[0], at, cell(hit) + " (the source had another value there)")
        if azar:
            out[kind]["azar"].append(azar)
        return False

    pares = {f"{f} {l}": (f, l) for f, l in fuente.pares}
    for v, at in fuente.valores["nombre"].items():
        needles = [v] + ([f"{pares[v][1]}, {pares[v][0]}"] if v in pares else [])
        if atribuida(needles, at, "nombre") or v not in pares:
            continue
        # the first and the last name kept whole in two cells of the person's own row
        first, last = pares[v]
        both = destino.filas.get(first, set()) & destino.filas.get(last, set())
        t, rowid = fuente.pares[(first, last)]
        if (t, rowid) in both:
            out["nombre"]["fugas"].append((v, at, f"{t} rowid {rowid} (first and last in two cells)"))
        elif both:
            t2, r2 = sorted(both, key=str)[0]
            out["nombre"]["azar"].append((v, at, f"{t2} rowid {r2} (first and last in two cells of another row)"))
    def todas(kind, v, at, needles):
        """Counts v once, at its first hit; every cell holding it goes to the report's per-column count."""
        hits = []
        for needle, digits in needles:
            hits = list(destino.donde(needle, digits))
            if hits:
                break
        if hits:
            out[kind]["fugas"].append((v, at, cell(hits[0])))
            lugares = out[kind].setdefault("lugares", {})
            for h in {(h[0], h[1], h[2]) for h in hits}:
                lugares[f"{h[0]}.{h[1]}"] = lugares.get(f"{h[0]}.{h[1]}", 0) + 1

    for kind in ("direccion", "email", "documento", "ip"):
        for v, at in fuente.valores[kind].items():
            needles = [(v, False)]
            if kind == "documento" and len(_digits(v)) >= 7:
                needles.append((_digits(v), True))
            if kind == "email" and "@" in v and len(v.split("@")[0]) >= 3:
                needles.append((v.split("@")[0] + "@", False))
            todas(kind, v, at, needles)
    for v, at in fuente.valores["telefono"].items():
        todas("telefono", v, at, [(v, True)] + ([(v[-8:], True)] if len(v) >= 10 else []))
    for (mode, v), at in fuente.valores["credencial"].items():
        if mode == "=":
            own = fuente.lugar.get(v)
            if own and destino.en_sitio.get(own) == v:  # kept in its own cell
                out["credencial"]["fugas"].append((v, at, cell(own)))
            else:
                atribuida([v], at, "credencial", igual=True)
        elif (hit := destino.busca(v)) is not None:
            out["credencial"]["fugas"].append((v, at, cell(hit)))
    for h, at in fuente.valores["foto"].items():
        if h in destino.blobs:
            out["foto"]["fugas"].append((f"sha256 {h[:16]}", at, cell(destino.blobs[h])))
    # surnames kept in place, by column
    por_col = {}
    for t, c, rowid, n in fuente.apellidos:
        por_col.setdefault((t, c), []).append((rowid, n))
    out["apellido"]["fuente"] = len(fuente.apellidos)
    for (t, c), vals in por_col.items():
        kept = [(rowid, n) for rowid, n in vals if destino.en_sitio.get((t, c, rowid)) == n]
        dest = out["apellido"]["fugas"] if len(kept) * 10 > len(vals) else out["apellido"]["azar"]
        dest.extend((n, f"{t}.{c} rowid {rowid}", f"{t}.{c} rowid {rowid} (kept in place, {len(kept)} of {len(vals)})")
                    for rowid, n in kept)
    for v, at in fuente.valores["nacimiento"].items():
        hit = destino.busca(v)
        if hit is not None:
            out["nacimiento"]["fugas"].append((v, at, cell(hit)))
    out["codigo_postal"]["fuente"] = len(fuente.postales)
    out["codigo_postal"]["fugas"] = [(n, f"{t}.{c} rowid {r}", "kept in place") for t, c, r, n in fuente.postales
                                     if destino.en_sitio.get((t, c, r)) == n]
    return out


def informe(nombre, res, reglas=None, ejemplos=5, kinds=KINDS + INFO):
    """Lines: per kind, the source values, the leaked ones and the first examples (with the rule proposed for
    the target column where each was found, when the rules are given)."""
    lines = []
    for kind in kinds:
        r = res[kind]
        tag = " (reported only)" if kind in INFO else ""
        lines.append(f"{nombre} {kind}{tag}: {r['fuente']} source values, {len(r['fugas'])} found in the target")
        por = r.get("lugares")
        if por is None:
            por = {}
            for _, _, where in r["fugas"]:
                w = where.split(" rowid ")[0]
                por[w] = por.get(w, 0) + 1
        if por:
            lines.append("    where in the target (cells): " + ", ".join(
                f"{w} {n}" + (f" [rule: {reglas[tuple(w.split('.', 1))]}]" if reglas and tuple(w.split(".", 1)) in reglas else "")
                for w, n in sorted(por.items(), key=lambda x: -x[1])))
        for v, at, where in r["fugas"][:ejemplos]:
            regla = ""
            if reglas:
                t, _, rest = where.partition(".")
                col = rest.split(" ")[0]
                if (t, col) in reglas:
                    regla = f" [rule there: {reglas[(t, col)]}]"
            lines.append(f"    {v!r} from {at} -> {where}{regla}")
        if r.get("azar"):
            lines.append(f"    not counted, {len(r['azar'])} chance matches (the masking drew a common value), e.g.:")
            lines.extend(f"      {v!r} from {at} -> {where}" for v, at, where in r["azar"][:3])
    return lines
