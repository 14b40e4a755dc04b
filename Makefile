# Every target runs inside the project's own virtual environment, created on demand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test lint typecheck demo clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

test: $(STAMP)
	$(BIN)/ruff check toolstream generators tests
	$(BIN)/mypy
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check toolstream generators tests

typecheck: $(STAMP)
	$(BIN)/mypy

demo: $(STAMP)
	@for f in corpus/seeds/*.json; do \
		echo "== $$f"; \
		$(BIN)/toolstream validate $$f --report text; \
		echo "exit status: $$?"; \
	done

clean:
	rm -rf $(VENV) build *.egg-info
