#!/usr/bin/env python3
"""Write the production-like masking sample, ejemplos/enmascarar/{clientes,cuentas,notas}.csv: what an
export of a bank's customer tables looks like (RUTs in several spellings, phones typed by hand, a wrong
check digit or two, free-text notes that quote RUTs, emails, phones and plates). Every value is made by
the library from fixed seeds, so the sample is reproducible (`--check` compares the committed files with
what this script writes, and the Python tests run it) and holds no real person.

    .venv/bin/python tools/muestra_enmascarar.py [--check]
"""
from __future__ import annotations

import csv
import io
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIR = os.path.join(ROOT, "ejemplos", "enmascarar")
N_CLIENTES = 300
CUENTAS_POR_CLIENTE = (1, 3)
N_NOTAS = 400

# The notes' sentences: how an executive writes in a CRM. The slots are filled with the cliente's own
# values, in the spellings people type. Names are left out on purpose: `texto` does not find names in
# prose (docs/enmascarar.md), so a note that quoted one would leak it; a real export must be checked
# for that with its own eyes.
PLANTILLAS = [
    "Cliente llamó desde el {telefono} para consultar por la cuenta {numero}. Se envía cartola a {email}.",
    "RUT {rut} solicita aumento de cupo; adjunta liquidaciones. Respuesta a {email} en 48 h.",
    "Reclamo por cobro duplicado. Titular {rut_limpio}, fono {telefono}. Derivado a mesa de ayuda.",
    "Se actualiza correo de contacto a {email} (antes registrado con error).",
    "Crédito automotriz: vehículo patente {patente}, a nombre del RUT {rut}. Pendiente tasación.",
    "Visita a sucursal. Confirma su teléfono {telefono} y retira tarjeta. Sin observaciones.",
    "Bloqueo preventivo de la cuenta {numero} por intento de fraude; cliente contactado al {telefono}.",
    "Mandato PAC firmado por {rut_limpio} para la cuenta {numero}; copia enviada a {email}.",
]


def _tabla(columnas, filas):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(columnas)
    w.writerows(filas)
    return out.getvalue()


def muestra():
    import datoteca

    d = datoteca.Datoteca(seed=2026, hoy="2026-11-30")
    clientes, cuentas, notas = [], [], []
    personas = []
    for i in range(1, N_CLIENTES + 1):
        p = d.persona.persona()
        personas.append(p)
        rut = p["rut"]
        if i % 3 == 0:
            rut = rut.replace(".", "")          # some systems store it without dots
        elif i % 7 == 0:
            rut = rut.replace(".", "").replace("-", "")  # typed by hand: no dots, no dash
        elif i % 11 == 0:
            rut = " " + rut.lower() + " "       # pasted with spaces, a lower-case k
        telefono = d.sucio.movil()["sucio"] if i % 4 == 0 else p["telefono"]
        clientes.append([str(i), rut, p["nombres"], p["apellido_paterno"], p["apellido_materno"], p["email"], telefono,
                         p["direccion"], p["comuna"], p["region"], p["fecha_nacimiento"], p["sexo"],
                         str(d.dinero.sueldo()), d.fecha.fecha(desde=-3650, hasta=-30)])
        p["rut_cuentas"] = p["rut"].replace(".", "")
    numero = 10_000_000
    for i, p in enumerate(personas, start=1):
        for _ in range(CUENTAS_POR_CLIENTE[0] + d.integer(0, CUENTAS_POR_CLIENTE[1] - CUENTAS_POR_CLIENTE[0])):
            numero += 1 + d.integer(0, 40)
            cuerpo = int(p["rut_cuentas"].split("-")[0])
            c = d.banco.cuenta_titular(cuerpo)
            while c["tipo_cuenta"] == "CuentaRUT" and p.get("cuenta_rut"):  # BancoEstado gives one per person
                c = d.banco.cuenta_titular(cuerpo)
            # a CuentaRUT is numbered by its holder's RUT body (the library's banco.cuenta_titular does so):
            # an identifier made from a RUT, which the rule derivado masks (issues 39 and 41)
            p["cuenta_rut"] = p.get("cuenta_rut") or c["tipo_cuenta"] == "CuentaRUT"
            num = c["numero"] if c["tipo_cuenta"] == "CuentaRUT" else str(numero)
            rut_titular = p["rut_cuentas"]
            if numero % 97 == 0:  # a legacy row with a wrong check digit: real dirty data
                dv = rut_titular[-1]
                rut_titular = rut_titular[:-1] + ("0" if dv != "0" else "1")
            cuentas.append([num, rut_titular, c["banco"], c["tipo_cuenta"], str(d.integer(0, 25_000_000)),
                            d.fecha.fecha(desde=-3000, hasta=-1)])
    for i in range(1, N_NOTAS + 1):
        cuenta = cuentas[d.integer(0, len(cuentas) - 1)]
        p = next(q for q in personas if q["rut_cuentas"].split("-")[0] == cuenta[1].split("-")[0])
        texto = PLANTILLAS[d.integer(0, len(PLANTILLAS) - 1)].format(
            telefono=p["telefono"], numero=cuenta[0], email=p["email"], rut=p["rut"], rut_limpio=p["rut_cuentas"],
            patente=d.vehiculo.patente())
        notas.append([str(i), cuenta[0], d.fecha.fecha(desde=-365, hasta=0), ["sucursal", "telefono", "web"][i % 3], texto])
    return {
        "clientes.csv": _tabla(["id", "rut", "nombres", "apellido_paterno", "apellido_materno", "email", "telefono",
                                "direccion", "comuna", "region", "fecha_nacimiento", "sexo", "ingreso_mensual",
                                "fecha_alta"], clientes),
        "cuentas.csv": _tabla(["numero", "rut_titular", "banco", "tipo_cuenta", "saldo", "fecha_apertura"], cuentas),
        "notas.csv": _tabla(["id", "numero_cuenta", "fecha", "canal", "texto"], notas),
    }


def main() -> int:
    archivos = muestra()
    if "--check" in sys.argv[1:]:
        for nombre, texto in archivos.items():
            with open(os.path.join(DIR, nombre), encoding="utf-8") as f:
                if f.read() != texto:
                    print(f"ejemplos/enmascarar/{nombre} is not what tools/muestra_enmascarar.py writes", file=sys.stderr)
                    return 1
        print("the masking sample is what tools/muestra_enmascarar.py writes")
        return 0
    os.makedirs(DIR, exist_ok=True)
    for nombre, texto in archivos.items():
        with open(os.path.join(DIR, nombre), "w", encoding="utf-8", newline="") as f:
            f.write(texto)
    print(f"wrote {', '.join(archivos)} in ejemplos/enmascarar/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
