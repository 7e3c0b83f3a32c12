/* What a column's name says it holds (detector_nombres.c), for detector.c only. Internal. */
#ifndef DT_DETECTOR_NOMBRES_H
#define DT_DETECTOR_NOMBRES_H

enum {
    DT__DN_NINGUNA = 0,
    DT__DN_ID,              /* id, customer_id, uuid: an identifier of a row */
    DT__DN_NOMBRE,          /* a given name: first_name, FirstName, nome, nombres */
    DT__DN_APELLIDO,        /* last_name, surname, sobrenome, apellido_paterno */
    DT__DN_NOMBRE_COMPLETO, /* full_name, contact_name, customer_name */
    DT__DN_NOMBRE_SOLO,     /* name, nombre, nome alone: a person's in a table of people */
    DT__DN_USUARIO,         /* username, login, usuario */
    DT__DN_TELEFONO,        /* phone, fax, mobile, celular */
    DT__DN_EMAIL,
    DT__DN_DIRECCION,       /* address, address2, street, endereco */
    DT__DN_POSTAL,          /* zip, postal_code, cep */
    DT__DN_NACIMIENTO,      /* birth_date, dob, data_nascimento */
    DT__DN_DOCUMENTO,       /* passport, national_id, cpf, dni */
    DT__DN_IP,
    DT__DN_COORDENADA,      /* lat, lng, latitude */
    DT__DN_FOTO,            /* photo, picture, avatar */
    DT__DN_CLAVE,           /* password, hash, salt, token */
    DT__DN_NOTA,            /* notes, comments, observaciones */
    DT__DN_MONTO,           /* amount, balance, debe, haber, saldo */
    DT__DN_COMUNA,
    DT__DN_CODIGO_COMUNA,
    DT__DN_CODIGO_REGION,
    DT__DN_REGION,
    DT__DN_PROVINCIA,
    DT__DN_SEXO
};

/* The kind (DT__DN_*) a column's name says, from its words; columna not NULL. */
int dt__dn_pista(const char *columna);
/* Whether a table's name (NULL: not known) says its rows are people: customer, staff, empleados. */
int dt__dn_tabla_personas(const char *tabla);

#endif
