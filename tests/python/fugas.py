"""The leak check of the masked copies (test_copiar_pg.py, test_copiar_mariadb.py): written here, not in the
library, so that it judges the copy from outside. `originales` takes what must not survive; `buscar` searches
every cell for it and names the kinds found, never the values."""
import re


def originales(ruts, emails, telefonos, nombres, placas=()):
    """RUTs (formatted, and their bodies as a run of digits), emails, the phones' last 8 digits, full names, plates
    (their letters and digits, as a note may write them without the separator)."""
    ruts = set(ruts)
    return (ruts, {re.sub(r"\D", "", r[:-1]) for r in ruts}, set(emails), {re.sub(r"\D", "", t)[-8:] for t in telefonos}, set(nombres),
            {re.sub(r"[^A-Z0-9]", "", p.upper()) for p in placas})


def buscar(celdas, originales):
    """The kinds of planted values found in any of the cells: a RUT, an email or a full name anywhere in a
    cell; a RUT body as a whole run of 7-8 digits; a phone's digits in a cell's digits (its format stripped); a
    plate's letters and digits in a cell's (its separators stripped)."""
    ruts, cuerpos, emails, tels, nombres, placas = originales
    texto = "\n".join(celdas)
    digitos = "|".join(re.sub(r"\D", "", c) for c in celdas)
    hallados = [k for k, vs in (("rut", ruts), ("email", emails), ("full name", nombres)) if any(v in texto for v in vs)]
    hallados += ["rut body"] if cuerpos & set(re.findall(r"(?<!\d)\d{7,8}(?!\d)", texto)) else []
    hallados += ["phone"] if any(d in digitos for d in tels) else []
    alfanum = "|".join(re.sub(r"[^A-Z0-9]", "", c.upper()) for c in celdas)
    hallados += ["plate"] if any(p in alfanum for p in placas) else []
    return hallados
