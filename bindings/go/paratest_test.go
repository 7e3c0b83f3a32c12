package datoteca_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	datoteca "github.com/datoteca/datoteca/bindings/go"
)

// TestFallaAdrede fails on purpose when DATOTECA_GO_FALLAR=1 (TestParaTestReplay runs it in a
// subprocess): it logs its data, so the replay can be compared.
func TestFallaAdrede(t *testing.T) {
	if os.Getenv("DATOTECA_GO_FALLAR") != "1" {
		t.Skip("runs only as TestParaTestReplay's subprocess")
	}
	for _, name := range []string{"plain", "con espacio 'y' ñ"} {
		t.Run(name, func(t *testing.T) {
			d := datoteca.ParaTest(t)
			rut, _ := d.Rut()
			p, _ := d.Persona.Persona()
			t.Logf("DATOS %s | %s | %s", rut, p.NombreCompleto, p.FechaNacimiento)
			t.Fail()
		})
	}
}

func goBin() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

var (
	reDatos  = regexp.MustCompile(`DATOS [^\n]*`)
	reSeed   = regexp.MustCompile(`datoteca seed: ([^\n]*)`)
	reReplay = regexp.MustCompile(`replay with: ([^\n]*)`)
)

// TestParaTestReplay: a failing test prints its seed and a replay command; the command, run by bash
// from another directory, gives the same data; the seed is "{base}:{package path}:{name}" (the rule of
// docs/helpers.md), the same from the package directory and from the module root.
func TestParaTestReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the test binary twice more; make test-go runs it without -short")
	}
	run := func(dir string, args ...string) string {
		cmd := exec.Command(goBin(), append([]string{"test", "-count=1", "-v", "-run", "^TestFallaAdrede$"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "DATOTECA_GO_FALLAR=1", "DATOTECA_SEED=0x2a")
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Fatalf("the failing test passed:\n%s", out)
		}
		return string(out)
	}
	first := run(".", ".")
	fromRoot := run(raiz, "./bindings/go")
	datos, seeds, replays := reDatos.FindAllString(first, -1), reSeed.FindAllStringSubmatch(first, -1), reReplay.FindAllStringSubmatch(first, -1)
	if len(datos) != 2 || len(seeds) != 2 || len(replays) != 2 {
		t.Fatalf("expected the data, a seed and a replay per failing subtest:\n%s", first)
	}
	if got := reDatos.FindAllString(fromRoot, -1); strings.Join(got, "\n") != strings.Join(datos, "\n") {
		t.Fatalf("another working directory, other data:\n%v\n%v", datos, got)
	}
	wantSeed := "'42:github.com/datoteca/datoteca/bindings/go:TestFallaAdrede/plain'"
	if seeds[0][1] != wantSeed {
		t.Errorf("seed %s, expected %s", seeds[0][1], wantSeed)
	}
	// the seed's data, made here from the printed text seed alone
	d, _ := datoteca.New(datoteca.Opciones{SeedTexto: strings.Trim(wantSeed, "'")})
	rut, _ := d.Rut()
	if !strings.Contains(datos[0], "DATOS "+rut+" |") {
		t.Errorf("the seed %s gives RUT %s, the test logged %q", wantSeed, rut, datos[0])
	}
	for i, r := range replays {
		cmd := exec.Command("bash", "-c", r[1])
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "DATOTECA_GO_FALLAR=1", "DATOTECA_SEED=")
		out, _ := cmd.CombinedOutput()
		got := reDatos.FindAllString(string(out), -1)
		if len(got) != 1 || got[0] != datos[i] {
			t.Errorf("replay %q gave %v, the failure logged %q:\n%s", r[1], got, datos[i], out)
		}
	}
}

func TestParaTestSemilla(t *testing.T) {
	t.Setenv("DATOTECA_SEED", "7")
	d := datoteca.ParaTest(t)
	want, _ := datoteca.New(datoteca.Opciones{SeedTexto: "7:github.com/datoteca/datoteca/bindings/go:TestParaTestSemilla"})
	a, _ := d.Rut()
	b, _ := want.Rut()
	if a != b {
		t.Errorf("ParaTest's first RUT %s, the documented seed's %s", a, b)
	}
	t.Setenv("DATOTECA_SEED", "siete")
	if _, err := datoteca.SemillaBase(); err == nil || !strings.Contains(err.Error(), "DATOTECA_SEED") {
		t.Errorf("a bad DATOTECA_SEED: %v", err)
	}
}

// One Datoteca per goroutine, and a Tabla shared by all: go test -race checks the loader shares no
// buffer between them.
func TestConcurrencia(t *testing.T) {
	tb, err := datoteca.NuevaTabla("persona.persona", datoteca.TablaOpciones{Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := tb.Filas(0, 50)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			d, _ := datoteca.New(datoteca.Opciones{Seed: 1})
			defer d.Close()
			ref, _ := datoteca.New(datoteca.Opciones{Seed: 1})
			defer ref.Close()
			for i := 0; i < 200; i++ {
				a, _ := d.Persona.Persona()
				b, _ := ref.Persona.Persona()
				if a.Rut != b.Rut || a.NombreCompleto != b.NombreCompleto || a.FechaNacimiento != b.FechaNacimiento {
					t.Errorf("goroutine %d, value %d: %v != %v", g, i, a, b)
				}
				if !datoteca.ValidarRut(a.Rut) {
					t.Errorf("goroutine %d: %s", g, a.Rut)
				}
			}
			rows, _ := tb.Filas(0, 50)
			for i := range rows {
				if filaTexto(rows[i]) != filaTexto(want[i]) {
					t.Errorf("goroutine %d: row %d differs", g, i)
				}
			}
		}(g)
	}
	wg.Wait()
}
