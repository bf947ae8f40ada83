# VS Code extension: build, unit tests, .vsix, and end-to-end tests in real VS Code (code-server).
#   make ext-unit    TypeScript unit tests + strict type check          (seconds, no browser)
#   make vsix        dtypeguard-<version>.vsix (bundled server + libs)   (~1 min)
#                    = dtypeguard-linux-x64-<version>.vsix, the package the e2e suites install
#   make vsix-all    dtypeguard-<target>-<version>.vsix for every VS Code target in VSIX_TARGETS,
#                    each with its platform's wheels, checked by check_vsix.py (~1 min cached)
#   make e2e         extension-host suites + .vsix UI check in code-server + headless Chromium
#   make test-ext    all of the above
# `e2e-setup` installs Debian packages and code-server once, into $(E2E_CACHE) (outside the repo).
# Bundled libs per target are kept in $(VSIX_CACHE) (outside the repo), keyed by the bundle
# script, the requirements and the Pythons: a fresh clone copies them instead of downloading.

EXT_VERSION := $(shell node -p "require('./package.json').version" 2>/dev/null)
EXT_VSIX := dtypeguard-$(EXT_VERSION).vsix
EXT_TARGET ?= linux-x64
EXT_PYTHONS ?= 3.10,3.11,3.12,3.13,3.14
E2E_CACHE ?= $(HOME)/.cache/dtypeguard-e2e
VSIX_CACHE ?= $(HOME)/.cache/dtypeguard-vsix
VSIX_TARGETS ?= linux-x64 linux-arm64 darwin-x64 darwin-arm64 win32-x64
VSIX_ALL := $(foreach t,$(VSIX_TARGETS),dtypeguard-$(t)-$(EXT_VERSION).vsix)
EXT_STAMP := node_modules/.dtypeguard-npm-ci
EXT_SRC := $(wildcard extension/src/*.ts)
EXT_LIBS_STAMP := out/stamps/bundled-libs
EXT_BUNDLE_STAMP := out/stamps/bundled
SERVER_SRC := $(shell find server/dtypeguard -name '*.py' 2>/dev/null)

.PHONY: ext-deps ext-build ext-unit vsix vsix-all e2e-setup e2e test-ext ext-clean

ext-deps: $(EXT_STAMP)

$(EXT_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The extension JS (esbuild) and bundled/ (server source + its libs for every CPython >= 3.10).
ext-build: dist/extension.js $(EXT_BUNDLE_STAMP)

dist/extension.js: $(EXT_STAMP) $(EXT_SRC) extension/scripts/build.mjs
	node extension/scripts/build.mjs --production

$(EXT_LIBS_STAMP): pyproject.toml extension/scripts/bundle_python.py
	$(PY) extension/scripts/bundle_python.py --part libs --target $(EXT_TARGET) --pythons $(EXT_PYTHONS) \
		--cache $(VSIX_CACHE)
	mkdir -p $(@D) && touch $@

$(EXT_BUNDLE_STAMP): $(EXT_LIBS_STAMP) $(SERVER_SRC)
	$(PY) extension/scripts/bundle_python.py --part server
	mkdir -p $(@D) && touch $@

ext-unit: $(EXT_STAMP)
	npx tsc --noEmit -p .
	node extension/scripts/build.mjs --tests
	node --test out/unit/

vsix: $(EXT_VSIX)

vsix-all: $(VSIX_ALL) $(EXT_VSIX)
	@ls -l $(VSIX_ALL)

# One package per target, staged in out/vsix/<target>/ with that target's libs.
dtypeguard-%-$(EXT_VERSION).vsix: dist/extension.js $(EXT_BUNDLE_STAMP) package.json .vscodeignore LICENSE \
		extension/README.md extension/icon.png extension/scripts/package_vsix.py extension/scripts/check_vsix.py
	$(PY) extension/scripts/package_vsix.py --target $* --pythons $(EXT_PYTHONS) --cache $(VSIX_CACHE) --out $@

$(EXT_VSIX): dtypeguard-$(EXT_TARGET)-$(EXT_VERSION).vsix
	cp $< $@

e2e-setup: $(EXT_STAMP)
	E2E_CACHE=$(E2E_CACHE) bash extension/e2e/scripts/setup.sh

# The suites use the repo's .venv python (torch) for Verify, and the bundled libs for the server.
e2e: e2e-setup $(EXT_VSIX) setup
	node extension/scripts/build.mjs --tests
	E2E_CACHE=$(E2E_CACHE) VSIX=$(EXT_VSIX) bash extension/e2e/scripts/run-e2e.sh

test-ext: ext-unit vsix e2e

ext-clean:
	rm -rf dist out bundled .e2e dtypeguard-*.vsix
