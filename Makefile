# Two commands for a newcomer: `make demo` and `make test`. Each installs what it needs.
PY ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup demo test test-py lint bench fuzz clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip
	$(VPY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

demo: setup
	$(VPY) -m dtypeguard check samples/ ; test $$? -le 1

lint: setup
	$(VPY) -m ruff check server tests
	$(VPY) -m mypy

test-py: setup
	$(VPY) -m pytest -q

test: lint test-py

bench: setup
	$(VPY) bench/bench_engine.py

clean:
	rm -rf $(VENV) build *.egg-info server/*.egg-info

-include mk/*.mk
