package datoteca_test

import (
	"errors"
	"fmt"

	datoteca "github.com/datoteca/datoteca/bindings/go"
)

func Example() {
	d, err := datoteca.New(datoteca.Opciones{Seed: 42})
	if err != nil {
		panic(err)
	}
	defer d.Close()
	rut, _ := d.Rut()
	nombre, _ := d.Persona.Nombre(datoteca.PersonaNombreArgs{Sexo: datoteca.SexoF})
	fmt.Println(rut, datoteca.ValidarRut(rut))
	fmt.Println(nombre)
	// Output:
	// 13.354.725-8 true
	// Lidia
}

func ExampleEspacioPersona_Persona() {
	d, _ := datoteca.New(datoteca.Opciones{Seed: 42, Hoy: "2026-01-01"})
	defer d.Close()
	p, _ := d.Persona.Persona()
	fmt.Println(p.NombreCompleto, p.Rut, p.FechaNacimiento, p.Comuna)
	// Output:
	// Lidia Pamela Moya González 17.697.756-6 1992-10-02 Vitacura
}

func ExampleError() {
	d, _ := datoteca.New(datoteca.Opciones{Seed: 1})
	defer d.Close()
	_, err := d.Direccion.Comuna(datoteca.DireccionComunaArgs{Region: datoteca.Int(17)})
	var e *datoteca.Error
	fmt.Println(errors.As(err, &e), e.Class, e.Status)
	fmt.Println(errors.Is(err, datoteca.ErrInvalidArgument))
	fmt.Println(err)
	// Output:
	// true InvalidArgumentError 2
	// true
	// direccion.comuna: region must be from 0 to 16 (0 = any region), got 17
}

func ExampleFormatearRut() {
	s, _ := datoteca.FormatearRut("123456785", datoteca.FormatoRutPuntos)
	fmt.Println(s)
	_, err := datoteca.FormatearRut("12.345.678-4", "")
	fmt.Println(err)
	// Output:
	// 12.345.678-5
	// formatear_rut: rut is not a valid RUT
}

func ExampleNuevaTabla() {
	t, _ := datoteca.NuevaTabla("persona.persona", datoteca.TablaOpciones{Seed: 42, Campos: []string{"rut", "email"},
		Unico: []string{"rut"}})
	defer t.Close()
	filas, _ := t.Filas(1000000, 2)
	for _, f := range filas {
		fmt.Println(f...)
	}
	// Output:
	// 13.962.848-9 jmancilla165@gmail.com
	// 7.095.042-1 martaparra910@hotmail.com
}
