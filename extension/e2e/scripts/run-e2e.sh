#!/usr/bin/env bash
# End-to-end tests in real VS Code (code-server 4.100.3) driven by headless Chromium:
#   trusted    the e2e suite in the real extension host, extension loaded from the repo
#              (extensionDevelopmentPath) with the real server and bundled libs
#   untrusted  the same host in Restricted Mode: analysis yes, verify no
#   vsix       install the built .vsix into a fresh code-server, check the Problems panel in
#              the UI and save a screenshot (.e2e/vsix/vsix-problems-panel.png); then open a
#              notebook and see the squiggle in its set_default_dtype cell (vsix-notebook.png)
# Each run gets a fresh user-data/extensions/config dir under .e2e/<name>/ and a copy of
# samples/ as its workspace. Exit status: 0 only if every selected run passed.
#
# env: E2E_SUITES (default "trusted untrusted vsix"; "smoke" = activation + server start only),
#      E2E_CACHE (where e2e-setup put code-server), E2E_PYTHON (interpreter setting; default
#      the repo's .venv), VSIX, DTYPEGUARD_E2E_ONLY (run only tests whose name contains it).
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
CACHE=${E2E_CACHE:-$HOME/.cache/dtypeguard-e2e}
CS=${CS:-$CACHE/code-server-4.100.3/node_modules/.bin/code-server}
PYTHON=${E2E_PYTHON:-$REPO/.venv/bin/python}
VERSION=$(node -p "require('$REPO/package.json').version")
VSIX=${VSIX:-$REPO/dtypeguard-$VERSION.vsix}
case $VSIX in /*) ;; *) VSIX=$REPO/$VSIX ;; esac
SUITES=${E2E_SUITES:-trusted untrusted vsix}
OUT=$REPO/.e2e
DRIVER=$REPO/extension/e2e/driver
mkdir -p "$OUT"

[ -x "$CS" ] || { echo "e2e: code-server not found at $CS; run 'make e2e-setup'" >&2; exit 2; }
[ -x "$PYTHON" ] || { echo "e2e: interpreter $PYTHON not found; run 'make setup'" >&2; exit 2; }
[ -f "$REPO/out/e2e/suite/index.js" ] || { echo "e2e: suite not built; run 'node extension/scripts/build.mjs --tests'" >&2; exit 2; }
[ -f "$REPO/dist/extension.js" ] && [ -d "$REPO/bundled/libs" ] || { echo "e2e: run 'make ext-build' first" >&2; exit 2; }

CSPID=""
stop_code_server() {
  if [ -n "$CSPID" ]; then
    kill -- "-$CSPID" 2>/dev/null   # its own process group (setsid): server, extension host, our Python server
    wait "$CSPID" 2>/dev/null
    CSPID=""
  fi
}
trap stop_code_server EXIT INT TERM

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

# prepare_run NAME TRUSTED(yes|no): fresh run dir with settings, config and a workspace copy.
prepare_run() {
  RUN=$OUT/$1
  rm -rf "$RUN"
  mkdir -p "$RUN/user-data/User" "$RUN/extensions" "$RUN/ws"
  cp -r "$REPO/samples/." "$RUN/ws/"
  printf 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n' > "$RUN/config.yaml"
  local trust=false; [ "$2" = no ] && trust=true
  # the trusted suite writes the interpreter as users often do, a plain string; the others a list
  local interpreter="[\"$PYTHON\"]"; [ "$2" = yes ] && interpreter="\"$PYTHON\""
  cat > "$RUN/user-data/User/settings.json" <<JSON
{
  "dtypeguard.interpreter": $interpreter,
  "dtypeguard.verifyTimeout": 120,
  "security.workspace.trust.enabled": $trust,
  "security.workspace.trust.startupPrompt": "never",
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "update.mode": "none",
  "workbench.enableExperiments": false,
  "python.languageServer": "None",
  "git.enabled": false,
  "git.openRepositoryInParentFolders": "never"
}
JSON
}

# start_code_server TRUSTED(yes|no): start on a free port and wait until /healthz answers.
start_code_server() {
  PORT=$(free_port)
  local flags=(--config "$RUN/config.yaml" --bind-addr "127.0.0.1:$PORT" --auth none
    --disable-telemetry --disable-update-check --user-data-dir "$RUN/user-data" --extensions-dir "$RUN/extensions")
  [ "$1" = yes ] && flags+=(--disable-workspace-trust)
  XDG_CONFIG_HOME=$RUN/xdg-config XDG_DATA_HOME=$RUN/xdg-data setsid "$CS" "${flags[@]}" > "$RUN/code-server.log" 2>&1 &
  CSPID=$!
  local deadline=$((SECONDS + 60))
  until curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null; do
    if ((SECONDS > deadline)) || ! kill -0 "$CSPID" 2>/dev/null; then
      echo "e2e: code-server did not come up; log:"; tail -20 "$RUN/code-server.log"; return 1
    fi
    sleep 0.2   # poll interval of the health check
  done
}

show_logs() {
  echo "--- dtypeguard extension log ($1):"
  find "$RUN" -path '*dtypeguard*' -name '*.log' -exec tail -n 40 {} \; 2>/dev/null
  echo "--- code-server log tail:"; tail -n 8 "$RUN/code-server.log"
}

declare -A RESULT TIME
run_suite() {  # run_suite NAME SUITE TRUSTED
  local name=$1 suite=$2 trusted=$3 t0=$SECONDS rc
  echo "=== e2e $name (suite $suite, trusted=$trusted)"
  prepare_run "$name" "$trusted"
  printf '{"suite": "%s", "python": "%s"}\n' "$suite" "$PYTHON" > "$RUN/e2e-config.json"
  start_code_server "$trusted" || { RESULT[$name]=FAIL; TIME[$name]=$((SECONDS - t0)); return; }
  PORT=$PORT FOLDER=$RUN/ws DEV=$REPO TESTS=$REPO/out/e2e/suite/index OUTDIR=$RUN \
    node "$DRIVER/ext-tests.js"
  rc=$?
  ((rc == 0)) || show_logs "$name"
  stop_code_server
  RESULT[$name]=$([ $rc = 0 ] && echo PASS || echo FAIL); TIME[$name]=$((SECONDS - t0))
}

run_vsix() {
  local name=vsix t0=$SECONDS rc
  echo "=== e2e vsix ($VSIX installed into a fresh code-server, UI check)"
  [ -f "$VSIX" ] || { echo "e2e: $VSIX missing; run 'make vsix'"; RESULT[$name]=FAIL; TIME[$name]=0; return; }
  prepare_run "$name" yes
  rm -rf "$RUN/ws"; mkdir -p "$RUN/ws"
  cp "$REPO/samples/hazards/h06_numpy_float64_linear.py" "$RUN/ws/"
  cp "$REPO/samples/notebooks/cross_cell_default_dtype.ipynb" "$RUN/ws/"
  XDG_CONFIG_HOME=$RUN/xdg-config XDG_DATA_HOME=$RUN/xdg-data "$CS" --config "$RUN/config.yaml" \
    --user-data-dir "$RUN/user-data" --extensions-dir "$RUN/extensions" --install-extension "$VSIX" 2>&1 | tail -1
  start_code_server yes || { RESULT[$name]=FAIL; TIME[$name]=$((SECONDS - t0)); return; }
  PORT=$PORT FOLDER=$RUN/ws FILE=h06_numpy_float64_linear.py EXPECT=DG004 LINE_TEXT='inputs = torch.from_numpy(X)' \
    NOTEBOOK=cross_cell_default_dtype.ipynb NOTEBOOK_EXPECT=DG001 NOTEBOOK_LINE='torch.set_default_dtype(torch.float64)' \
    OUTDIR=$RUN node "$DRIVER/ui-vsix.js"
  rc=$?
  ((rc == 0)) || show_logs "$name"
  stop_code_server
  RESULT[$name]=$([ $rc = 0 ] && echo PASS || echo FAIL); TIME[$name]=$((SECONDS - t0))
}

for s in $SUITES; do
  case $s in
    smoke) run_suite smoke smoke yes ;;
    trusted) run_suite trusted trusted yes ;;
    untrusted) run_suite untrusted untrusted no ;;
    vsix) run_vsix ;;
    *) echo "e2e: unknown suite $s" >&2; exit 2 ;;
  esac
done

echo "=== e2e summary"
status=0
for s in $SUITES; do
  printf '  %-10s %s (%ss)\n' "$s" "${RESULT[$s]:-FAIL}" "${TIME[$s]:-0}"
  [ -f "$OUT/$s/results.json" ] && node -e "for (const r of require('$OUT/$s/results.json').results) console.log('      ' + (r.ok ? 'pass' : 'FAIL') + '  ' + r.name + (r.ok ? '' : ': ' + r.error))"
  [ "${RESULT[$s]:-FAIL}" = PASS ] || status=1
done
exit $status
