// Package datoteca is deterministic, realistic Chilean test data (RUTs, people, addresses, companies,
// plates, payslips, tax documents) from the one C core every datoteca runtime shares: the same seed
// gives the same values in Go, C, Python, Node and the CLI.
//
// cgo compiles the bundled C sources (a C compiler is all it takes, docs/go.md). The calls, records,
// constants and error classes are generated from spec/ (the *.gen.go files); this file is the
// hand-written loader: it converts arguments, calls the library's generic ABI and returns its values
// or its own sentence as an *Error.
//
// A Datoteca is not safe for concurrent use: use one per goroutine (New is cheap). The utilities
// (ValidarRut, FormatearRut, …), Tabla and Esquema are safe from any goroutine.
package datoteca

/*
#cgo CFLAGS: -std=c11 -O2 -fvisibility=hidden -I${SRCDIR}/../../c/include -I${SRCDIR}/../../c/src
#cgo LDFLAGS: -lpthread
#include <stdlib.h>
#include "datoteca.h"
*/
import "C"

import (
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"unsafe"
)

// Error is every error datoteca returns: the class (the same name as in Python and Node, e.g.
// "InvalidArgumentError"), the C status and its name, and the one English sentence the library wrote.
// errors.As(err, &e) gives it; errors.Is(err, ErrInvalidArgument) matches its class.
type Error struct {
	Class   string // "InvalidArgumentError", "UnknownCallError", …
	Status  int    // the C status (2 = DT_ERR_INVALID_ARG)
	Code    string // the status's C name, "DT_ERR_INVALID_ARG"
	Message string // the sentence
}

func (e *Error) Error() string { return e.Message }

// Is matches a class sentinel (ErrInvalidArgument, …); ErrDatoteca matches every *Error.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok || t.Message != "" {
		return false
	}
	return t == ErrDatoteca || t.Class == e.Class
}

func nuevoError(status int, message string) *Error {
	clase, ok := claseDe[status]
	if !ok {
		clase = "DatotecaError"
	}
	return &Error{Class: clase, Status: status, Code: codigos[status], Message: message}
}

func errorTipo(message string) *Error {
	st := int(C.DT_ERR_INVALID_ARG)
	return &Error{Class: claseTipo, Status: st, Code: codigos[st], Message: message}
}

func errorArg(message string) *Error { return nuevoError(int(C.DT_ERR_INVALID_ARG), message) }

// errorDe is the error of a non-zero status: the sentence in buf when the library wrote one, else
// "what: <the status text>".
func errorDe(st C.dt_status, what string, buf []byte) error {
	if st == C.DT_ERR_NULL {
		return &Error{Class: "ClosedError", Status: int(st), Code: codigos[int(st)], Message: what + ": this Datoteca was closed"}
	}
	text := ""
	if buf != nil {
		if k := strings.IndexByte(string(buf), 0); k >= 0 {
			text = string(buf[:k])
		}
	}
	if text == "" {
		text = what + ": " + C.GoString(C.dt_status_str(C.int(st)))
	}
	return nuevoError(int(st), text)
}

func init() {
	if major := int(C.dt_version_number()) / 10000; major != AbiMajor {
		panic(fmt.Sprintf("datoteca: the bundled C library is version %s, this binding needs major version %d",
			C.GoString(C.dt_version()), AbiMajor))
	}
}

// Version is the C library's version ("3.0.0").
func Version() string { return C.GoString(C.dt_version()) }

// DataVersion is the version of the generated data (fixtures/golden.json records it).
func DataVersion() int { return int(C.dt_data_version()) }

// ---- the call and utility registries ---------------------------------------------------------

type param struct {
	nombre   string
	opciones map[string]int64 // nil for an integer
}

type llamada struct {
	index  int
	nombre string
	kind   int
	info   *C.dt_call_info
	params []param
	campos []string
	util   bool
	hacer  func([]string) any // a record call's builder (generated)
}

var (
	porNombre  = registro(false)
	utilidades = registro(true)
)

func registro(util bool) map[string]*llamada {
	out := map[string]*llamada{}
	n := int(C.dt_call_count())
	if util {
		n = int(C.dt_util_count())
	}
	for i := 0; i < n; i++ {
		var info *C.dt_call_info
		if util {
			info = C.dt_util_at(C.size_t(i))
		} else {
			info = C.dt_call_at(C.size_t(i))
		}
		ll := &llamada{index: i, nombre: C.GoString(info.name), kind: int(info.kind), info: info, util: util}
		if !util {
			ll.hacer = registroDe(ll.nombre)
		}
		ps := unsafe.Slice(info.params, int(info.nparams))
		for _, p := range ps {
			q := param{nombre: C.GoString(p.name)}
			if p.choices != nil {
				q.opciones = map[string]int64{}
				names := unsafe.Slice(p.choices, int(p.max-p.min+1))
				for k, s := range names {
					q.opciones[C.GoString(s)] = int64(p.min) + int64(k)
				}
			}
			ll.params = append(ll.params, q)
		}
		for _, f := range unsafe.Slice(info.fields, int(info.nfields)) {
			ll.campos = append(ll.campos, C.GoString(f))
		}
		out[ll.nombre] = ll
	}
	return out
}

func buscarLlamada(nombre string) *llamada {
	ll := porNombre[nombre]
	if ll == nil {
		panic("datoteca: the bundled C library has no call " + nombre + " (the generated Go is not the library's)")
	}
	return ll
}

func buscarUtilidad(nombre string) *llamada {
	ll := utilidades[nombre]
	if ll == nil {
		panic("datoteca: the bundled C library has no utility " + nombre + " (the generated Go is not the library's)")
	}
	return ll
}

// Llamadas are the names of every call, in registry order.
func Llamadas() []string {
	out := make([]string, int(C.dt_call_count()))
	for i := range out {
		out[i] = C.GoString(C.dt_call_at(C.size_t(i)).name)
	}
	return out
}

// Referencia is one reference table the data is drawn from, with the digest of its content.
type Referencia struct {
	Nombre string
	Filas  int
	Digest uint64
}

// Referencias are the reference tables in the library's order (fixtures/fingerprint.json).
func Referencias() []Referencia {
	out := make([]Referencia, int(C.dt_referencia_count()))
	for i := range out {
		var info C.dt_referencia_info
		C.dt_referencia_at(C.size_t(i), &info)
		out[i] = Referencia{C.GoString(info.name), int(info.rows), uint64(info.digest)}
	}
	return out
}

// ---- arguments --------------------------------------------------------------------------------

const argDefault = math.MinInt64 // DT_ARG_DEFAULT: the parameter takes its default, in C

// argumentos converts one call's arguments to the C array: absent values pass DT_ARG_DEFAULT, a choice
// name its value (an unknown name is refused with the library's sentence); the library checks the rest.
type argumentos struct {
	ll     *llamada
	v      []int64
	minimo int // 1 + the index of a value equal to DT_ARG_DEFAULT (C cannot see it)
	err    error
}

func nuevosArgumentos(ll *llamada) *argumentos {
	a := &argumentos{ll: ll, v: make([]int64, len(ll.params))}
	for i := range a.v {
		a.v[i] = argDefault
	}
	return a
}

func (a *argumentos) entero(i int, p *int64) {
	if p == nil {
		return
	}
	if *p == argDefault && a.minimo == 0 {
		a.minimo = i + 1
		a.v[i] = argDefault + 1 // the nearest value C can see; fin puts the given one in the sentence
		return
	}
	a.v[i] = *p
}

func (a *argumentos) opcion(i int, nombre string) {
	if nombre == "" || a.err != nil {
		return
	}
	if k, ok := a.ll.params[i].opciones[nombre]; ok {
		a.v[i] = k
		return
	}
	cs := C.CString(nombre)
	defer C.free(unsafe.Pointer(cs))
	var out C.int64_t
	why := make([]byte, SentenceMax)
	st := C.dt_param_choice(a.ll.info, C.size_t(i), cs, C.size_t(len(nombre)), &out,
		(*C.char)(unsafe.Pointer(&why[0])), C.size_t(len(why)), nil)
	if st != 0 {
		a.err = errorDe(st, a.ll.nombre, why)
		return
	}
	a.v[i] = int64(out)
}

func (a *argumentos) fin() ([]int64, error) {
	if a.err != nil {
		return nil, a.err
	}
	if a.minimo == 0 {
		return a.v, nil
	}
	why := make([]byte, SentenceMax)
	var st C.dt_status
	if a.ll.util {
		st = C.dt_util(C.size_t(a.ll.index), nil, 0, (*C.int64_t)(unsafe.Pointer(&a.v[0])), C.size_t(len(a.v)),
			(*C.char)(unsafe.Pointer(&why[0])), C.size_t(len(why)), nil)
	} else {
		st = C.dt_call_check(C.size_t(a.ll.index), (*C.int64_t)(unsafe.Pointer(&a.v[0])), C.size_t(len(a.v)),
			(*C.char)(unsafe.Pointer(&why[0])), C.size_t(len(why)), nil)
	}
	msg := ""
	if st == C.DT_ERR_INVALID_ARG {
		msg = cadena(why)
	}
	seen := "got " + strconv.FormatInt(argDefault+1, 10)
	if strings.HasSuffix(msg, seen) {
		msg = strings.TrimSuffix(msg, seen) + "got " + strconv.FormatInt(argDefault, 10)
	}
	return nil, errorArg(msg)
}

type conValores interface{ valores(*argumentos) }

// valoresDe is the C array of a generated method's optional argument struct.
func valoresDe[T conValores](ll *llamada, a []T) ([]int64, error) {
	if len(a) == 0 {
		return nil, nil
	}
	if len(a) > 1 {
		return nil, errorTipo(fmt.Sprintf("%s: takes at most one arguments struct, got %d", ll.nombre, len(a)))
	}
	x := nuevosArgumentos(ll)
	a[0].valores(x)
	return x.fin()
}

// Args are a call's arguments by name for Call, Many and Tabla: an integer (int, int64, …) or a
// choice's name (string). A name left out takes the library's default.
type Args map[string]any

func (ll *llamada) desdeArgs(args Args) ([]int64, error) {
	if len(args) == 0 {
		return nil, nil
	}
	x := nuevosArgumentos(ll)
	names := make([]string, len(ll.params))
	for i, p := range ll.params {
		names[i] = "'" + p.nombre + "'"
	}
	for k := range args {
		found := false
		for _, p := range ll.params {
			found = found || p.nombre == k
		}
		if !found {
			return nil, errorTipo(fmt.Sprintf("%s() got an unexpected argument '%s'; it takes [%s]", ll.nombre, k,
				strings.Join(names, ", ")))
		}
	}
	for i, p := range ll.params {
		v, ok := args[p.nombre]
		if !ok || v == nil {
			continue
		}
		if p.opciones != nil {
			s, ok := v.(string)
			if !ok {
				return nil, errorTipo(fmt.Sprintf("%s: %s must be a choice's name (string), got %T", ll.nombre, p.nombre, v))
			}
			x.opcion(i, s)
			continue
		}
		n, ok := comoEntero(v)
		if !ok {
			return nil, errorTipo(fmt.Sprintf("%s: %s must be an integer, got %T", ll.nombre, p.nombre, v))
		}
		x.entero(i, &n)
	}
	return x.fin()
}

func comoEntero(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int8:
		return int64(n), true
	case int16:
		return int64(n), true
	case int32:
		return int64(n), true
	case int64:
		return n, true
	case uint8:
		return int64(n), true
	case uint16:
		return int64(n), true
	case uint32:
		return int64(n), true
	case uint:
		if uint64(n) <= math.MaxInt64 {
			return int64(n), true
		}
		return math.MaxInt64, true // C refuses it, naming the nearest value it can see
	case uint64:
		if n <= math.MaxInt64 {
			return int64(n), true
		}
		return math.MaxInt64, true
	}
	return 0, false
}

func cadena(buf []byte) string {
	if k := strings.IndexByte(string(buf), 0); k >= 0 {
		return string(buf[:k])
	}
	return string(buf)
}

// ---- the instance -----------------------------------------------------------------------------

// Opciones configure New. The zero value is seed 0 and the library's default reference date.
type Opciones struct {
	Seed      uint64 // the numeric seed
	SeedTexto string // when not "": a text seed (its UTF-8 bytes, as every runtime takes it); Seed is ignored
	Hoy       string // the reference date "YYYY-MM-DD" (ages, dates, periods); "" for the library's default
}

// Datoteca is one deterministic stream of values. Not safe for concurrent use; Close frees it (a
// finalizer does too, when it is no longer reachable).
type Datoteca struct {
	espacios
	g   *C.dt_gen
	buf []byte            // one value or one sentence: DT_MAX_TEXT bytes
	f   [MaxFields]string // a record's fields, reused: the record builders copy them out at once
	n   C.size_t          // the length C writes (a field, so the call does not allocate it)
}

// New makes a Datoteca from a seed and an optional reference date.
func New(o Opciones) (*Datoteca, error) {
	var g *C.dt_gen
	var st C.dt_status
	if o.SeedTexto != "" {
		cs := C.CString(o.SeedTexto)
		st = C.dt_new_str(cs, C.size_t(len(o.SeedTexto)), &g)
		C.free(unsafe.Pointer(cs))
	} else {
		st = C.dt_new(C.uint64_t(o.Seed), &g)
	}
	if st != 0 {
		return nil, errorDe(st, "New", nil)
	}
	d := &Datoteca{g: g, buf: make([]byte, MaxText)}
	d.iniciar(d)
	runtime.SetFinalizer(d, (*Datoteca).Close)
	if o.Hoy != "" {
		anio, mes, dia, err := leerHoy(o.Hoy)
		if err == nil {
			if C.dt_set_hoy(g, C.int32_t(anio), C.int32_t(mes), C.int32_t(dia)) != 0 {
				err = errorArg(fmt.Sprintf("hoy must be a date or 'YYYY-MM-DD', got '%s'", o.Hoy))
			}
		}
		if err != nil {
			d.Close()
			return nil, err
		}
	}
	return d, nil
}

// leerHoy reads "YYYY-MM-DD" (the day's validity is the library's to judge) within the years every
// runtime accepts, with their sentences.
func leerHoy(hoy string) (anio, mes, dia int, err error) {
	ok := len(hoy) == 10 && hoy[4] == '-' && hoy[7] == '-'
	for i := 0; ok && i < 10; i++ {
		ok = i == 4 || i == 7 || (hoy[i] >= '0' && hoy[i] <= '9')
	}
	if !ok {
		return 0, 0, 0, errorArg(fmt.Sprintf("hoy must be a date or 'YYYY-MM-DD', got '%s'", hoy))
	}
	anio, _ = strconv.Atoi(hoy[:4])
	mes, _ = strconv.Atoi(hoy[5:7])
	dia, _ = strconv.Atoi(hoy[8:])
	if mes < 1 || mes > 12 || dia < 1 || dia > 31 {
		return 0, 0, 0, errorArg(fmt.Sprintf("hoy must be a date or 'YYYY-MM-DD', got '%s'", hoy))
	}
	if anio < HoyAnioMin || anio > HoyAnioMax {
		return 0, 0, 0, errorArg(fmt.Sprintf("hoy must be between %d-01-01 and %d-12-31, got %s", HoyAnioMin, HoyAnioMax, hoy))
	}
	return anio, mes, dia, nil
}

// Close frees the generator; later calls return a ClosedError. Closing twice is harmless.
func (d *Datoteca) Close() error {
	if d.g != nil {
		C.dt_free(d.g)
		d.g = nil
		runtime.SetFinalizer(d, nil)
	}
	return nil
}

func (d *Datoteca) bufC() *C.char { return (*C.char)(unsafe.Pointer(&d.buf[0])) }

func argsC(v []int64) (*C.int64_t, C.size_t) {
	if len(v) == 0 {
		return nil, 0
	}
	return (*C.int64_t)(unsafe.Pointer(&v[0])), C.size_t(len(v))
}

// uno runs a call once and gives its text.
func (d *Datoteca) uno(ll *llamada, v []int64) (string, error) {
	p, k := argsC(v)
	st := C.dt_call(d.g, C.size_t(ll.index), p, k, d.bufC(), C.size_t(len(d.buf)), &d.n)
	runtime.KeepAlive(v)
	if st != 0 {
		return "", errorDe(st, ll.nombre, d.buf)
	}
	return string(d.buf[:d.n]), nil
}

func (d *Datoteca) texto(ll *llamada, v []int64) (string, error) { return d.uno(ll, v) }

func (d *Datoteca) entero(ll *llamada, v []int64) (int64, error) {
	s, err := d.uno(ll, v)
	if err != nil {
		return 0, err
	}
	return enteroCampo(s), nil
}

func (d *Datoteca) campos(ll *llamada, v []int64) ([]string, error) {
	s, err := d.uno(ll, v)
	if err != nil {
		return nil, err
	}
	return partir(d.f[:0], s), nil
}

// partir appends the fields of a record's text to f (no allocation while they fit in its capacity).
func partir(f []string, s string) []string {
	for {
		j := strings.IndexByte(s, FieldSep)
		if j < 0 {
			return append(f, s)
		}
		f = append(f, s[:j])
		s = s[j+1:]
	}
}

// valor is one value of a call as Call gives it: string, int64, or the call's record struct. f is
// scratch room for a record's fields (the builders copy them out).
func valor(ll *llamada, s string, f []string) any {
	switch ll.kind {
	case int(C.DT_KIND_INT):
		return enteroCampo(s)
	case int(C.DT_KIND_RECORD):
		return ll.hacer(partir(f[:0], s))
	}
	return s
}

func llamadaDe(nombre string) (*llamada, error) {
	ll := porNombre[nombre]
	if ll == nil {
		return nil, nuevoError(int(C.DT_ERR_UNKNOWN_CALL), fmt.Sprintf(FraseUnknownCall, nombre))
	}
	return ll, nil
}

// Call runs a call by name ("persona.nombre") with its arguments by name: a string for a text call,
// an int64 for an integer call, the record struct (Persona, Direccion, …) for a record.
func (d *Datoteca) Call(nombre string, args Args) (any, error) {
	ll, err := llamadaDe(nombre)
	if err != nil {
		return nil, err
	}
	v, err := ll.desdeArgs(args)
	if err != nil {
		return nil, err
	}
	s, err := d.uno(ll, v)
	if err != nil {
		return nil, err
	}
	return valor(ll, s, d.f[:0]), nil
}

// Many runs a call n times in one trip to C per Chunk values: the same values as n Calls in a row.
func (d *Datoteca) Many(nombre string, n int, args Args) ([]any, error) {
	ll, err := llamadaDe(nombre)
	if err != nil {
		return nil, err
	}
	if n < 0 || n > NMax {
		return nil, errorArg(fmt.Sprintf("n must be from 0 to %d, got %d", NMax, n))
	}
	v, err := ll.desdeArgs(args)
	if err != nil {
		return nil, err
	}
	out := make([]any, 0, n)
	err = d.trozos(ll, v, n, func(s string) { out = append(out, valor(ll, s, d.f[:0])) })
	return out, err
}

// trozos runs call ll n times, Chunk at a time through one buffer, handing each value's text to f.
func (d *Datoteca) trozos(ll *llamada, v []int64, n int, f func(string)) error {
	if n == 0 {
		return nil
	}
	chunk := menor(n, Chunk)
	buf := make([]byte, chunk*MaxText+1)
	p, k := argsC(v)
	for hecho := 0; hecho < n; {
		m := menor(n-hecho, chunk)
		var length C.size_t
		st := C.dt_call_many(d.g, C.size_t(ll.index), p, k, C.size_t(m), (*C.char)(unsafe.Pointer(&buf[0])),
			C.size_t(len(buf)), &length)
		if st != 0 {
			return errorDe(st, ll.nombre, buf)
		}
		text := string(buf[:length])
		for len(text) > 0 {
			j := strings.IndexByte(text, '\n')
			f(text[:j])
			text = text[j+1:]
		}
		hecho += m
	}
	runtime.KeepAlive(v)
	return nil
}

// SaveState is the stream's position (DT_STATE_SIZE bytes), restorable in any runtime.
func (d *Datoteca) SaveState() ([]byte, error) {
	out := make([]byte, StateSize)
	var n C.size_t
	st := C.dt_state_save(d.g, (*C.uint8_t)(unsafe.Pointer(&out[0])), C.size_t(len(out)), &n)
	if st != 0 {
		return nil, errorDe(st, "state", nil)
	}
	return out[:n], nil
}

// RestoreState continues from a state made by SaveState (in any language).
func (d *Datoteca) RestoreState(state []byte) error {
	var p *C.uint8_t
	if len(state) > 0 {
		p = (*C.uint8_t)(unsafe.Pointer(&state[0]))
	}
	if st := C.dt_state_restore(d.g, p, C.size_t(len(state))); st != 0 {
		return errorDe(st, "state", nil)
	}
	return nil
}

// ---- utilities --------------------------------------------------------------------------------

func utilLlamar(u *llamada, texto string, v []int64) (C.dt_status, string) {
	buf := make([]byte, SentenceMax) // room for every utility's value and sentence
	var n C.size_t
	var cs *C.char
	if texto != "" {
		b := []byte(texto)
		cs = (*C.char)(unsafe.Pointer(&b[0]))
		defer runtime.KeepAlive(b)
	}
	p, k := argsC(v)
	st := C.dt_util(C.size_t(u.index), cs, C.size_t(len(texto)), p, k, (*C.char)(unsafe.Pointer(&buf[0])),
		C.size_t(len(buf)), &n)
	if st != 0 {
		return st, cadena(buf)
	}
	return 0, string(buf[:n])
}

func utilTexto(u *llamada, texto string, v []int64) (string, error) {
	st, s := utilLlamar(u, texto, v)
	if st != 0 {
		return "", errorDe(st, u.nombre, []byte(s+"\x00"))
	}
	return s, nil
}

func utilValidar(u *llamada, texto string, v []int64) bool {
	st, _ := utilLlamar(u, texto, v)
	return st == 0
}

// Utilidad runs a utility of the library's registry by name ("formatear_rut") on its text and its
// arguments by name; the generated functions (FormatearRut, RutDv, …) are the typed way.
func Utilidad(nombre, texto string, args Args) (string, error) {
	u := utilidades[nombre]
	if u == nil {
		return "", nuevoError(int(C.DT_ERR_UNKNOWN_CALL), fmt.Sprintf(FraseUnknownCall, nombre))
	}
	v, err := u.desdeArgs(args)
	if err != nil {
		return "", err
	}
	if u.kind == int(C.DT_KIND_VALIDAR) {
		if utilValidar(u, texto, v) {
			return "true", nil
		}
		return "false", nil
	}
	return utilTexto(u, texto, v)
}

// ---- record fields ----------------------------------------------------------------------------

// Campo is one field of a record, in the library's order: Valor is a string, an int64 or nil.
type Campo struct {
	Nombre string
	Valor  any
}

func enteroCampo(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		panic("datoteca: the library wrote " + strconv.Quote(s) + " for an integer field")
	}
	return n
}

func enteroNulo(s string) *int64 {
	if s == "" {
		return nil
	}
	n := enteroCampo(s)
	return &n
}

func textoNulo(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// Int is a pointer to n, for the integer fields of the argument structs (nil takes the default).
func Int(n int64) *int64 { return &n }

func menor(a, b int) int { // the min builtin is Go 1.21; Debian 12's Go is 1.19
	if a < b {
		return a
	}
	return b
}
