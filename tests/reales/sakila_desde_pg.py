"""How tests/reales/sakila.sql.gz was made (run once, by hand; the test only reads the .gz):

    python3 tests/reales/sakila_desde_pg.py SCHEMA.sql COPY.sql | gzip -9n > tests/reales/sakila.sql.gz

SCHEMA.sql is jOOQ/sakila's sqlite-sakila-db/sqlite-sakila-schema.sql (kept as it is), COPY.sql its
postgres-sakila-db/postgres-sakila-insert-data-using-copy.sql (the repository's SQLite insert file is too
large to be stored in the mirror we read from); PROVENANCE.md names the commit. The PostgreSQL rows become
SQLite INSERTs: booleans 't'/'f' as 1/0, a film's special_features array as MySQL's comma list, the
tsvector column left out, payment's missing last_update taken from its payment_date, film_text filled from
film as MySQL's trigger does; the schema's triggers (which set last_update to the time of loading) moved
after the rows, so the rows keep their own dates. Trimmed: only the rentals with rental_id <= 1000 and the payments of those
rentals; every other table (every one with people in it: actor, customer, staff, address) is whole."""
import re
import sys

RENTALS = 1000


def copy_blocks(text):
    for m in re.finditer(r"^COPY public\.(\w+) \(([^)]*)\) FROM stdin;\n(.*?)^\\\.$", text, re.S | re.M):
        yield m.group(1), [c.strip() for c in m.group(2).split(",")], m.group(3).splitlines()


def unescape(v):
    if v == r"\N":
        return None
    return re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}.get(m.group(1), m.group(1)), v)


def quote(v):
    if v is None:
        return "NULL"
    return "'" + v.replace("'", "''") + "'"


def main(schema_path, copy_path):
    out = sys.stdout
    out.write("-- Sakila for SQLite: jOOQ/sakila's SQLite schema, its PostgreSQL rows as INSERTs (tests/reales/sakila_desde_pg.py)\n")
    schema = open(schema_path, encoding="utf-8").read()
    triggers = re.findall(r"^CREATE TRIGGER .*?^ END\s*;", schema, re.S | re.M)
    for t in triggers:
        schema = schema.replace(t, "")
    out.write(schema)
    out.write("\n")
    text = open(copy_path, encoding="utf-8").read()
    rentals = set()
    blocks = {t: (cols, rows) for t, cols, rows in copy_blocks(text)}
    order = ["language", "country", "city", "address", "category", "actor", "film", "film_actor", "film_category",
             "staff", "store", "inventory", "customer", "rental", "payment"]
    assert set(order) == set(blocks), sorted(blocks)
    for table in order:
        cols, rows = blocks[table]
        for line in rows:
            vals = dict(zip(cols, [unescape(v) for v in line.split("\t")]))
            if table == "rental":
                if int(vals["rental_id"]) > RENTALS:
                    continue
                rentals.add(vals["rental_id"])
            if table == "payment":
                if vals["rental_id"] not in rentals:
                    continue
                vals["last_update"] = vals["payment_date"]
            if table == "film":
                vals.pop("fulltext", None)
                sf = vals.pop("special_features")
                vals["special_features"] = None if sf is None else ",".join(s.strip('"') for s in re.findall(r'"[^"]*"|[^,{}]+', sf))
            if table == "customer":
                vals.pop("activebool")
            if table == "staff":
                vals["active"] = {"t": "1", "f": "0"}[vals["active"]]
            names = list(vals)
            out.write(f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join(quote(vals[n]) for n in names)});\n")
    out.write("INSERT INTO film_text (film_id, title, description) SELECT film_id, title, description FROM film;\n")
    out.write("-- The schema's triggers (each sets last_update to now), after the rows as a dump has them\n")
    out.write("\n".join(triggers) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
