# Packaging: what users install. The .vsix per VS Code target (mk/ext.mk), the wheel and sdist,
# the pre-commit hooks, the SARIF for CI code scanning.
#   make dist             dist/dtypeguard-<version>-py3-none-any.whl and .tar.gz (python -m build)
#   make test-packaging   builds the .vsix of every target (vsix-all), then runs tests/packaging
#                         -m packaging: the wheel-tag check of each package, the wheel installed
#                         into a fresh venv outside the checkout, `pre-commit try-repo`.
# pip and pre-commit keep their downloads in ~/.cache (outside the repo); the libs per target
# are cached in $(VSIX_CACHE).

.PHONY: dist test-packaging

dist: setup
	$(VPY) -m build --outdir dist .

test-packaging: setup vsix-all
	$(VPY) -m pytest -q -m packaging tests/packaging
