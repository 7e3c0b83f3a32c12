#!/usr/bin/env python3
"""Write tests/mascara/notas/notas.jsonl: the labelled corpus of free-text notes that
tests/python/test_texto_notas.py masks with the rule `texto` (issue 39).

Every planted value comes from datoteca's own generators (Datoteca(SEMILLA)), and every choice of
template, spelling and distractor is drawn from the same generator, so the file is a pure function of
the library's data version and this script: run it again and it writes the same bytes.

One JSON object per line:
  {"id": N, "origen": "plantilla" | "manual", "texto": "...",
   "plantados":   [{"tipo": "rut", "grafia": "puntos", "valor": "...", "ini": a, "fin": b}, ...],
   "distractores": [{"tipo": "monto", "valor": "...", "ini": a, "fin": b}, ...]}
ini/fin are UTF-8 byte offsets into texto. Planted values are what must disappear; distractors are
ordinary text that looks like data (amounts, dates, order numbers, names that are words) and must
stay: they are listed only so the test can say which ones were touched. A distractor may say which
kind it looks like ("parece": "rut", "telefono", "patente", "nombre", "email"), for precision per kind.

After the notes of issue 39 (unchanged: the generator's draws for them come first), the notes of issue
48, from their own templates: RUTs grouped by commas and written as one run of digits without a label,
emails written for people (`nombre at gmail.com`, `[at]`, `(arroba)`, `arroba ... punto com`), a
CuentaRUT number after its label, and the row's own RUT body as a bare number; those notes carry
"fila": {"rut": "<the row's RUT>"}, the value of a `rut` column beside the note. Their distractors are
the traps: comunas named after people, codes after SKU/modelo/cód./ref./serie that look like plates
and phones, numbers after a document's word whose last digit happens to be a right check digit,
dates as YYYYMMDD, and bare numbers with no label at all (1 in 11 of which reads as a RUT: the cost
of finding the undashed ones, measured).

Usage: python3 tools/notas_corpus.py  (needs the Python binding: PYTHONPATH=bindings/python and
DATOTECA_LIBRARY=build-c/libdatoteca.so.2)."""
import json
import os
import re

import datoteca

SEMILLA = 39
NOTAS_PLANTILLA = 1900
RAIZ = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SALIDA = os.path.join(RAIZ, "tests", "mascara", "notas", "notas.jsonl")

GRAFIAS = {
    "rut": ["puntos", "guion", "pegado", "etiqueta_sin_guion", "espacio", "guion_espaciado", "dv_errado"],
    "telefono": ["internacional", "movil_junto", "troncal", "parentesis_movil", "santiago_grupos", "parentesis_fijo"],
    "email": ["email"],
    "patente": ["auto_guion", "antigua_guion", "pares_guion", "pares_punto_medio", "antigua_espacio"],
    "nombre": ["completo", "nombre_apellido", "honorifico", "inicial", "mayusculas", "minusculas", "don_dona"],
    "direccion": ["linea", "tipo_via", "depto"],
}

# A sentence per kind: {v} is the planted value; {pre} what the spelling writes before it (a label, an
# honorific), kept by the rule.
FRASES = {
    "rut": ["El cliente {pre}{v} solicita copia del contrato.", "Se validó identidad con {pre}{v} en sucursal.",
            "Titular {pre}{v}, revisar deuda vencida.", "Adjunta cédula {pre}{v} escaneada por ambos lados.",
            "Reclamo ingresado por {pre}{v} vía web."],
    "telefono": ["Llamar al {v} después de las 18:00.", "Dejó como contacto el {v}.", "No contesta el {v}, reintentar mañana.",
                 "Teléfono de recado: {v} (hermana).", "Confirmó por WhatsApp al {v}."],
    "email": ["Enviar la cartola a {v} por favor.", "Correo de contacto: {v}.", "Respondió desde {v} aceptando la oferta.",
              "Pide que no le escriban más a {v}."],
    "patente": ["Vehículo patente {v} ingresó al taller.", "Auto {v} con multa impaga.", "El {v} quedó en el estacionamiento 14.",
                "Choque leve, patente del tercero {v}."],
    "nombre": ["Atendido por {pre}{v} en caja 3.", "Conversé con {pre}{v}, queda conforme.", "Visita de {pre}{v} por reclamo.",
               "La titular autoriza a {pre}{v} a retirar la tarjeta.", "Derivado a {pre}{v} del área comercial."],
    "direccion": ["Despachar a {v}, timbre malo.", "Nueva dirección: {v}.", "Vive en {v} con su madre.",
                  "Retiro en {v} entre 9 y 13 h."],
}

DISTRACTORES = {
    "monto": ["Pagó {v} en efectivo.", "Saldo pendiente de {v}.", "Cuota de {v} con vencimiento el 5."],
    "fecha": ["Próxima visita el {v}.", "Contrato firmado el {v}.", "Vence el {v}."],
    "orden": ["Orden de compra N° {v}.", "Folio {v} anulado.", "Boleta {v} reimpresa.", "Ticket #{v} cerrado."],
    "palabra": ["{v}"],
}
PALABRAS = [
    "Le regaló una rosa a su madre.", "Firmaron la paz con el vecino.", "Se cortó la luz en todo el sector.",
    "Compró flores para la oficina.", "La flor del jardín se secó.", "Viaja a La Paz la próxima semana.",
    "El auto es un Mercedes del 2019.", "Vive en Los Ángeles desde niño.", "Reunión en Las Condes 2024 confirmada.",
    "Soto dijo que volvería.", "Trabaja en la feria de Puente Alto.", "Es de San Miguel.", "Paga en Providencia.",
    "Pidió paz y tranquilidad.", "Quedó en la calle 2 horas esperando.", "La mesa tiene 4 patas.",
    "Hora de atención 14:30.", "Descuento de 15% aplicado.", "Vino con 3 cajas y 2 bolsas.", "Es hincha de Colo Colo.",
    "Atiende de lunes a viernes.", "Rosa de los vientos en la portada.", "Luz verde para el crédito.",
    "El pasaje cuesta $ 12.345.",
]

# Hand-written notes: each one a small scene as staff write it. {kind:...} slots are filled with
# generated values in the slot's spelling (or a spelling drawn when none is given).
MANUALES = [
    "Cliente llama molesto, dice que no reconoce el cargo. Su RUT {rut:puntos}, fono {telefono:internacional}.",
    "sra {nombre:nombre_apellido} pide cambio de dirección a {direccion:tipo_via}",
    "Se envió clave provisoria a {email}. Confirmar recepción.",
    "OJO: el titular {nombre:mayusculas} tiene otro rut asociado {rut:guion}",
    "llamó {nombre:minusculas} desde el {telefono:movil_junto} preguntando por la devolución",
    "Retira vehículo {patente:auto_guion} su hijo, trae poder notarial.",
    "Dirección de despacho {direccion:depto}, llamar antes al {telefono:troncal}",
    "RUT {rut:etiqueta_sin_guion} no figura en la base, se crea ficha nueva.",
    "Atendió {nombre:honorifico}. Cliente conforme con la solución.",
    "Patente {patente:pares_guion} con TAG impago desde marzo.",
    "Se deja constancia que {nombre:completo} se presentó sin cédula.",
    "fono casa {telefono:santiago_grupos}, celular {telefono:parentesis_movil}",
    "Correo rebotado: {email}. Pedir uno nuevo.",
    "El rut que dio fue {rut:dv_errado}, parece mal digitado.",
    "Cliente indica que vive en {direccion:linea} hace 10 años.",
    "Pago recibido de {nombre:nombre_apellido}, boleta enviada a {email}.",
    "Auto {patente:antigua_espacio} antiguo, revisar papeles.",
    "Derivar a cobranza: {nombre:completo}, {rut:puntos}, deuda de $1.250.000.",
    "No contestó el {telefono:parentesis_fijo}; dejar mensaje.",
    "La señora {nombre:inicial} reclama por el despacho.",
    "Pide boleta a nombre de {nombre:completo} rut {rut:guion}.",
    "{nombre:completo} llamó 3 veces hoy.",
    "Cambio de titular a {nombre:don_dona}, RUT {rut:espacio}.",
    "El vehículo {patente:pares_punto_medio} se retira el viernes.",
    "Visita técnica en {direccion:tipo_via}, portón verde.",
    "Número alternativo {telefono:internacional} (trabajo).",
    "Se verificó {rut:guion_espaciado} con el Registro Civil.",
    "Escribir a {email} con copia a jefatura.",
    "{nombre:mayusculas} - CLIENTE VIP - NO COBRAR RECARGO",
    "cliente {nombre:minusculas} quedó de pasar el lunes",
    "Multa asociada a {patente:antigua_guion}, año 1998.",
    "Se despachó a {direccion:depto} el 12/05.",
    "Contacto: {nombre:nombre_apellido} / {telefono:movil_junto} / {email}",
    "RUT del aval: {rut:puntos}. Aval: {nombre:completo}.",
    "Llamar a {nombre:honorifico} al {telefono:troncal} para coordinar.",
    "Domicilio declarado {direccion:linea}.",
    "Se bloquea tarjeta a petición de {nombre:completo} ({rut:guion}).",
    "patente {patente:auto_guion} mal ingresada, corregida",
    "Acompañante: {nombre:don_dona}.",
    "El hijo, {nombre:nombre_apellido}, vendrá a firmar.",
    "Reclamo SERNAC de {nombre:completo}, correo {email}.",
    "Notificar en {direccion:tipo_via} o al {telefono:parentesis_movil}.",
    "El cliente dice que su rut es {rut:espacio} pero no calza.",
    "Se cambia fono a {telefono:santiago_grupos} (oficina).",
    "{nombre:inicial} autoriza el cargo automático.",
    "Datos del conductor: {nombre:completo}, patente {patente:pares_guion}.",
    "Entrega en {direccion:depto}, conserjería recibe.",
    "Llamada entrante del {telefono:internacional}, no deja nombre.",
    "Cliente {rut:dv_errado} no existe, revisar dígito.",
    "Solicitud firmada por {nombre:honorifico}.",
    "Se le explicó a {nombre:nombre_apellido} el detalle de la boleta.",
    "Correo de la empresa: {email}; contacto {nombre:completo}.",
    "Auto {patente:antigua_espacio} y moto en el mismo domicilio.",
    "rut {rut:etiqueta_sin_guion} ok",
    "Se actualiza dirección: {direccion:linea}.",
    "{nombre:mayusculas} SOLICITA CIERRE DE CUENTA",
    "Fono fijo antiguo {telefono:parentesis_fijo} ya no existe.",
    "Conversación con {nombre:don_dona} muy cordial.",
    "El tercero involucrado es {nombre:completo}, {telefono:movil_junto}.",
    "Vehículo de reemplazo {patente:pares_punto_medio}.",
    "Paciente {nombre:nombre_apellido} llega tarde a la hora.",
    "Se deja copia en {direccion:tipo_via}.",
    "{rut:puntos} solicita certificado de deuda.",
    "Cliente pide hablar con supervisor. Nombre: {nombre:completo}.",
    "Llamó {nombre:minusculas}, dejar pendiente.",
    "Enviar contrato a {email} y a {email}.",
    "Revisión técnica de {patente:auto_guion} vencida.",
    "Cambio de domicilio desde {direccion:linea} a {direccion:tipo_via}.",
    "Teléfono de emergencia: {telefono:troncal}.",
    "Firma {nombre:honorifico}, RUT {rut:puntos}.",
    "Cobro duplicado reclamado por {nombre:nombre_apellido}.",
    "Cliente extranjero, pasaporte; contacto {email}.",
    "Retiro de especies por {nombre:completo} con poder.",
    "Auto {patente:antigua_guion} vendido, pide traspaso.",
    "Dirección laboral {direccion:depto}.",
    "Hablar con {nombre:inicial} antes de cerrar.",
    "Se confirma número {telefono:santiago_grupos}.",
    "{nombre:completo} y su esposa {nombre:nombre_apellido} vienen juntos.",
    "Rut pareja {rut:guion}, rut titular {rut:puntos}.",
    "celular nuevo {telefono:parentesis_movil}",
    "Se entregó la tarjeta a {nombre:don_dona} en mano.",
    "TAG asociado a {patente:pares_guion} y {patente:auto_guion}.",
    "Mandar técnico a {direccion:tipo_via} el martes.",
    "{email} no existe según el servidor.",
    "El rut {rut:guion_espaciado} tiene bloqueo judicial.",
    "Contactar a {nombre:honorifico} por la renovación.",
    "Visita domiciliaria en {direccion:linea}: nadie en casa.",
    "cliente {nombre:minusculas} rut {rut:guion}",
    "El número {telefono:internacional} está en lista negra.",
    "Patente {patente:antigua_espacio} no registra seguro.",
    "Se llamó a {nombre:nombre_apellido} al {telefono:troncal} sin respuesta.",
    "Traspaso firmado por {nombre:completo}, notaría de Ñuñoa.",
    "Dirección incompleta: {direccion:depto}.",
    "{nombre:mayusculas} RUT {rut:puntos}",
    "Se reagenda con {nombre:inicial} para el jueves.",
    "Enviar a {email} el certificado.",
    "Fono de la oficina {telefono:parentesis_fijo}.",
    "Moto y auto {patente:pares_punto_medio} a nombre de {nombre:completo}.",
    "Se anula pedido de {nombre:don_dona}.",
    "Despacho a {direccion:tipo_via}, dejar con el vecino.",
    "Reclamo de {nombre:completo}: RUT {rut:etiqueta_sin_guion}, fono {telefono:movil_junto}.",
]


# ---- issue 48 ----
NOTAS_48 = 600
GRAFIAS_48 = {
    "rut": ["comas", "sin_guion", "cuentarut_etiqueta", "cuerpo_fila", "cuerpo_fila_puntos"],
    "email": ["at", "corchetes_at", "parentesis_arroba", "parentesis_at", "arroba_punto"],
}
FRASES_48 = {
    "comas": ["Cliente {v} pide renegociar la deuda.", "Se valida identidad, documento {v}.", "Aval {v} firma en notaría.",
              "Según la ficha el rut es {v}."],
    "sin_guion": ["Cliente {v} pide renegociar la deuda.", "Titular {v} sin deuda vigente.", "Se ingresa reclamo del {v} por cobro.",
                  "{v} consulta por su saldo.", "Rut {v} bloqueado por fraude.", "Cédula {v} vencida, pedir renovación.",
                  "Aval: {v}, sin antecedentes.", "El {v} no figura en la base."],
    "cuentarut_etiqueta": ["Abono de sueldo a CuentaRUT {v}.", "Transferencia desde Cuenta RUT {v} rechazada.",
                           "Pide cerrar la CuentaRUT N° {v}.", "Depósito en cuenta rut {v} pendiente."],
    "cuerpo_fila": ["Abono de sueldo a la cuenta {v}.", "Cargo automático a la cta {v}.", "Transferencia a cuenta vista {v} devuelta.",
                    "Deposito en CuentaRUT {v} recibido."],
    "cuerpo_fila_puntos": ["Cargo automático a la cta {v}.", "Cuenta {v} con saldo negativo.", "Se reversa abono a la cuenta {v}."],
    "email": ["Enviar la cartola a {v} por favor.", "Correo de contacto: {v}.", "Dice que su correo es {v}.",
              "Escribir a {v} con el detalle."],
}
TRAMPAS = {  # tipo: (parece, frases)
    "comuna": ("nombre", ["Vive en {v} desde niño.", "Sucursal {v} cerrada por inventario.", "Traslado a la comuna de {v}.",
                          "Oficina en {v}, segundo piso.", "Despacho a {v} sin costo."]),  # the last not with COMUNAS_NOMBRES
    "codigo_patente": ("patente", ["Producto SKU {v} sin stock.", "Impresora modelo {v} con falla.", "Repuesto ref. {v} solicitado.",
                                   "Equipo cód. {v} en garantía.", "Cambio de pieza N° de serie {v}.", "Mod. {v} descontinuado."]),
    "codigo_telefono": ("telefono", ["Producto cód. {v} agotado.", "N° de serie {v} ilegible.", "SKU {v} con descuento.",
                                     "Código {v} aplicado.", "Repuesto ref. {v} en camino."]),
    "numero_documento": ("rut", ["Folio {v} anulado.", "Pedido {v} despachado.", "Guía {v} extraviada.", "Póliza {v} renovada.",
                                 "Seguimiento {v} sin movimiento.", "Contrato {v} firmado.", "Pagó {v} pesos en caja."]),
    "fecha_compacta": ("rut", ["Fecha de proceso {v}.", "Lote del {v} rechazado."]),
    "numero_libre": ("rut", ["Archivo adjunto de {v} bytes.", "Acumula {v} puntos en el programa.", "Se leyeron {v} registros.",
                             "Medidor marca {v} kWh."]),
    "palabra_email": ("email", ["{v}"]),
}
PALABRAS_EMAIL = ["El símbolo arroba no funciona en su teclado.", "Llegó at home según el courier.", "Dice que no tiene correo.",
                  "Se escribe con arroba y punto com, le cuesta.", "Pagó at the counter, sucursal centro."]
COMUNAS_PERSONAS = ["Pedro Aguirre Cerda", "San Pedro de la Paz", "Padre Las Casas", "Padre Hurtado", "San José de Maipo",
                    "San Juan de la Costa", "María Elena", "María Pinto", "Juan Fernández", "San Pedro de Atacama",
                    "Santa María", "San Ramón", "San Joaquín"]
# comunas that are a person's two-word name too: a place only after a place's word ("en", "comuna de",
# "Sucursal"); "Despacho a Juan Fernández" is a person to texto, so not a trap
COMUNAS_NOMBRES = {"María Elena", "María Pinto", "Juan Fernández"}
MANUALES_48 = [
    "Cliente llama por cargo no reconocido. RUT {rut:comas}, correo {email:at}.",
    "Abono de sueldo a CuentaRUT {rut:cuerpo_fila} no se refleja, cliente molesto.",
    "vive en [[comuna|Pedro Aguirre Cerda]], pide cambio de sucursal a [[comuna|San Pedro de la Paz]]. rut {rut:sin_guion}",
    "Se envía SKU [[codigo_patente|LB6709]] de reemplazo; contacto {email:corchetes_at}.",
    "Impresora modelo [[codigo_patente|KC 2023]] y cód. [[codigo_telefono|983984536]] en garantía, cliente {rut:sin_guion}.",
    "Correo: {email:parentesis_arroba} (lo dictó por teléfono).",
    "Transferencia rechazada a la cta {rut:cuerpo_fila_puntos}, revisar con el banco.",
    "Desde [[comuna|Padre Las Casas]] escribe {email:arroba_punto}.",
    "{rut:sin_guion} solicita certificado, retira en [[comuna|Padre Hurtado]].",
    "Pide que le escriban a {email:parentesis_at} y no al fono.",
    "Depósito en CuentaRUT {rut:cuentarut_etiqueta} devuelto por el banco.",
    "Reclamo de {rut:comas}: ref. [[codigo_patente|AB1234]] llegó dañado.",
    "Cliente de [[comuna|San José de Maipo]], cuenta {rut:cuerpo_fila}.",
    "Folio [[numero_documento|178916998]] anulado; cliente {rut:sin_guion} conforme.",
    "Escribe desde {email:at} pidiendo la boleta, N° de serie [[codigo_telefono|912345678]].",
]


class Nota:
    def __init__(self):
        self.partes = []  # bytes
        self.plantados = []
        self.distractores = []
        self.fila = None  # issue 48: the row's RUT, in a rut column beside the note

    def texto(self, t):
        self.partes.append(t.encode("utf-8"))

    def largo(self):
        return sum(len(p) for p in self.partes)

    def valor(self, lista, registro, t):
        a = self.largo()
        self.texto(t)
        registro["ini"], registro["fin"] = a, self.largo()
        registro["valor"] = t
        lista.append(registro)


def digitos(t):
    return re.sub(r"\D", "", t)


class Generador:
    def __init__(self):
        self.d = datoteca.Datoteca(SEMILLA)

    def uno(self, lista):
        return lista[self.d.integer(0, len(lista) - 1)]

    def valor(self, tipo, grafia):
        """(text written before the value, the value) in the spelling."""
        d = self.d
        if tipo == "rut":
            while True:  # a body of 7 or 8 digits (a persona's RUT)
                r = d.rut()
                cuerpo, dv = r.replace(".", "").split("-")
                if len(cuerpo) >= 7:
                    break
            pun = r
            if grafia == "puntos":
                return "RUT ", pun
            if grafia == "guion":
                return "", f"{cuerpo}-{dv}"
            if grafia == "pegado":
                return "rut", f"{cuerpo}-{dv}"
            if grafia == "etiqueta_sin_guion":
                return self.uno(["RUT: ", "RUT ", "rut: ", "RUN "]), f"{cuerpo}{dv}"
            if grafia == "espacio":
                return "", f"{cuerpo} {dv}"
            if grafia == "guion_espaciado":
                return "", f"{pun[:-2]} - {dv}"
            if grafia == "dv_errado":
                malo = self.uno([c for c in "0123456789K" if c != dv])
                return "", (pun[:-1] if d.integer(0, 1) else f"{cuerpo}-") + malo
        if tipo == "telefono":
            if grafia in ("santiago_grupos", "parentesis_fijo"):
                t = d.telefono.fijo(13) if grafia == "santiago_grupos" or d.integer(0, 1) else d.telefono.fijo()
                g = digitos(t)[2:]  # area + subscriber
                area = g[:-8] if g.startswith("2") else g[:-7]
                sub = g[len(area):]
                if grafia == "santiago_grupos":
                    return "", f"{g[:2]} {g[2:5]} {g[5:]}"
                return "", f"({area}) {sub[:-4]} {sub[-4:]}"
            t = d.telefono.movil()
            g = digitos(t)[2:]
            if grafia == "internacional":
                return "", t
            if grafia == "movil_junto":
                return "", g
            if grafia == "troncal":
                return "", f"0{g[0]}-{g[1:5]} {g[5:]}"
            if grafia == "parentesis_movil":
                return "", f"({g[0]}) {g[1:5]} {g[5:]}"
        if tipo == "email":
            return "", d.persona.email()
        if tipo == "patente":
            if grafia.startswith("antigua"):
                p = d.vehiculo.patente("antigua").replace("·", "").replace("-", "").replace(".", "")
                return "", p[:2] + ("-" if grafia == "antigua_guion" else " ") + p[2:]
            p = d.vehiculo.patente("auto").replace("·", "").replace("-", "").replace(".", "")
            if grafia == "auto_guion":
                return "", f"{p[:4]}-{p[4:]}"
            if grafia == "pares_guion":
                return "", f"{p[:2]}-{p[2:4]}-{p[4:]}"
            if grafia == "pares_punto_medio":
                return "", f"{p[:2]}·{p[2:4]}·{p[4:]}"
        if tipo == "nombre":
            per = d.persona.persona()
            nombres, pat, mat = per["nombres"], per["apellido_paterno"], per["apellido_materno"]
            primero = nombres.split(" ")[0]
            honor = ("Sra. " if per["sexo"] == "F" else "Sr. ") if d.integer(0, 1) else ("Srta. " if per["sexo"] == "F" else "Dr. ")
            if grafia == "completo":
                return "", per["nombre_completo"]
            if grafia == "nombre_apellido":
                return "", f"{primero} {pat}"
            if grafia == "honorifico":
                return honor, f"{primero} {pat}" if d.integer(0, 1) else pat
            if grafia == "inicial":
                return "", f"{primero[0]}. {pat}"
            if grafia == "mayusculas":
                return "", f"{primero} {pat} {mat}".upper()
            if grafia == "minusculas":
                return "", f"{primero} {pat}".lower()
            if grafia == "don_dona":
                return ("doña " if per["sexo"] == "F" else "don "), f"{primero} {pat}"
        if tipo == "direccion":
            dr = d.direccion.direccion()
            if grafia == "linea":
                return "", dr["linea"].split(",")[0]
            tipo_via = self.uno(["Calle", "Avenida", "Av.", "Pasaje", "Psje.", "Camino"])
            base = f"{tipo_via} {dr['nombre_via']} {dr['numero']}"
            if grafia == "tipo_via":
                return "", base
            return "", base + self.uno([" depto ", " dpto. ", ", depto ", " casa "]) + str(d.integer(1, 1500))
        raise ValueError((tipo, grafia))

    def rut_cuerpo(self, n=(7, 8)):
        while True:
            r = self.d.rut()
            cuerpo, dv = r.replace(".", "").split("-")
            if len(cuerpo) in n:
                return r, cuerpo, dv

    def valor48(self, nota, tipo, grafia):
        """(text written before the value, the value) in an issue-48 spelling."""
        d = self.d
        if tipo == "rut":
            if grafia == "comas":
                r, _, _ = self.rut_cuerpo()
                return "", r.replace(".", ",")
            if grafia == "sin_guion":
                _, cuerpo, dv = self.rut_cuerpo((7, 8))
                return "", cuerpo + dv
            if grafia == "cuentarut_etiqueta":
                _, cuerpo, _ = self.rut_cuerpo()
                return "", cuerpo
            if grafia in ("cuerpo_fila", "cuerpo_fila_puntos"):
                if nota.fila is None:
                    nota.fila, _, _ = self.rut_cuerpo()
                pun = nota.fila.split("-")[0]
                return "", pun if grafia == "cuerpo_fila_puntos" else pun.replace(".", "")
        if tipo == "email":
            e = d.persona.email()
            local, dom = e.split("@")
            if grafia == "at":
                return "", f"{local} at {dom}"
            if grafia == "corchetes_at":
                return "", f"{local} [at] {dom}"
            if grafia == "parentesis_arroba":
                return "", f"{local}(arroba){dom}"
            if grafia == "parentesis_at":
                return "", f"{local} (at) {dom}"
            if grafia == "arroba_punto":
                return "", f"{local} arroba {dom.replace('.', ' punto ')}"
        raise ValueError((tipo, grafia))

    def trampa(self, tipo):
        d = self.d
        if tipo == "comuna":
            return self.uno(COMUNAS_PERSONAS)
        if tipo == "codigo_patente":
            p = d.vehiculo.patente(self.uno(["auto", "antigua"])).replace("·", "").replace("-", "").replace(".", "")
            return self.uno([p, p[:2] + " " + p[2:] if p[2].isdigit() else p])
        if tipo == "codigo_telefono":
            return re.sub(r"\D", "", d.telefono.movil())[2:]
        if tipo == "numero_documento":  # a number whose last digit is its check digit: a RUT without dash to a scanner
            _, cuerpo, dv = self.rut_cuerpo()
            return cuerpo + dv if dv != "K" else cuerpo + "0"
        if tipo == "fecha_compacta":
            return d.fecha.fecha().replace("-", "")
        if tipo == "numero_libre":
            return str(d.integer(10000000, 89999999))
        return self.uno(PALABRAS_EMAIL)

    def distractor(self, tipo):
        d = self.d
        if tipo == "monto":
            return self.uno([d.dinero.clp(), "$ " + d.dinero.clp(1000000, 99999999)[1:], d.dinero.clp()[1:] + " pesos"])
        if tipo == "fecha":
            f = d.fecha.fecha()
            return self.uno([f, f"{f[8:]}/{f[5:7]}/{f[:4]}", f"{f[8:]}-{f[5:7]}-{f[:4]}"])
        if tipo == "orden":
            return str(d.integer(10000000, 999999999))
        return self.uno(PALABRAS)


def plantar(nota, g, tipo, grafia, frase):
    pre, v = g.valor(tipo, grafia)
    a, b = frase.split("{v}")
    a = a.replace("{pre}", pre) if "{pre}" in a else a + pre
    if tipo == "rut" and grafia == "pegado":
        a = a.replace("{pre}", "")
    nota.texto(a)
    nota.valor(nota.plantados, {"tipo": tipo, "grafia": grafia}, v)
    nota.texto(b)


def distraer(nota, g, tipo):
    frase = g.uno(DISTRACTORES[tipo])
    v = g.distractor(tipo)
    a, b = frase.split("{v}")
    nota.texto(a)
    nota.valor(nota.distractores, {"tipo": tipo}, v)
    nota.texto(b)


def main():
    g = Generador()
    notas = []
    # templates: each note 2 to 4 sentences, one planted value each (spellings in turn, so every
    # spelling gets its share), a distractor sentence between them
    turno = {t: 0 for t in GRAFIAS}
    tipos = list(GRAFIAS)
    for i in range(NOTAS_PLANTILLA):
        nota = Nota()
        for s in range(g.d.integer(1, 3)):
            if s:
                nota.texto(" ")
            tipo = tipos[(i * 3 + s) % len(tipos)]
            grafia = GRAFIAS[tipo][turno[tipo] % len(GRAFIAS[tipo])]
            turno[tipo] += 1
            plantar(nota, g, tipo, grafia, g.uno(FRASES[tipo]))
            nota.texto(" ")
            distraer(nota, g, g.uno(list(DISTRACTORES)))
        notas.append(("plantilla", nota))
    # hand-written notes, each written twice with other values
    for vuelta in range(2):
        for m in MANUALES:
            nota = Nota()
            pos = 0
            for x in re.finditer(r"\{(\w+)(?::(\w+))?\}", m):
                nota.texto(m[pos:x.start()])
                tipo, grafia = x.group(1), x.group(2) or g.uno(GRAFIAS[x.group(1)])
                pre, v = g.valor(tipo, grafia)
                # the hand-written text has its own label or honorific: keep only the value
                if tipo == "nombre" and grafia in ("honorifico", "don_dona"):
                    nota.texto(pre)
                if tipo == "rut" and grafia == "pegado":
                    nota.texto(pre)
                nota.valor(nota.plantados, {"tipo": tipo, "grafia": grafia}, v)
                pos = x.end()
            nota.texto(m[pos:])
            notas.append(("manual", nota))
    # issue 48: its templates, after every draw of the notes above (which stay as they were)
    turno = {t: 0 for t in GRAFIAS_48}
    tipos48 = list(GRAFIAS_48)
    trampas = list(TRAMPAS)
    for i in range(NOTAS_48):
        nota = Nota()
        for s in range(g.d.integer(1, 3)):
            if s:
                nota.texto(" ")
            tipo = tipos48[(i + s) % len(tipos48)]
            grafia = GRAFIAS_48[tipo][turno[tipo] % len(GRAFIAS_48[tipo])]
            turno[tipo] += 1
            pre, v = g.valor48(nota, tipo, grafia)
            a, b = g.uno(FRASES_48[grafia if tipo == "rut" else "email"]).split("{v}")
            nota.texto(a + pre)
            nota.valor(nota.plantados, {"tipo": tipo, "grafia": grafia}, v)
            nota.texto(b + " ")
            t = trampas[(i * 3 + s) % len(trampas)]
            parece, frases = TRAMPAS[t]
            v = g.trampa(t)
            if v in COMUNAS_NOMBRES:
                frases = [f for f in frases if not f.startswith("Despacho a")]
            a, b = g.uno(frases).split("{v}")
            nota.texto(a)
            nota.valor(nota.distractores, {"tipo": t, "parece": parece}, v)
            nota.texto(b)
        notas.append(("plantilla48", nota))
    for vuelta in range(2):
        for m in MANUALES_48:
            nota = Nota()
            pos = 0
            for x in re.finditer(r"\{(\w+):(\w+)\}|\[\[(\w+)\|([^\]]+)\]\]", m):
                nota.texto(m[pos:x.start()])
                pos = x.end()
                if x.group(3):  # a trap written in the note: [[tipo|text]]
                    nota.valor(nota.distractores, {"tipo": x.group(3), "parece": TRAMPAS[x.group(3)][0]}, x.group(4))
                    continue
                pre, v = g.valor48(nota, x.group(1), x.group(2))
                nota.texto(pre)
                nota.valor(nota.plantados, {"tipo": x.group(1), "grafia": x.group(2)}, v)
            nota.texto(m[pos:])
            notas.append(("manual48", nota))
    os.makedirs(os.path.dirname(SALIDA), exist_ok=True)
    with open(SALIDA, "w", encoding="utf-8", newline="\n") as f:
        for i, (origen, nota) in enumerate(notas):
            texto = b"".join(nota.partes)
            for r in nota.plantados + nota.distractores:
                assert texto[r["ini"]:r["fin"]].decode("utf-8") == r["valor"], r
            linea = {"id": i, "origen": origen, "texto": texto.decode("utf-8"), "plantados": nota.plantados,
                     "distractores": nota.distractores}
            if nota.fila is not None:
                linea["fila"] = {"rut": nota.fila}
            f.write(json.dumps(linea, ensure_ascii=False) + "\n")
    print(f"{len(notas)} notes, {sum(len(n.plantados) for _, n in notas)} planted values -> {os.path.relpath(SALIDA, RAIZ)}")


if __name__ == "__main__":
    main()
