"""A user's file: `mypy --strict` must accept it (tests/python/test_api.py runs it)."""
import datetime
from typing import List, Optional

import datoteca
from datoteca import Datoteca, PersonaDict


def clientes(n: int) -> List[PersonaDict]:
    d = Datoteca(seed=42, hoy=datetime.date(2025, 6, 1))
    return [d.persona.persona(sexo="F", edad_min=20, edad_max=30) for _ in range(n)]


d = Datoteca(seed="demo")
rut: str = d.rut("empresa", "limpio")
ok: bool = datoteca.validar_rut(rut)
comuna: str = d.direccion.comuna(region=13)
monto: int = d.dinero.monto(min=0, max=100)
linea: str = d.direccion.direccion()["linea"]
estado: bytes = d.save_state()
hijo: Datoteca = d.derive("facturas")
nombres: List[str] = hijo.many("persona.nombre", 10, sexo="M")
email: Optional[str] = clientes(2)[0]["email"]  # None for someone under 14

# many() and call() typed by call name, no cast (2.0)
personas: List[PersonaDict] = d.many("persona.persona", 3, edad_min=30)
nombre_f: str = d.persona.nombre(sexo="cualquiera")
dte: datoteca.DteDict = d.call("tributario.dte")
folios: List[int] = d.many("tributario.folio", 2)
filas = datoteca.Tabla("persona.persona", seed=1).filas(2)

# a schema's table as Arrow batches, typed (2.1)
esquema = datoteca.Esquema("[tablas.t]\nfilas = 3\n[tablas.t.columnas]\nid = { serie = true }\n", seed=1)
lotes_t: datoteca.LotesEsquema = esquema.arrow("t", 2, desde=1, lote=10)
capsula: object = lotes_t.__arrow_c_stream__()
