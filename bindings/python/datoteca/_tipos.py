"""The records datoteca returns, as TypedDicts (every field is a str)."""
from __future__ import annotations

import sys

if sys.version_info >= (3, 8):
    from typing import Literal, TypedDict
else:  # pragma: no cover
    from typing_extensions import Literal, TypedDict

Sexo = Literal["F", "M"]
TipoRut = Literal["persona", "empresa"]
FormatoRut = Literal["puntos", "guion", "limpio"]
FormatoTelefono = Literal["internacional", "e164", "nacional"]


class TableInfo(TypedDict):
    """One reference table: its name, its number of entries and the digest of its content."""

    name: str
    rows: int
    digest: str


class PersonaDict(TypedDict):
    nombres: str
    apellido_paterno: str
    apellido_materno: str
    nombre_completo: str
    sexo: str
    rut: str
    fecha_nacimiento: str
    email: str
    telefono: str
    direccion: str
    comuna: str
    region: str


class DireccionDict(TypedDict):
    tipo_via: str
    nombre_via: str
    numero: str
    depto: str
    comuna: str
    codigo_comuna: str
    provincia: str
    codigo_provincia: str
    region: str
    codigo_region: str
    codigo_postal: str
    linea: str


class BancoDict(TypedDict):
    codigo: str
    nombre: str


class CuentaDict(TypedDict):
    banco: str
    codigo_banco: str
    tipo_cuenta: str
    numero: str
    rut_titular: str


class EmpresaDict(TypedDict):
    razon_social: str
    nombre_fantasia: str
    rut: str
    giro: str
    direccion: str
    comuna: str
    region: str
    telefono: str
    email: str
