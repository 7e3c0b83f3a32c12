# The two commands of the README:
#   make demo   shows the library doing its job (C CLI and Python)
#   make test   builds everything and runs every test suite
# Both work on a fresh clone: they install what they need (Python packages into .venv).

BUILD   ?= build
PYTHON  ?= python3
VENV    ?= .venv
VPY     := $(VENV)/bin/python
CLI     := $(BUILD)/datoteca

.PHONY: all build demo test test-c test-python venv clean

all: build

build:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD) -j2

$(VPY):
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --upgrade pip

# Build the wheel's C library with CMake and install the package with its test tools.
venv: $(VPY)
	$(VPY) -m pip install --quiet ".[test]"

demo: build venv
	@echo "== C: datoteca rut --seed 42 -n 5"
	@$(CLI) rut --seed 42 -n 5
	@echo "== C: datoteca persona --seed 42 -n 2 --format jsonl"
	@$(CLI) persona --seed 42 -n 2 --format jsonl
	@echo "== Python"
	@cd /tmp && $(abspath $(VPY)) -c "from datoteca import Datoteca; d = Datoteca(seed=42); print(d.rut()); print(d.persona.nombre_completo()); print(d.direccion.direccion(region=13)['linea']); print(d.telefono.fijo(region=13)); print(d.dinero.clp()); print(d.empresa.razon_social())"

test: test-c test-python

test-c: build
	cd $(BUILD) && ctest --output-on-failure

test-python: build venv
	DATOTECA_CLI=$(abspath $(CLI)) $(VPY) -m pytest tests/python -q -p no:cacheprovider

clean:
	rm -rf $(BUILD) $(VENV)
