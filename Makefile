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

# The engine benchmark defaults to 500 tables; 100 finish in a few minutes on a small machine
# (pass --tables for the full run). The Discord benchmark runs its headline setup: 200 tables,
# the bot in its own process, humans thinking 1–2 s per action (about a minute).
bench: $(STAMP)
	$(BIN)/python -m bot bench rules
	$(BIN)/python -m bot bench ai
	$(BIN)/python -m bot bench db
	$(BIN)/python -m bot bench engine --tables 100
	$(BIN)/python -m bot bench discord

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
