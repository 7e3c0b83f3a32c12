// bench/go: datoteca's Go binding against gofakeit (github.com/brianvoe/gofakeit/v7), a persona record
// one at a time and in bulk, in one run; prints a Markdown table (docs/performance.md). A module of its
// own, so gofakeit is never a requirement of github.com/datoteca/datoteca. Run: make bench-go.
package main

import (
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/brianvoe/gofakeit/v7"
	datoteca "github.com/datoteca/datoteca/bindings/go"
)

const n = 200_000

var sink int

// porSegundo runs f(n) after a warm-up, three times, and gives the best rate in values per second:
// the machine is shared, and the best of three is the least disturbed.
func porSegundo(f func(k int)) float64 {
	f(n / 20)
	best := 0.0
	for r := 0; r < 3; r++ {
		runtime.GC()
		start := time.Now()
		f(n)
		if v := float64(n) / time.Since(start).Seconds(); v > best {
			best = v
		}
	}
	return best
}

func main() {
	d, err := datoteca.New(datoteca.Opciones{Seed: 42})
	if err != nil {
		panic(err)
	}
	defer d.Close()
	fk := gofakeit.New(42)

	dtRecord := porSegundo(func(k int) {
		for i := 0; i < k; i++ {
			p, err := d.Persona.Persona()
			if err != nil {
				panic(err)
			}
			sink += len(p.Rut)
		}
	})
	dtBulk := porSegundo(func(k int) {
		v, err := d.Many("persona.persona", k, nil)
		if err != nil {
			panic(err)
		}
		sink += len(v)
	})
	tb, err := datoteca.NuevaTabla("persona.persona", datoteca.TablaOpciones{Seed: 42})
	if err != nil {
		panic(err)
	}
	dtTabla := porSegundo(func(k int) {
		rows, err := tb.Filas(0, k)
		if err != nil {
			panic(err)
		}
		sink += len(rows)
	})
	fkRecord := porSegundo(func(k int) {
		for i := 0; i < k; i++ {
			sink += len(fk.Person().SSN)
		}
	})
	dtNombre := porSegundo(func(k int) {
		for i := 0; i < k; i++ {
			s, _ := d.Persona.NombreCompleto()
			sink += len(s)
		}
	})
	fkNombre := porSegundo(func(k int) {
		for i := 0; i < k; i++ {
			sink += len(fk.Name())
		}
	})
	// gofakeit has no bulk call: its bulk is the same loop, into a slice
	fkBulk := porSegundo(func(k int) {
		out := make([]*gofakeit.PersonInfo, k)
		for i := range out {
			out[i] = fk.Person()
		}
		sink += len(out)
	})
	fmt.Fprintf(os.Stderr, "(%d)\n", sink)
	fmt.Printf("Go %s, %s/%s, %d records per measure, best of 3, one run\n\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, n)
	fmt.Println("| persona record | datoteca (Go) | gofakeit v7 `Person()` | ratio |")
	fmt.Println("|---|---:|---:|---:|")
	fmt.Printf("| one at a time (`d.Persona.Persona()`) | %.0f/s | %.0f/s | %.1f× |\n", dtRecord, fkRecord, dtRecord/fkRecord)
	fmt.Printf("| bulk (`d.Many(\"persona.persona\", n)`) | %.0f/s | %.0f/s | %.1f× |\n", dtBulk, fkBulk, dtBulk/fkBulk)
	fmt.Printf("| full name alone (`d.Persona.NombreCompleto()` / `Name()`) | %.0f/s | %.0f/s | %.1f× |\n", dtNombre, fkNombre, dtNombre/fkNombre)
	fmt.Printf("| dataset rows (`Tabla.Filas`) | %.0f/s | — | %.1f× |\n", dtTabla, dtTabla/fkBulk)
}
