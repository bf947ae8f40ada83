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
	@echo "== dtypeguard check: the hazard samples and the blog's 'one trick' script =="
	@$(VPY) -m dtypeguard check samples/hazards samples/blog_mnist_trick.py; test $$? -eq 1  # 1: hazards found, as expected
	@echo "== the fixed and clean samples =="
	$(VPY) -m dtypeguard check samples/fixed samples/clean
	@echo "== dtypeguard verify: run the blog script up to its first optimizer step on CPU =="
	@$(VPY) -m dtypeguard verify --device cpu samples/blog_mnist_trick.py; test $$? -eq 1  # 1: the step fails, as the blog's trick does
	@echo "== dtypeguard verify: its fixed version =="
	$(VPY) -m dtypeguard verify --device cpu samples/fixed/blog_mnist_trick.py

lint: setup
	$(VPY) -m ruff check server tests
	$(VPY) -m mypy

test-py: setup
	$(VPY) -m pytest -q

# Everything: lint, the Python suites (engine, fixes, verify, LSP, Neovim), the VS Code
# extension (unit tests, .vsix, end-to-end in real VS Code), and the packages (a .vsix per
# platform, the wheel in a fresh venv, the pre-commit hooks). Installs what it needs first.
test: lint nvim-setup test-py test-ext test-packaging

bench: setup
	$(VPY) bench/bench_engine.py
	$(VPY) bench/bench_verify.py
	@if [ -f bench/bench_lsp.py ]; then $(VPY) bench/bench_lsp.py; fi

clean:
	rm -rf $(VENV) build *.egg-info server/*.egg-info

-include mk/*.mk
