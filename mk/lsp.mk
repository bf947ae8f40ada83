# Language server: the Neovim client used by tests/nvim (Debian's neovim 0.7.x is enough).
#   make nvim-setup   install neovim once (idempotent; needs root or sudo for apt-get)
#   make test-lsp     the language-server tests (pytest-lsp over stdio + headless Neovim)
#   make bench-lsp    didChange -> publishDiagnostics latency on a 2,000-line file

.PHONY: nvim-setup test-lsp bench-lsp

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

nvim-setup:
	@if command -v nvim >/dev/null 2>&1; then \
		echo "nvim already installed: $$(nvim --version | head -1)"; \
	else \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq neovim && \
		nvim --version | head -1; \
	fi

test-lsp: setup
	$(VPY) -m pytest -q tests/lsp tests/nvim

bench-lsp: setup
	$(VPY) bench/bench_lsp.py
