#!/usr/bin/env bash
# Install what the code-server end-to-end tests need, idempotently (a second run only checks).
#   - Debian packages: chromium (headless browser), and the toolchain code-server's native
#     modules need (no prebuilt binaries are reachable here, so node-gyp compiles them).
#   - code-server 4.100.3 (= VS Code 1.100.3; the newest that runs on node 20) into a cache
#     folder OUTSIDE the repo, so `git clean` or a fresh clone does not pay the ~3-4 min compile.
# See docs/editors.md (shared) for why each ingredient is needed.
set -euo pipefail
CS_VERSION=${CS_VERSION:-4.100.3}
CACHE=${E2E_CACHE:-$HOME/.cache/dtypeguard-e2e}
CS_DIR=$CACHE/code-server-$CS_VERSION
CS_BIN=$CS_DIR/node_modules/.bin/code-server
# `code-server --version` writes ~/.config/code-server/config.yaml unless given a config: keep hermetic.
cs_version() { XDG_CONFIG_HOME=$CACHE/xdg "$CS_BIN" --config /dev/null --version 2>/dev/null | head -1; }

need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
command -v rg >/dev/null || need_apt+=(ripgrep)
for p in build-essential pkg-config libkrb5-dev; do
  dpkg -s "$p" >/dev/null 2>&1 || need_apt+=("$p")
done
if ((${#need_apt[@]})); then
  echo "e2e-setup: apt-get install ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

if [ -x "$CS_BIN" ] && cs_version | grep -q "^$CS_VERSION "; then
  echo "e2e-setup: code-server $CS_VERSION already in $CS_DIR"
else
  echo "e2e-setup: installing code-server $CS_VERSION into $CS_DIR (compiles native modules: minutes)"
  rm -rf "$CS_DIR"; mkdir -p "$CS_DIR" "$CACHE/tmp/vscode-ripgrep-cache-1.15.11" "$CACHE/rgtar"
  # @vscode/ripgrep's postinstall downloads from GitHub (unreachable); it first looks for this
  # cached tarball, so a tarball holding Debian's rg satisfies it.
  cp "$(command -v rg)" "$CACHE/rgtar/rg"
  tar czf "$CACHE/tmp/vscode-ripgrep-cache-1.15.11/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$CACHE/rgtar" rg
  cd "$CS_DIR"
  printf '{"name":"dtypeguard-e2e-code-server","private":true}\n' > package.json
  # unsafe-perm: postinstall refuses to run as root without it; yes: node-pty runs `npx node-gyp`.
  TMPDIR=$CACHE/tmp npm_config_yes=true npm_config_unsafe_perm=true \
    npm install --no-audit --no-fund --loglevel=error "code-server@$CS_VERSION" --unsafe-perm
  cs_version
fi
echo "e2e-setup: ok ($CS_BIN)"
