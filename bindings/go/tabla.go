package datoteca

/*
#include <stdlib.h>
#include "datoteca.h"
*/
import "C"

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"unsafe"
)

// TablaOpciones configure a dataset (docs/datasets.md). The zero value is seed 0, every column, no
// unique, null or dirty column.
type TablaOpciones struct {
	Args      Args           // the call's arguments by name
	Seed      uint64         // the numeric seed
	SeedTexto string         // when not "": a text seed; Seed is ignored
	Hoy       string         // the reference date "YYYY-MM-DD"; "" for the default
	Campos    []string       // columns in this order; nil for all
	Unico     []string       // columns made unique
	Nulos     map[string]int // per mille of nulls per column
	Sucio     map[string]int // per mille of dirty values per column (docs/sucios.md)
}

// Columna describes one column of a dataset or of a schema's table.
type Columna struct {
	Nombre      string
	TipoSQL     string // PostgreSQL type: "text", "date", "char(1)", "integer", "bigint"
	Nulable     bool
	Unico       bool
	NulosPorMil int    // datasets only
	Ref         string // schemas only: "tabla.columna" of a foreign key, else ""
}

// Fila is one row: a string, an int64 (integer columns) or nil (a null) per column.
type Fila []any

// Tabla is a dataset: row i depends only on (seed, call, arguments, options, i), so any slice equals
// the same rows of a full run. Immutable: safe for concurrent use.
type Tabla struct {
	t         *C.dt_tabla
	Llamada   string
	Columnas  []Columna
	Capacidad uint64 // rows 0..Capacidad-1 can be made (unique columns bound it)
}

func tasas(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys) // one order, so the same options give the same sentence
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ":" + strconv.Itoa(m[k])
	}
	return strings.Join(parts, ",")
}

// NuevaTabla builds the dataset of a call; the library refuses bad options with its sentence.
func NuevaTabla(llamada string, o TablaOpciones) (*Tabla, error) {
	ll, err := llamadaDe(llamada)
	if err != nil {
		return nil, err
	}
	v, err := ll.desdeArgs(o.Args)
	if err != nil {
		return nil, err
	}
	var op C.dt_tabla_opciones
	op.tamano = C.size_t(unsafe.Sizeof(op))
	op.llamada = C.size_t(ll.index)
	var libres []unsafe.Pointer
	defer func() {
		for _, p := range libres {
			C.free(p)
		}
	}()
	texto := func(s string) *C.char {
		cs := C.CString(s)
		libres = append(libres, unsafe.Pointer(cs))
		return cs
	}
	if len(v) > 0 {
		a := (*C.int64_t)(C.malloc(C.size_t(8 * len(v))))
		libres = append(libres, unsafe.Pointer(a))
		copy(unsafe.Slice((*int64)(unsafe.Pointer(a)), len(v)), v)
		op.args, op.nargs = a, C.size_t(len(v))
	}
	op.seed = C.uint64_t(o.Seed)
	if o.SeedTexto != "" {
		op.seed_texto, op.seed_texto_len = texto(o.SeedTexto), C.size_t(len(o.SeedTexto))
	}
	if o.Hoy != "" {
		anio, mes, dia, err := leerHoy(o.Hoy)
		if err != nil {
			return nil, err
		}
		op.hoy_anio, op.hoy_mes, op.hoy_dia = C.int32_t(anio), C.int32_t(mes), C.int32_t(dia)
	}
	if o.Campos != nil {
		op.campos = texto(strings.Join(o.Campos, ","))
	}
	if o.Unico != nil {
		op.unico = texto(strings.Join(o.Unico, ","))
	}
	if o.Nulos != nil {
		op.nulos = texto(tasas(o.Nulos))
	}
	if o.Sucio != nil {
		op.sucio = texto(tasas(o.Sucio))
	}
	why := make([]byte, SentenceMax)
	var t *C.dt_tabla
	if st := C.dt_tabla_new(&op, &t, (*C.char)(unsafe.Pointer(&why[0])), C.size_t(len(why))); st != 0 {
		return nil, errorDe(st, "Tabla()", why)
	}
	tb := &Tabla{t: t, Llamada: llamada, Capacidad: uint64(C.dt_tabla_capacidad(t))}
	for j := 0; j < int(C.dt_tabla_columnas(t)); j++ {
		var info C.dt_columna_info
		C.dt_tabla_columna(t, C.size_t(j), &info)
		tb.Columnas = append(tb.Columnas, Columna{Nombre: C.GoString(info.nombre), TipoSQL: C.GoString(info.tipo_sql),
			Nulable: info.nulable != 0, Unico: info.unico != 0, NulosPorMil: int(info.nulos_por_mil)})
	}
	runtime.SetFinalizer(tb, (*Tabla).Close)
	return tb, nil
}

// Close frees the dataset; closing twice is harmless.
func (t *Tabla) Close() error {
	if t.t != nil {
		C.dt_tabla_free(t.t)
		t.t = nil
		runtime.SetFinalizer(t, nil)
	}
	return nil
}

// Filas are rows [desde, desde + n).
func (t *Tabla) Filas(desde uint64, n int) ([]Fila, error) {
	if n < 0 || n > NMax {
		return nil, errorArg(fmt.Sprintf("n must be from 0 to %d, got %d", NMax, n))
	}
	if desde > t.Capacidad || uint64(n) > t.Capacidad-desde {
		return nil, errorArg(fmt.Sprintf(strings.ReplaceAll(FraseCapacidad, "%s", "%v"), t.Llamada, desde, desde+uint64(n), t.Capacidad))
	}
	if t.t == nil {
		return nil, errorDe(C.DT_ERR_NULL, "Tabla", nil)
	}
	enteros := make([]bool, len(t.Columnas))
	for j, c := range t.Columnas {
		enteros[j] = c.TipoSQL == "integer" || c.TipoSQL == "bigint"
	}
	out := make([]Fila, 0, n)
	err := filasEnTrozos(n, func(hecho, k int, buf []byte, length *C.size_t) C.dt_status {
		return C.dt_tabla_filas(t.t, C.uint64_t(desde+uint64(hecho)), C.size_t(k), (*C.char)(unsafe.Pointer(&buf[0])),
			C.size_t(len(buf)), length)
	}, func(linea string) { out = append(out, fila(linea, enteros)) })
	runtime.KeepAlive(t)
	return out, err
}

func fila(linea string, enteros []bool) Fila {
	cells := strings.Split(linea, string(rune(FieldSep)))
	f := make(Fila, len(cells))
	for j, c := range cells {
		switch {
		case c == string(rune(Nulo)):
			f[j] = nil
		case j < len(enteros) && enteros[j]:
			f[j] = enteroCampo(c)
		default:
			f[j] = c
		}
	}
	return f
}

// filasEnTrozos makes n rows Chunk at a time through one buffer, growing it when a chunk's rows do not
// fit, and hands each row's text to f.
func filasEnTrozos(n int, llenar func(hecho, k int, buf []byte, length *C.size_t) C.dt_status, f func(string)) error {
	if n == 0 {
		return nil
	}
	chunk := menor(n, Chunk)
	buf := make([]byte, chunk*MaxText+1)
	for hecho := 0; hecho < n; {
		k := menor(n-hecho, chunk)
		var length C.size_t
		st := llenar(hecho, k, buf, &length)
		if st == C.DT_ERR_BUFFER_TOO_SMALL && int(length) > len(buf) {
			buf = make([]byte, int(length)+1)
			continue
		}
		if st != 0 {
			return errorDe(st, "filas", buf)
		}
		text := string(buf[:length])
		for len(text) > 0 {
			j := strings.IndexByte(text, '\n')
			f(text[:j])
			text = text[j+1:]
		}
		hecho += k
	}
	return nil
}

// ---- schemas ----------------------------------------------------------------------------------

// EsquemaOpciones configure NuevoEsquema.
type EsquemaOpciones struct {
	Seed uint64
	Hoy  string // "YYYY-MM-DD"; "" for the default
}

// Esquema is a whole relational test database from one document (docs/esquemas.md), parsed and
// checked by the library. Immutable: safe for concurrent use.
type Esquema struct {
	e      *C.dt_esquema
	Tablas []string // in declaration order
}

// AbrirEsquema reads a schema file (TOML, or JSON for a .json name); sentences name the file by its
// base name, as in every runtime.
func AbrirEsquema(ruta string, o EsquemaOpciones) (*Esquema, error) {
	texto, err := os.ReadFile(ruta)
	if err != nil {
		return nil, errorArg(fmt.Sprintf("esquema: cannot read %s: %v", ruta, err))
	}
	return NuevoEsquema(texto, strings.HasSuffix(ruta, ".json"), filepath.Base(ruta), o)
}

// NuevoEsquema builds a schema from its text; archivo names it in sentences.
func NuevoEsquema(texto []byte, json bool, archivo string, o EsquemaOpciones) (*Esquema, error) {
	var anio, mes, dia int
	if o.Hoy != "" {
		var err error
		if anio, mes, dia, err = leerHoy(o.Hoy); err != nil {
			return nil, err
		}
	}
	formato := C.int(C.DT_ESQUEMA_TOML)
	if json {
		formato = C.DT_ESQUEMA_JSON
	}
	var p *C.char
	if len(texto) > 0 {
		p = (*C.char)(C.CBytes(texto))
		defer C.free(unsafe.Pointer(p))
	}
	ca := C.CString(archivo)
	defer C.free(unsafe.Pointer(ca))
	why := make([]byte, SentenceMax)
	var e *C.dt_esquema
	st := C.dt_esquema_new(p, C.size_t(len(texto)), formato, ca, C.uint64_t(o.Seed), C.int32_t(anio), C.int32_t(mes),
		C.int32_t(dia), &e, (*C.char)(unsafe.Pointer(&why[0])), C.size_t(len(why)))
	if st != 0 {
		return nil, errorDe(st, "Esquema()", why)
	}
	es := &Esquema{e: e}
	for i := 0; i < int(C.dt_esquema_tablas(e)); i++ {
		es.Tablas = append(es.Tablas, C.GoString(C.dt_esquema_tabla(e, C.size_t(i))))
	}
	runtime.SetFinalizer(es, (*Esquema).Close)
	return es, nil
}

// Close frees the schema; closing twice is harmless.
func (e *Esquema) Close() error {
	if e.e != nil {
		C.dt_esquema_free(e.e)
		e.e = nil
		runtime.SetFinalizer(e, nil)
	}
	return nil
}

func (e *Esquema) indice(tabla string) (int, error) {
	for i, t := range e.Tablas {
		if t == tabla {
			return i, nil
		}
	}
	return 0, errorArg(fmt.Sprintf("tabla: '%s' is not a table of the schema; its tables are %s", tabla, strings.Join(e.Tablas, ", ")))
}

// Total is the number of rows of a table.
func (e *Esquema) Total(tabla string) (uint64, error) {
	i, err := e.indice(tabla)
	if err != nil {
		return 0, err
	}
	return uint64(C.dt_esquema_tabla_filas(e.e, C.size_t(i))), nil
}

// Columnas describe a table's columns in declaration order.
func (e *Esquema) Columnas(tabla string) ([]Columna, error) {
	i, err := e.indice(tabla)
	if err != nil {
		return nil, err
	}
	var out []Columna
	for j := 0; j < int(C.dt_esquema_columnas(e.e, C.size_t(i))); j++ {
		var info C.dt_esquema_columna_info
		C.dt_esquema_columna(e.e, C.size_t(i), C.size_t(j), &info)
		c := Columna{Nombre: C.GoString(info.nombre), TipoSQL: C.GoString(info.tipo_sql), Nulable: info.nulable != 0,
			Unico: info.unico != 0}
		if info.ref_tabla != nil {
			c.Ref = C.GoString(info.ref_tabla) + "." + C.GoString(info.ref_columna)
		}
		out = append(out, c)
	}
	return out, nil
}

// Filas are rows [desde, desde + n) of a table.
func (e *Esquema) Filas(tabla string, desde uint64, n int) ([]Fila, error) {
	i, err := e.indice(tabla)
	if err != nil {
		return nil, err
	}
	cols, _ := e.Columnas(tabla)
	enteros := make([]bool, len(cols))
	for j, c := range cols {
		enteros[j] = c.TipoSQL == "integer" || c.TipoSQL == "bigint"
	}
	if n < 0 || n > NMax {
		return nil, errorArg(fmt.Sprintf("n must be from 0 to %d, got %d", NMax, n))
	}
	out := make([]Fila, 0, n)
	err = filasEnTrozos(n, func(hecho, k int, buf []byte, length *C.size_t) C.dt_status {
		return C.dt_esquema_filas(e.e, C.size_t(i), C.uint64_t(desde+uint64(hecho)), C.size_t(k),
			(*C.char)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)), length)
	}, func(linea string) { out = append(out, fila(linea, enteros)) })
	runtime.KeepAlive(e)
	return out, err
}
