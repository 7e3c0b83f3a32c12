package datoteca

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// SemillaBase is the base seed of ParaTest: DATOTECA_SEED (decimal or 0x-hex, in [0, 2^64)), else 0.
func SemillaBase() (uint64, error) {
	text := strings.TrimSpace(os.Getenv("DATOTECA_SEED"))
	if text == "" {
		return 0, nil
	}
	var n uint64
	var err error
	if len(text) > 2 && strings.EqualFold(text[:2], "0x") {
		n, err = strconv.ParseUint(text[2:], 16, 64)
	} else {
		n, err = strconv.ParseUint(text, 10, 64)
	}
	if err != nil {
		return 0, errorArg("DATOTECA_SEED must be an integer in [0, 2**64), decimal or 0x-hex, got " + strconv.Quote(text))
	}
	return n, nil
}

// ParaTest is a Datoteca for this test alone, seeded with the text "{base}:{package path}:{t.Name()}"
// (the rule of the pytest fixture and the Vitest helper, docs/helpers.md, with the import path of the
// calling test's package as the path): the same data from any working directory and in any test
// order. On failure it logs the seed and a command that replays the test with the same data. It is
// closed when the test ends.
func ParaTest(t testing.TB) *Datoteca {
	t.Helper()
	base, err := SemillaBase()
	if err != nil {
		t.Fatal(err)
	}
	pc, file, _, _ := runtime.Caller(1)
	pkg := paquete(runtime.FuncForPC(pc).Name())
	seed := strconv.FormatUint(base, 10) + ":" + pkg + ":" + t.Name()
	d, err := New(Opciones{SeedTexto: seed})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		t.Helper()
		if t.Failed() {
			t.Logf("datoteca seed: %s\nreplay with: %s", "'"+strings.ReplaceAll(seed, "'", `'\''`)+"'", replay(base, pkg, file, t.Name()))
		}
		d.Close()
	})
	return d
}

// paquete is the import path of a function's package ("example.com/m/pkg" of
// "example.com/m/pkg_test.TestX.func1"): an external test package counts as the package it tests.
func paquete(fn string) string {
	slash := strings.LastIndexByte(fn, '/')
	dot := strings.IndexByte(fn[slash+1:], '.')
	if dot < 0 {
		return fn
	}
	return strings.TrimSuffix(fn[:slash+1+dot], "_test")
}

// replay is a shell command that reruns one test (subtests too) with this base seed, from anywhere.
func replay(base uint64, pkg, file, name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	run := "DATOTECA_SEED=" + strconv.FormatUint(base, 10) + " go test -run " + citar(strings.Join(parts, "/"))
	if root, rel, ok := modulo(filepath.Dir(file)); ok {
		return "cd " + citar(root) + " && " + run + " " + citar("./"+filepath.ToSlash(rel))
	}
	return run + " " + citar(pkg) // a -trimpath build has no directory: the import path works inside the module
}

// modulo is the module root above dir (the nearest go.mod) and dir relative to it.
func modulo(dir string) (string, string, bool) {
	if !filepath.IsAbs(dir) {
		return "", "", false
	}
	for root := dir; ; {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			rel, err := filepath.Rel(root, dir)
			return root, rel, err == nil
		}
		up := filepath.Dir(root)
		if up == root {
			return "", "", false
		}
		root = up
	}
}

// citar quotes a word for a POSIX shell.
func citar(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-=:") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
