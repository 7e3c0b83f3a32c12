package datoteca_test

// The data contract in Go, the same shape as tests/python/golden_runner.py and tests/node/golden_runner.mjs:
// replay fixtures/golden-sequence.json through the generated surface and equal fixtures/golden.json byte
// for byte (stream positions computed here from saved states, independently of the library), check
// fixtures/fingerprint.json (tables, the first 10,000 values of every call, the dataset slices), and run
// the argument cases (the CLI is the judge of every accepted one) and the one table of bad inputs.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	datoteca "github.com/datoteca/datoteca/bindings/go"
)

var raiz = func() string {
	r, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return r
}()

func leer(t *testing.T, rel string, v any) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(raiz, rel))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return b
}

// args turns the JSON arguments of a fixture (numbers as json.Number) into datoteca.Args.
func args(m map[string]any) datoteca.Args {
	out := datoteca.Args{}
	for k, v := range m {
		if n, ok := v.(json.Number); ok {
			i, err := strconv.ParseInt(string(n), 10, 64)
			if err != nil {
				panic(err)
			}
			out[k] = i
			continue
		}
		out[k] = v
	}
	return out
}

// ---- the canonical JSON, written here: Python's json.dumps(indent=2, ensure_ascii=False) ----------

type par struct {
	k string
	v any
}

func cadenaJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

func escribir(b *strings.Builder, v any, pad string) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		b.WriteString(cadenaJSON(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case []par:
		if len(x) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, p := range x {
			b.WriteString(pad + "  " + cadenaJSON(p.k) + ": ")
			escribir(b, p.v, pad+"  ")
			if i < len(x)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(pad + "}")
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range x {
			b.WriteString(pad + "  ")
			escribir(b, e, pad+"  ")
			if i < len(x)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(pad + "]")
	default:
		panic(fmt.Sprintf("escribir: %T", v))
	}
}

// llano is a value in the fixtures' form: integers as decimal strings, a record's fields in order.
func llano(v any) any {
	switch x := v.(type) {
	case int64:
		return strconv.FormatInt(x, 10)
	case string:
		return x
	case interface{ Campos() []datoteca.Campo }:
		var out []par
		for _, c := range x.Campos() {
			out = append(out, par{c.Nombre, llano(c.Valor)})
		}
		return out
	case nil:
		return nil
	}
	panic(fmt.Sprintf("llano: %T", v))
}

// compacto is one value as the digests write it: compact JSON (json.dumps separators (",", ":")).
func compacto(v any) string {
	switch x := llano(v).(type) {
	case string:
		return cadenaJSON(x)
	case []par:
		parts := make([]string, len(x))
		for i, p := range x {
			val := "null"
			if s, ok := p.v.(string); ok {
				val = cadenaJSON(s)
			}
			parts[i] = cadenaJSON(p.k) + ":" + val
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	panic("compacto")
}

// ---- stream positions from saved states: the LCG's jump-ahead, bit by bit ------------------------

const pcgMult = 6364136223846793005

func pasos(t *testing.T, antes, despues []byte) int {
	le := func(b []byte) uint64 {
		var n uint64
		for i := 7; i >= 0; i-- {
			n = n<<8 | uint64(b[i])
		}
		return n
	}
	cur, inc, target := le(antes[4:12]), le(antes[12:20]), le(despues[4:12])
	if inc != le(despues[12:20]) {
		t.Fatal("states of different streams")
	}
	mult, plus, distance := uint64(pcgMult), inc, uint64(0)
	for bit := uint64(1); cur != target; bit <<= 1 {
		if (cur^target)&bit != 0 {
			cur = cur*mult + plus
			distance |= bit
		}
		plus *= mult + 1
		mult *= mult
	}
	return int(distance)
}

func TestPasosCuentaSorteos(t *testing.T) {
	for _, k := range []int{0, 1, 2, 31, 1000, 65537} {
		d, _ := datoteca.New(datoteca.Opciones{Seed: 99})
		antes, _ := d.SaveState()
		if k > 0 {
			if _, err := d.Many("persona.sexo", k, nil); err != nil {
				t.Fatal(err)
			}
		}
		despues, _ := d.SaveState()
		if got := pasos(t, antes, despues); got != k { // persona.sexo draws once
			t.Errorf("after %d values of persona.sexo: %d draws", k, got)
		}
	}
}

// ---- golden ----------------------------------------------------------------------------------

type secuencia struct {
	Seeds []string `json:"seeds"`
	Hoy   string   `json:"hoy"`
	Calls []struct {
		Call string         `json:"call"`
		Args map[string]any `json:"args"`
	} `json:"calls"`
}

func TestGolden(t *testing.T) {
	var seq secuencia
	leer(t, "fixtures/golden-sequence.json", &seq)
	var golden struct {
		DataVersion int `json:"data_version"`
		Runs        []struct {
			Seed   string `json:"seed"`
			Values []struct {
				Call  string          `json:"call"`
				Value json.RawMessage `json:"value"`
				Draws int             `json:"draws"`
			} `json:"values"`
		} `json:"runs"`
	}
	want := leer(t, "fixtures/golden.json", &golden)
	if golden.DataVersion != datoteca.DataVersion() {
		t.Fatalf("data version: golden.json records %d, the library is %d", golden.DataVersion, datoteca.DataVersion())
	}
	var runs []any
	for r, seed := range seq.Seeds {
		n, _ := strconv.ParseUint(seed, 10, 64)
		d, err := datoteca.New(datoteca.Opciones{Seed: n, Hoy: seq.Hoy})
		if err != nil {
			t.Fatal(err)
		}
		antes, _ := d.SaveState()
		var values []any
		for i, step := range seq.Calls {
			v, err := d.Call(step.Call, args(step.Args))
			if err != nil {
				t.Fatalf("golden: seed %s, call %d (%s): %v", seed, i+1, step.Call, err)
			}
			despues, _ := d.SaveState()
			draws := pasos(t, antes, despues)
			antes = despues
			var b strings.Builder
			escribir(&b, llano(v), "")
			if wv := golden.Runs[r].Values[i]; compactoJSON(t, wv.Value) != compactoJSON(t, []byte(b.String())) || wv.Draws != draws {
				t.Fatalf("golden: seed %s, call %d of %d (%s): expected %s (%d draws), got %s (%d draws)", seed, i+1,
					len(seq.Calls), step.Call, wv.Value, wv.Draws, b.String(), draws)
			}
			values = append(values, []par{{"call", step.Call}, {"value", llano(v)}, {"draws", draws}})
		}
		runs = append(runs, []par{{"seed", seed}, {"values", values}})
		d.Close()
	}
	var b strings.Builder
	escribir(&b, []par{{"data_version", datoteca.DataVersion()}, {"hoy", seq.Hoy}, {"runs", runs}}, "")
	b.WriteByte('\n')
	mine := b.String()
	if out := os.Getenv("DATOTECA_GOLDEN_OUT"); out != "" { // make test-go compares the file with cmp too
		if err := os.WriteFile(out, []byte(mine), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if mine != string(want) {
		k := 0
		for k < len(mine) && k < len(want) && mine[k] == want[k] {
			k++
		}
		t.Fatalf("golden: the canonical form differs from fixtures/golden.json at byte %d (line %d) although every value agrees",
			k, strings.Count(string(want[:k]), "\n")+1)
	}
	t.Logf("golden: %d bytes identical to fixtures/golden.json", len(mine))
}

func compactoJSON(t *testing.T, b []byte) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// ---- fingerprint -----------------------------------------------------------------------------

type huella struct {
	DataVersion   int    `json:"data_version"`
	Hoy           string `json:"hoy"`
	ValuesPerCall int    `json:"values_per_call"`
	Tables        []struct {
		Table  string `json:"table"`
		Rows   int    `json:"rows"`
		Digest string `json:"digest"`
	} `json:"tables"`
	Calls []struct {
		Call string         `json:"call"`
		Args map[string]any `json:"args"`
		Runs []struct {
			Seed   string `json:"seed"`
			Sha256 string `json:"sha256"`
			Draws  int    `json:"draws"`
		} `json:"runs"`
	} `json:"calls"`
	Datasets []struct {
		Call     string         `json:"call"`
		Options  map[string]any `json:"options"`
		Capacity *json.Number   `json:"capacity"`
		Slices   []struct {
			Desde     uint64   `json:"desde"`
			N         int      `json:"n"`
			Every1000 []string `json:"every_1000"`
			FirstRow  string   `json:"first_row"`
		} `json:"slices"`
	} `json:"datasets"`
}

func TestFingerprintTablas(t *testing.T) {
	var fp huella
	leer(t, "fixtures/fingerprint.json", &fp)
	have := datoteca.Referencias()
	if len(have) != len(fp.Tables) {
		t.Fatalf("fingerprint: the library has %d tables, the fixture %d", len(have), len(fp.Tables))
	}
	for i, w := range fp.Tables {
		h := have[i]
		if h.Nombre != w.Table || fmt.Sprintf("%016x", h.Digest) != w.Digest || h.Filas != w.Rows {
			t.Errorf("fingerprint: table %d: the library has %s (%d rows, digest %016x), the fixture %s (%d rows, digest %s)",
				i+1, h.Nombre, h.Filas, h.Digest, w.Table, w.Rows, w.Digest)
		}
	}
}

func TestFingerprintLlamadas(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 values per case: make test-go runs it without -short (the -race run is -short)")
	}
	var fp huella
	leer(t, "fixtures/fingerprint.json", &fp)
	if fp.ValuesPerCall != 10000 {
		t.Fatalf("values_per_call is %d, this test digests 10000", fp.ValuesPerCall)
	}
	llamadas := map[string]bool{}
	for _, e := range fp.Calls {
		llamadas[e.Call] = true
		for _, r := range e.Runs {
			seed, _ := strconv.ParseUint(r.Seed, 10, 64)
			d, err := datoteca.New(datoteca.Opciones{Seed: seed, Hoy: fp.Hoy})
			if err != nil {
				t.Fatal(err)
			}
			antes, _ := d.SaveState()
			values, err := d.Many(e.Call, fp.ValuesPerCall, args(e.Args))
			if err != nil {
				t.Fatalf("%s: %v", e.Call, err)
			}
			despues, _ := d.SaveState()
			h := sha256.New()
			for _, v := range values {
				h.Write([]byte(compacto(v) + "\n"))
			}
			sum := hex.EncodeToString(h.Sum(nil))
			where := fmt.Sprintf("fingerprint: seed %s, %s %v", r.Seed, e.Call, e.Args)
			if sum != r.Sha256 {
				t.Errorf("%s: the first %d values differ (sha256 %s…, expected %s…)", where, fp.ValuesPerCall, sum[:16], r.Sha256[:16])
			} else if n := pasos(t, antes, despues); n != r.Draws {
				t.Errorf("%s: same values, but %d draws instead of %d", where, n, r.Draws)
			}
			d.Close()
		}
	}
	for _, n := range datoteca.Llamadas() {
		if !llamadas[n] {
			t.Errorf("fingerprint: call %s is not recorded", n)
		}
	}
}

func fnv(h uint64, b []byte) uint64 {
	for _, c := range b {
		h = (h ^ uint64(c)) * 0x100000001B3
	}
	return h
}

func filaTexto(f datoteca.Fila) string {
	parts := make([]string, len(f))
	for j, v := range f {
		switch x := v.(type) {
		case nil:
			parts[j] = "\x1e"
		case int64:
			parts[j] = strconv.FormatInt(x, 10)
		default:
			parts[j] = x.(string)
		}
	}
	return strings.Join(parts, "\x1f")
}

func TestFingerprintDatasets(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 values per case: make test-go runs it without -short (the -race run is -short)")
	}
	var fp huella
	leer(t, "fixtures/fingerprint.json", &fp)
	for _, e := range fp.Datasets {
		where := fmt.Sprintf("dataset: %s %v", e.Call, e.Options)
		o := datoteca.TablaOpciones{}
		for k, v := range e.Options {
			switch k {
			case "seed":
				if n, ok := v.(json.Number); ok {
					o.Seed, _ = strconv.ParseUint(string(n), 10, 64)
				} else {
					o.SeedTexto = v.(string)
				}
			case "unico":
				for _, c := range v.([]any) {
					o.Unico = append(o.Unico, c.(string))
				}
			case "nulos", "sucio":
				m := map[string]int{}
				for c, n := range v.(map[string]any) {
					i, _ := strconv.Atoi(string(n.(json.Number)))
					m[c] = i
				}
				if k == "nulos" {
					o.Nulos = m
				} else {
					o.Sucio = m
				}
			default:
				t.Fatalf("%s: option %s", where, k)
			}
		}
		tb, err := datoteca.NuevaTabla(e.Call, o)
		if err != nil {
			t.Errorf("%s: refused: %v", where, err)
			continue
		}
		capacidad := uint64(1) << 63
		if e.Capacity != nil {
			capacidad, _ = strconv.ParseUint(string(*e.Capacity), 10, 64)
		}
		if tb.Capacidad != capacidad {
			t.Errorf("%s: capacity %d, expected %d", where, tb.Capacidad, capacidad)
			continue
		}
		for _, s := range e.Slices {
			rows, err := tb.Filas(s.Desde, s.N)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			head := fmt.Sprintf("%s, rows %d..%d", where, s.Desde, s.Desde+uint64(s.N)-1)
			if got := filaTexto(rows[0]); got != s.FirstRow {
				t.Errorf("%s: row %d differs: expected %q, got %q", head, s.Desde, s.FirstRow, got)
				break
			}
			h := uint64(0xCBF29CE484222325)
			for k := 0; k < s.N; k += 1000 {
				for _, r := range rows[k:menorT(k+1000, s.N)] {
					h = fnv(h, []byte(filaTexto(r)+"\n"))
				}
				if got := fmt.Sprintf("%016x", h); got != s.Every1000[k/1000] {
					t.Errorf("%s: row %d agrees; the first difference is in rows %d..%d (fnv1a64 up to there %s, expected %s)",
						head, s.Desde, s.Desde+uint64(k), s.Desde+uint64(menorT(k+1000, s.N))-1, got, s.Every1000[k/1000])
					break
				}
			}
		}
		tb.Close()
	}
}

// ---- the argument cases: every accepted one equals the CLI's value, every refused one the sentence ----

func cli(t *testing.T) string {
	if p := os.Getenv("DATOTECA_CLI"); p != "" {
		return p
	}
	p := filepath.Join(raiz, "build-c", "datoteca")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the CLI judges the argument cases: build it (make build) or set DATOTECA_CLI (%v)", err)
	}
	return p
}

func plano(v any) string {
	if r, ok := v.(interface{ Campos() []datoteca.Campo }); ok {
		parts := []string{}
		for _, c := range r.Campos() {
			switch x := c.Valor.(type) {
			case nil:
				parts = append(parts, "")
			case int64:
				parts = append(parts, strconv.FormatInt(x, 10))
			default:
				parts = append(parts, x.(string))
			}
		}
		return strings.Join(parts, "\t")
	}
	if n, ok := v.(int64); ok {
		return strconv.FormatInt(n, 10)
	}
	return v.(string)
}

func TestCasosArgumentos(t *testing.T) {
	var casos struct {
		Cases []struct {
			Call   string         `json:"call"`
			Args   map[string]any `json:"args"`
			Expect string         `json:"expect"`
		} `json:"cases"`
	}
	leer(t, "tests/casos_argumentos.json", &casos)
	bin := cli(t)
	ok, refused := 0, 0
	for i, c := range casos.Cases {
		where := fmt.Sprintf("argument case %d, %s %v", i+1, c.Call, c.Args)
		d, _ := datoteca.New(datoteca.Opciones{Seed: 7})
		v, err := d.Call(c.Call, args(c.Args))
		d.Close()
		if c.Expect == "ok" {
			flags := []string{c.Call, "--seed", "7", "-n", "1", "--format", "plain"}
			for k, a := range c.Args {
				flags = append(flags, "--"+k, fmt.Sprint(a))
			}
			out, cerr := exec.Command(bin, flags...).Output()
			if cerr != nil {
				t.Fatalf("%s: the CLI: %v", where, cerr)
			}
			if err != nil {
				t.Errorf("%s: refused: %v", where, err)
			} else if got, want := plano(v), strings.TrimRight(string(out), "\n"); got != want {
				t.Errorf("%s: expected the CLI's %q, got %q", where, want, got)
			}
			ok++
			continue
		}
		var e *datoteca.Error
		if !errors.As(err, &e) {
			t.Errorf("%s: accepted (%v), expected %q", where, v, c.Expect)
		} else if e.Message != c.Expect || e.Class != "InvalidArgumentError" || e.Status != 2 || !errors.Is(err, datoteca.ErrInvalidArgument) {
			t.Errorf("%s: expected InvalidArgumentError %q, got %s (status %d) %q", where, c.Expect, e.Class, e.Status, e.Message)
		}
		refused++
	}
	t.Logf("argument cases: %d accepted (equal to the CLI), %d refused", ok, refused)
}

// ---- the one table of bad inputs ---------------------------------------------------------------

func TestCasosErrores(t *testing.T) {
	var casos struct {
		Cases []struct {
			De       string         `json:"de"`
			Nombre   string         `json:"nombre"`
			Args     map[string]any `json:"args"`
			Opciones map[string]any `json:"opciones"`
			Texto    *string        `json:"texto"`
			Hoy      string         `json:"hoy"`
			Seed     *json.Number   `json:"seed"`
			Estado   string         `json:"estado"`
			Error    string         `json:"error"`
			Frase    string         `json:"frase"`
		} `json:"cases"`
	}
	leer(t, "tests/casos_errores.json", &casos)
	dir := t.TempDir()
	porClase := map[string]int{}
	for i, c := range casos.Cases {
		var err error
		switch c.De {
		case "llamada":
			var d *datoteca.Datoteca
			if d, err = datoteca.New(datoteca.Opciones{Seed: 1, Hoy: c.Hoy}); err == nil {
				_, err = d.Call(c.Nombre, args(c.Args))
				d.Close()
			}
		case "utilidad":
			texto := ""
			if c.Texto != nil {
				texto = *c.Texto
			}
			_, err = datoteca.Utilidad(c.Nombre, texto, args(c.Args))
		case "tabla":
			o := datoteca.TablaOpciones{Args: args(c.Args), Hoy: c.Hoy}
			for k, v := range c.Opciones {
				switch k {
				case "campos", "unico":
					var l []string
					for _, s := range v.([]any) {
						l = append(l, s.(string))
					}
					if k == "campos" {
						o.Campos = l
					} else {
						o.Unico = l
					}
				case "nulos", "sucio":
					m := map[string]int{}
					for col, n := range v.(map[string]any) {
						m[col], _ = strconv.Atoi(string(n.(json.Number)))
					}
					if k == "nulos" {
						o.Nulos = m
					} else {
						o.Sucio = m
					}
				default:
					t.Fatalf("error case %d: option %s", i+1, k)
				}
			}
			_, err = datoteca.NuevaTabla(c.Nombre, o)
		case "esquema":
			ruta := filepath.Join(dir, c.Nombre)
			if werr := os.WriteFile(ruta, []byte(*c.Texto), 0o644); werr != nil {
				t.Fatal(werr)
			}
			o := datoteca.EsquemaOpciones{Hoy: c.Hoy}
			if c.Seed != nil {
				o.Seed, _ = strconv.ParseUint(string(*c.Seed), 10, 64)
			}
			_, err = datoteca.AbrirEsquema(ruta, o)
		case "estado":
			d, _ := datoteca.New(datoteca.Opciones{Seed: 1})
			err = d.RestoreState(make([]byte, 24))
			d.Close()
		default:
			t.Fatalf("error case %d: de %s", i+1, c.De)
		}
		where := fmt.Sprintf("error case %d (%s %s %v)", i+1, c.De, c.Nombre, c.Args)
		var e *datoteca.Error
		if !errors.As(err, &e) {
			t.Errorf("%s: expected %s %q, got %v", where, c.Error, c.Frase, err)
			continue
		}
		if e.Class != c.Error || e.Message != c.Frase || e.Code != c.Estado || !errors.Is(err, datoteca.ErrDatoteca) {
			t.Errorf("%s:\n  expected %s %s %q\n  got      %s %s %q", where, c.Error, c.Estado, c.Frase, e.Class, e.Code, e.Message)
		}
		porClase[c.Error]++
	}
	t.Logf("error cases: %d, by class %v", len(casos.Cases), porClase)
}

func menorT(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// Every library source of c/fuentes.txt has its cgo wrapper, and no wrapper is left of a source that
// is gone (make generate writes the listed ones; it does not delete).
func TestFuentes(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(raiz, "c", "fuentes.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, s := range strings.Fields(string(b)) {
		if strings.HasPrefix(s, "c/src/") {
			want["fuente_"+strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(s, "c/src/"), ".c"), "/", "_")+".gen.c"] = true
		}
	}
	have, _ := filepath.Glob("fuente_*.gen.c")
	for _, h := range have {
		if !want[h] {
			t.Errorf("%s wraps no source of c/fuentes.txt: delete it", h)
		}
		delete(want, h)
	}
	for w := range want {
		t.Errorf("%s is missing: run make generate", w)
	}
}
