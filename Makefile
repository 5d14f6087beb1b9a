# `make test` and `make run` work on a fresh machine: the virtualenv is made on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all install test lint format run bench clean

all: install

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy bot db cogs

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

test: lint
	$(BIN)/python -m pytest

run: $(STAMP)
	$(BIN)/python -m bot

# The engine and Discord benchmarks default to 500 and 200 tables; these sizes finish in a
# few minutes on a small machine (pass --tables to either for the full run).
bench: $(STAMP)
	$(BIN)/python -m bot bench rules
	$(BIN)/python -m bot bench ai
	$(BIN)/python -m bot bench db
	$(BIN)/python -m bot bench engine --tables 100
	$(BIN)/python -m bot bench discord --tables 50

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
