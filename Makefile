# The two commands of the README: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-fast lint bench proofs-report fuzz clean figures figures-interactive figures-gdp figures-regions figures-guides \
	docs docs-serve docs-check docs-reference \
	corpus audit-peers

$(STAMP): pyproject.toml setup.py
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	@echo '$$ exactdp delta --eps 0.1 -k 10 --eps-g 0.5        # certified: eps = 0.1 makes e^eps transcendental'
	@$(BIN)/exactdp delta --eps 0.1 -k 10 --eps-g 0.5
	@echo; echo '$$ exactdp epsilon --exp-eps 11/10,6/5,3/2 --delta 1/1000 --delta-g 1/100   # exact: e^eps_g is a rational'
	@$(BIN)/exactdp epsilon --exp-eps 11/10,6/5,3/2 --delta 1/1000 --delta-g 1/100
	@echo; echo '$$ exactdp certify --eps 0.1 -k 100 --claim-eps 4.8 --claim-delta 1e-6   # check a claimed (eps, delta)'
	@$(BIN)/exactdp certify --eps 0.1 -k 100 --claim-eps 4.8 --claim-delta 1e-6
	@echo; echo '$$ exactdp approx --eps 0.1 -k 100 --delta-g 1e-6 --eta 0.01   # Theorem 1.7, guarantee certified'
	@$(BIN)/exactdp approx --eps 0.1 -k 100 --delta-g 1e-6 --eta 0.01

# the fast tier (under 2 minutes): the tests marked slow (tests/slow_tests.txt, and in their files) left out
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -m "not slow"

test: $(STAMP)
	$(BIN)/python -m pytest -q

# ruff (style, complexity C901, argument counts PLR0913) and vulture (dead code; true
# positives such as public API are named in vulture_whitelist.py)
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/vulture exactdp vulture_whitelist.py --min-confidence 60

fuzz: $(STAMP)
	$(BIN)/python tests/fuzz/fuzz.py --cases 10000 --seed 1 --report docs/fuzz.md

proofs-report: $(STAMP)
	$(BIN)/exactdp proofs --report docs/proofs-report.md

# every mutant of every check (issue 27; a few minutes): the mutation section of docs/proofs-report.md
.PHONY: proofs-mutants
proofs-mutants: $(STAMP)
	$(BIN)/exactdp proofs --mutants --report docs/proofs-report.md

figures-interactive: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[plot]'
	$(BIN)/python docs/figures/make_interactive.py

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis site

# every figure under docs/figures/ (matplotlib: the `plot` extra)
figures: figures-regions figures-interactive figures-gdp figures-guides figures-accounting

# docs/figures/guide-*.png (docs/guides/optcomp.md, calibrate.md)
figures-guides: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[plot]'
	$(BIN)/python docs/figures/make_guides.py

# docs/figures/accounting-peers.png (docs/guides/dpsgd.md), from the answers and timings that
# benchmarks/bench_accounting.py last wrote to docs/figures/accounting-peers.json
.PHONY: figures-accounting bench-accounting
figures-accounting: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[plot]'
	$(BIN)/python docs/figures/make_accounting.py

# the certified DP-SGD accountant against the float accountants (docs/benchmarks.md, section accounting)
bench-accounting: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[peers]'
	$(BIN)/python benchmarks/bench_accounting.py

# docs/figures/gdp-tradeoff.png (docs/gdp.md)
figures-gdp: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[plot]'
	$(BIN)/python docs/figures/gdp_figures.py

# docs/figures/scale-time-vs-k.png (docs/benchmarks.md, section scale; issue 14), drawn from the timings
# benchmarks/bench_scale.py last wrote to docs/figures/scale-timings.json (rerun it to re-measure)
.PHONY: figures-scale
figures-scale: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[plot]'
	$(BIN)/python benchmarks/bench_scale.py --plot

# Figures of docs/regions.md (issue 9): KOV Figures 2 and 3, trade-off curves.
figures-regions: $(STAMP)
	$(BIN)/python docs/figures/make_regions.py

# The documentation site (mkdocs.yml; docs/index.md, "This site"). `docs` builds it into
# site/ with --strict (a warning is an error); `docs-serve` serves it with live reload.
DOCS_STAMP := $(VENV)/.docs-installed
# mkdocs-material prints a notice about MkDocs 2.0 on every run; it is not about this site
MKDOCS := NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs

$(DOCS_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[docs]'
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	$(MKDOCS) build --strict

docs-serve: $(DOCS_STAMP)
	$(MKDOCS) serve --strict -a 127.0.0.1:8000

# docs/notebooks/*.ipynb executed again and saved with their output (the site shows that output;
# tests/docs/test_notebooks.py checks that a fresh run prints the same)
.PHONY: notebooks
notebooks: $(STAMP) opacus-venv
	$(BIN)/jupyter-execute --inplace docs/notebooks/dp-accounting.ipynb docs/notebooks/calibrate.ipynb docs/notebooks/audit.ipynb
	"$(OPACUS_VENV)/bin/jupyter-execute" --inplace docs/notebooks/opacus.ipynb

# docs/reference/*.md from the public modules (tests/docs/test_reference.py fails while stale)
docs-reference: $(STAMP)
	$(BIN)/python docs/tools/gen_reference.py

# Every page in headless Chromium (Debian's, driven by Playwright; never a downloaded
# browser): console errors, failed requests, unrendered images, broken links and anchors.
# Screenshots: site/_check/landing.png, site/_check/reference.png. Not run in CI.
docs-check: docs
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get update -qq && apt-get install -y -qq chromium; } \
		|| { echo "docs-check needs Debian's chromium: sudo apt-get install chromium" >&2; exit 2; }
	$(BIN)/python docs/tools/site_check.py --site site --out site/_check

# the curated conformance corpus shipped in the package (exactdp/corpus/data; docs/testing.md)
corpus: $(STAMP)
	$(BIN)/exactdp corpus build --out exactdp/corpus/data

# docs/peers.md's scoreboard: both audit suites (the (eps, delta) grid, the DP-SGD corpus) for every
# peer of the registries that is installed (the others are named "not installed"), each (suite, peer)
# in its own process with its peak memory, times and load recorded, and exactdp's certified answers
# timed in the same run; then the page (docs/tools/peers_page.py). Resumable: a stopped run keeps its
# finished cases in build/scoreboard and `make scoreboard` goes on from there (delete that folder to
# measure afresh). SCOREBOARD_GRID=quick runs the (eps, delta) suite on its small grid.
# Measured on the shared 2-core machine at load 5-10 (docs/peers.md): 81 min of wall time one process
# after another (14 min of CPU), the DP-SGD suite 62 min of it (dp_accounting 35, prv_accountant 19,
# exactdp's timings 8), the (eps, delta) full grid 19; every process under 2 GiB (its data is capped there).
SCOREBOARD_GRID ?= full
.PHONY: scoreboard
scoreboard: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[peers]'
	nice -n 5 $(BIN)/python docs/tools/scoreboard.py run --dir build/scoreboard --grid $(SCOREBOARD_GRID); \
	  s=$$?; $(BIN)/python docs/tools/peers_page.py --dir build/scoreboard && exit $$s

# the former name of the scoreboard's target
audit-peers: scoreboard

# exactdp.integrations.opacus against the real Opacus (tests/integrations/test_opacus.py; it
# skips elsewhere). Opacus pulls torch: its own venv, kept between runs under ~/.cache (rebuilt
# when pyproject.toml changes), with a CPU build of torch. OPACUS_TORCH is the torch to install:
# the default is the CPU wheel this project's machines keep on disk (pip takes it from there);
# elsewhere, point it at a CPU build of torch (e.g. pip's --index-url of one), or plain `torch`
# (a CUDA build of several GB). Measured on a loaded 2-core machine: 7.2 min and 1.5 GB the
# first time (with the tests), about 1.5 min a run after.
OPACUS_VENV ?= $(HOME)/.cache/exactdp/venv-opacus
OPACUS_TORCH ?= torch==2.13.0
OPACUS_STAMP = $(OPACUS_VENV)/.installed-$(shell cat pyproject.toml setup.py | cksum | cut -d' ' -f1)
.PHONY: test-opacus opacus-venv
opacus-venv:
	@if [ ! -f "$(OPACUS_STAMP)" ]; then \
	  rm -rf "$(OPACUS_VENV)" && $(PY) -m venv "$(OPACUS_VENV)" && \
	  "$(OPACUS_VENV)/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip && \
	  "$(OPACUS_VENV)/bin/python" -m pip install --quiet --disable-pip-version-check $(OPACUS_TORCH) -e '.[test,opacus]' && \
	  touch "$(OPACUS_STAMP)"; fi
	"$(OPACUS_VENV)/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -e .

test-opacus: opacus-venv
	"$(OPACUS_VENV)/bin/python" -m pytest -q tests/integrations/test_opacus.py tests/docs/test_notebooks.py -k opacus

# the declared floors of the dependencies (pyproject.toml), installed exactly into a fresh
# .venv-min and tested there: every floor is a version that works (tests/reliability/minimums.py)
MIN_VENV := .venv-min
.PHONY: check-minimums
check-minimums:
	rm -rf $(MIN_VENV) && $(PY) -m venv $(MIN_VENV)
	$(PY) tests/reliability/minimums.py > $(MIN_VENV)/floors.txt
	$(MIN_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r $(MIN_VENV)/floors.txt pytest hypothesis
	$(MIN_VENV)/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	$(MIN_VENV)/bin/python -m pip check
	$(MIN_VENV)/bin/python -m pytest -q -x tests/numbers tests/cli/test_cli.py tests/events tests/profile tests/reliability
