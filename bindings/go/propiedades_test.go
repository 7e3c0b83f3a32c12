package datoteca_test

// The registered property suites rut and patentes (tests/properties.json: their seed and iterations,
// inputs from xorshift32 as in every language) against references written here from docs/rut.md and
// docs/patentes.md and the CSVs of c/data, never from the library.

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	datoteca "github.com/datoteca/datoteca/bindings/go"
)

type xorshift32 struct{ x uint32 }

func nuevoXorshift(seed uint32) *xorshift32 {
	if seed == 0 {
		seed = 0x9E3779B9
	}
	return &xorshift32{seed}
}

func (r *xorshift32) next() uint32 {
	r.x ^= r.x << 13
	r.x ^= r.x >> 17
	r.x ^= r.x << 5
	return r.x
}

func (r *xorshift32) below(n int) int    { return int(r.next() % uint32(n)) }
func (r *xorshift32) u64() uint64        { return uint64(r.next())<<32 | uint64(r.next()) }
func pick[T any](r *xorshift32, s []T) T { return s[r.below(len(s))] }

// mod11 is the RUT check digit: weights 2..7 from the last digit, 11 - sum mod 11 (11 is 0, 10 is K).
func mod11(body uint64) string {
	s, w := uint64(0), uint64(2)
	for ; body > 0; body /= 10 {
		s += body % 10 * w
		if w++; w == 8 {
			w = 2
		}
	}
	switch r := 11 - s%11; r {
	case 11:
		return "0"
	case 10:
		return "K"
	default:
		return strconv.FormatUint(r, 10)
	}
}

func suite(t *testing.T, name string, body func(r *xorshift32, i int) error) {
	var reg struct {
		Suites []struct {
			Name       string   `json:"name"`
			Seed       string   `json:"seed"`
			Iterations int      `json:"iterations"`
			Languages  []string `json:"languages"`
		} `json:"suites"`
	}
	leer(t, "tests/properties.json", &reg)
	for _, s := range reg.Suites {
		if s.Name != name {
			continue
		}
		found := false
		for _, l := range s.Languages {
			found = found || l == "go"
		}
		if !found {
			t.Fatalf("property %s is not registered for Go in tests/properties.json", name)
		}
		seed, err := strconv.ParseUint(strings.TrimPrefix(s.Seed, "0x"), 16, 32)
		if err != nil {
			t.Fatal(err)
		}
		r := nuevoXorshift(uint32(seed))
		for i := 0; i < s.Iterations; i++ {
			if err := body(r, i); err != nil {
				t.Fatalf("property %s, seed 0x%08x, iteration %d: %v", name, seed, i, err)
			}
		}
		t.Logf("property %s: %d iterations", name, s.Iterations)
		return
	}
	t.Fatalf("no property suite %s in tests/properties.json", name)
}

func TestPropiedadRut(t *testing.T) {
	suite(t, "rut", func(r *xorshift32, i int) error {
		d, err := datoteca.New(datoteca.Opciones{Seed: r.u64()})
		if err != nil {
			return err
		}
		defer d.Close()
		tipo := pick(r, []datoteca.TipoRut{datoteca.TipoRutPersona, datoteca.TipoRutEmpresa})
		formato := pick(r, []datoteca.FormatoRut{datoteca.FormatoRutPuntos, datoteca.FormatoRutGuion, datoteca.FormatoRutLimpio})
		rut, err := d.Rut(datoteca.RutArgs{Tipo: tipo, Formato: formato})
		if err != nil {
			return err
		}
		digits := strings.TrimRight(strings.ReplaceAll(rut[:len(rut)-1], ".", ""), "-")
		body, err := strconv.ParseUint(digits, 10, 64)
		if err != nil || mod11(body) != rut[len(rut)-1:] {
			return fmt.Errorf("generated %q fails mod-11 (reference %s)", rut, mod11(body))
		}
		lo, hi := uint64(datoteca.RutPersonaMin), uint64(datoteca.RutPersonaMax)
		if tipo == datoteca.TipoRutEmpresa {
			lo, hi = datoteca.RutEmpresaMin, datoteca.RutEmpresaMax
		}
		if body < lo || body > hi {
			return fmt.Errorf("%s %q: body outside [%d, %d]", tipo, rut, lo, hi)
		}
		// a body people type, with the right check digit or not: the validator agrees with mod-11
		n := uint64(1 + r.below(99_999_999))
		dv := mod11(n)
		if r.below(3) == 0 {
			dv = pick(r, strings.Split("0123456789K", ""))
		}
		text := strconv.FormatUint(n, 10) + pick(r, []string{"", "-"}) + dv
		if want := dv == mod11(n); datoteca.ValidarRut(text) != want {
			return fmt.Errorf("ValidarRut(%q) is %v, mod-11 says %v", text, !want, want)
		}
		if dv == mod11(n) {
			clean, err := datoteca.LimpiarRut(text)
			if err != nil || clean != strconv.FormatUint(n, 10)+dv {
				return fmt.Errorf("LimpiarRut(%q) = %q, %v", text, clean, err)
			}
			if again, err := datoteca.FormatearRut(clean, ""); err != nil || strings.ReplaceAll(again, ".", "") !=
				strconv.FormatUint(n, 10)+"-"+dv {
				return fmt.Errorf("FormatearRut(%q) = %q, %v", clean, again, err)
			}
		}
		return nil
	})
}

func leerCSV(t *testing.T, name string) []map[string]string {
	f, err := os.Open(filepath.Join(raiz, "c", "data", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, row := range rows[1:] {
		m := map[string]string{}
		for j, h := range rows[0] {
			m[h] = row[j]
		}
		out = append(out, m)
	}
	return out
}

func TestPropiedadPatentes(t *testing.T) {
	letras := map[rune]string{}
	for _, r := range leerCSV(t, "patentes_letras.csv") {
		letras[[]rune(r["letra"])[0]] = r["valor"]
	}
	series := map[string]uint64{}
	for _, r := range leerCSV(t, "patentes_series_antiguas.csv") {
		series[r["serie"]], _ = strconv.ParseUint(r["codigo_d7d6d5"], 10, 64)
	}
	// docs/patentes.md: letters by their table (a motorcycle's digits get a 0 before them), an old
	// series by its 3-digit code, then the RUT's mod 11; a plate of value 0 has check digit 0.
	ref := func(l, num string) string {
		var n uint64
		if len(l) == 2 {
			k, _ := strconv.ParseUint(num, 10, 64)
			n = series[l]*10000 + k
		} else {
			s := ""
			for _, c := range l {
				s += letras[c]
			}
			if len(l) == 3 {
				s += "0"
			}
			n, _ = strconv.ParseUint(s+num, 10, 64)
		}
		if n == 0 {
			return "0"
		}
		return mod11(n)
	}
	forma := map[datoteca.TipoPatente]string{datoteca.TipoPatenteAuto: `([BCDFGHJKLPRSTVWXYZ]{4})`,
		datoteca.TipoPatenteMoto: `([BCDFGHJKLPRSTVWXYZ]{3})`, datoteca.TipoPatenteAntigua: `([A-Z]{2})`}
	digitos := map[datoteca.TipoPatente]string{datoteca.TipoPatenteAuto: `(\d{2})`, datoteca.TipoPatenteMoto: `(\d{2})`,
		datoteca.TipoPatenteAntigua: `(\d{4})`}
	sep := map[datoteca.FormatoPatente]string{datoteca.FormatoPatentePunto: "·", datoteca.FormatoPatenteLimpio: "",
		datoteca.FormatoPatenteGuion: "-", datoteca.FormatoPatenteConDv: "·"}
	tipos := []datoteca.TipoPatente{datoteca.TipoPatenteAuto, datoteca.TipoPatenteMoto, datoteca.TipoPatenteAntigua}
	formatos := []datoteca.FormatoPatente{datoteca.FormatoPatentePunto, datoteca.FormatoPatenteLimpio,
		datoteca.FormatoPatenteGuion, datoteca.FormatoPatenteConDv}
	suite(t, "patentes", func(r *xorshift32, i int) error {
		d, err := datoteca.New(datoteca.Opciones{Seed: r.u64()})
		if err != nil {
			return err
		}
		defer d.Close()
		tipo, formato := pick(r, tipos), pick(r, formatos)
		p, err := d.Vehiculo.Patente(datoteca.VehiculoPatenteArgs{Tipo: tipo, Formato: formato})
		if err != nil {
			return err
		}
		shape := "^" + forma[tipo] + regexp.QuoteMeta(sep[formato]) + digitos[tipo]
		if formato == datoteca.FormatoPatenteConDv {
			shape += "-([0-9K])"
		}
		m := regexp.MustCompile(shape + "$").FindStringSubmatch(p)
		if m == nil {
			return fmt.Errorf("%s %s: %q does not have the format's shape", tipo, formato, p)
		}
		if _, ok := series[m[1]]; tipo == datoteca.TipoPatenteAntigua && !ok {
			return fmt.Errorf("%q: series %s is not in the table", p, m[1])
		}
		dv := ref(m[1], m[2])
		if formato == datoteca.FormatoPatenteConDv && m[3] != dv {
			return fmt.Errorf("%q: check digit %s, the reference says %s", p, m[3], dv)
		}
		if got, err := datoteca.PatenteDv(p); err != nil || got != dv {
			return fmt.Errorf("PatenteDv(%q) = %q (%v), reference %s", p, got, err, dv)
		}
		texto := m[1] + pick(r, []string{"", "·", "-"}) + m[2]
		if r.below(2) == 0 {
			texto = strings.ToLower(texto)
		}
		malo := pick(r, strings.Split(strings.ReplaceAll("0123456789K", dv, ""), ""))
		if !datoteca.ValidarPatente(texto+"-"+dv) || datoteca.ValidarPatente(texto+"-"+malo) {
			return fmt.Errorf("ValidarPatente: %q must be valid and %q not", texto+"-"+dv, texto+"-"+malo)
		}
		if got, err := datoteca.FormatearPatente(texto, datoteca.FormatoPatenteConDv); err != nil || got != m[1]+"·"+m[2]+"-"+dv {
			return fmt.Errorf("FormatearPatente(%q, con_dv) = %q (%v)", texto, got, err)
		}
		return nil
	})
}
