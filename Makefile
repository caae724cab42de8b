# The two commands of the README: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/exactdp delta --eps 0.1 -k 10 --delta 0 --eps-g 0.5
	$(BIN)/exactdp delta --exp-eps 11/10,6/5,3/2 --delta 1/1000 --exp-eps-g 2
	$(BIN)/exactdp epsilon --eps 0.1 -k 100 --delta-g 1e-6 --digits 20

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
