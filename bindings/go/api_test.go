package datoteca_test

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	datoteca "github.com/datoteca/datoteca/bindings/go"
)

func claseDe(err error) string {
	var e *datoteca.Error
	if !errors.As(err, &e) {
		return "not an *Error"
	}
	return e.Class + ": " + e.Message
}

// The generated methods and the by-name path give the same values from the same seed (every call of
// the golden sequence, in its order).
func TestMetodosIgualQueCall(t *testing.T) {
	a, _ := datoteca.New(datoteca.Opciones{Seed: 5, Hoy: "2026-01-01"})
	b, _ := datoteca.New(datoteca.Opciones{Seed: 5, Hoy: "2026-01-01"})
	for i := 0; i < 50; i++ {
		p, err := a.Persona.Persona(datoteca.PersonaPersonaArgs{EdadMin: datoteca.Int(10), Sexo: datoteca.SexoM})
		q, err2 := b.Call("persona.persona", datoteca.Args{"edad_min": 10, "sexo": "M"})
		if err != nil || err2 != nil || !reflect.DeepEqual(p, q) {
			t.Fatalf("value %d: %+v (%v) vs %+v (%v)", i, p, err, q, err2)
		}
		v, _ := a.Vehiculo.Vehiculo()
		w, _ := b.Call("vehiculo.vehiculo", nil)
		if !reflect.DeepEqual(v, w) {
			t.Fatalf("vehiculo %d: %+v vs %+v", i, v, w)
		}
	}
	many, _ := b.Many("direccion.direccion", 3, datoteca.Args{"region": 13})
	for _, m := range many {
		x, _ := a.Direccion.Direccion(datoteca.DireccionDireccionArgs{Region: datoteca.Int(13)})
		if !reflect.DeepEqual(m, x) || x.CodigoRegion != "13" {
			t.Fatalf("many vs method: %+v vs %+v", m, x)
		}
	}
}

// A child's record has no email nor phone: nil pointers, JSON null, the field names of every runtime.
func TestNulosYJSON(t *testing.T) {
	d, _ := datoteca.New(datoteca.Opciones{Seed: 3, Hoy: "2026-01-01"})
	p, err := d.Persona.Persona(datoteca.PersonaPersonaArgs{EdadMin: datoteca.Int(0), EdadMax: datoteca.Int(datoteca.EdadContacto - 1)})
	if err != nil || p.Email != nil || p.Telefono != nil {
		t.Fatalf("a child: %+v, %v", p, err)
	}
	b, _ := json.Marshal(p)
	if !strings.Contains(string(b), `"email":null,"telefono":null`) || !strings.HasPrefix(string(b), `{"nombres":`) {
		t.Errorf("JSON %s", b)
	}
	a, _ := d.Persona.Persona()
	if a.Email == nil || !strings.Contains(*a.Email, "@") {
		t.Errorf("an adult's email: %v", a.Email)
	}
	v, _ := d.Direccion.Direccion()
	if v.Numero <= 0 {
		t.Errorf("numero is an int64: %d", v.Numero)
	}
}

func TestRechazos(t *testing.T) {
	d, _ := datoteca.New(datoteca.Opciones{Seed: 1})
	cases := []struct {
		err  error
		want string
	}{
		{second(d.Dinero.Monto(datoteca.DineroMontoArgs{Min: datoteca.Int(math.MinInt64)})),
			"InvalidArgumentError: dinero.monto: min must be from 0 to 999999999999999, got -9223372036854775808"},
		{second(d.Call("persona.nombre", datoteca.Args{"sexo": 1})), "ArgumentTypeError: persona.nombre: sexo must be a choice's name (string), got int"},
		{second(d.Call("dinero.monto", datoteca.Args{"min": 1.5})), "ArgumentTypeError: dinero.monto: min must be an integer, got float64"},
		{second(d.Call("dinero.monto", datoteca.Args{"minimo": 1})), "ArgumentTypeError: dinero.monto() got an unexpected argument 'minimo'; it takes ['min', 'max']"},
		{second(d.Call("no.existe", nil)), "UnknownCallError: unknown call 'no.existe'"},
		{second(d.Many("rut", -1, nil)), "InvalidArgumentError: n must be from 0 to 4294967295, got -1"},
		{second(datoteca.New(datoteca.Opciones{Hoy: "2026-13-01"})), "InvalidArgumentError: hoy must be a date or 'YYYY-MM-DD', got '2026-13-01'"},
		{second(datoteca.RutDv(0)), "InvalidArgumentError: rut_dv: cuerpo must be from 1 to 99999999, got 0"},
	}
	d.Close()
	cases = append(cases, struct {
		err  error
		want string
	}{second(d.Rut()), "ClosedError: rut: this Datoteca was closed"})
	for i, c := range cases {
		if got := claseDe(c.err); got != c.want {
			t.Errorf("case %d: %s\n  expected %s", i+1, got, c.want)
		}
	}
	if !errors.Is(cases[0].err, datoteca.ErrInvalidArgument) || errors.Is(cases[0].err, datoteca.ErrUnknownCall) ||
		!errors.Is(cases[4].err, datoteca.ErrUnknownCall) || !errors.Is(cases[1].err, datoteca.ErrDatoteca) {
		t.Error("errors.Is does not match by class")
	}
}

func second[T any](_ T, err error) error { return err }
