/**
 * End-to-end suites, run by VS Code's real extension host inside code-server
 * (`extensionTestsPath`, see extension/e2e/driver/ext-tests.js), against the real server.
 *
 * The run folder is `<run>/ws` (a copy of samples/); `<run>/e2e-config.json` says which suite
 * to run. Results go to `<run>/results.json` and, as `E2E ...` lines, to the console the driver
 * relays. `run()` rejecting makes the extension host exit non-zero, so the driver fails.
 *
 * Every wait is for a condition (diagnostics present, server running) with a deadline, never a
 * fixed sleep: on 2 shared cores timings vary by a factor of several.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { DtypeguardApi } from '../../src/extension';

type SuiteName = 'smoke' | 'trusted' | 'untrusted';

interface E2EConfig {
  suite: SuiteName;
  /** Python the settings point at (the repo's .venv); asserted so a wrong setup fails loudly. */
  python: string;
}

interface TestCase {
  name: string;
  fn: () => Promise<void>;
}

const EXTENSION_ID = 'dtypeguard.dtypeguard';
const VERIFY_SOURCE = 'dtypeguard.verify';
const H06 = 'hazards/h06_numpy_float64_linear.py';
const H06_FIXED = 'fixed/h06_numpy_float64_linear.py';
const NOTEBOOK = 'notebooks/cross_cell_default_dtype.ipynb';
const FP16_ADAM = 'hazards/h13_fp16_adam_eps.py';

function log(message: string): void {
  console.log(`E2E ${message}`);
}

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 60000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100)); // poll interval, not a wait for time to pass
  }
}

function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test window must have a folder open');
  return folder.uri;
}

function sampleUri(rel: string): vscode.Uri {
  return vscode.Uri.joinPath(workspaceRoot(), rel);
}

function codeOf(d: vscode.Diagnostic): string {
  const c = d.code;
  return typeof c === 'object' && c !== null ? String(c.value) : String(c ?? '');
}

function describeDiags(diags: readonly vscode.Diagnostic[]): string {
  return JSON.stringify(
    diags.map((d) => ({ code: codeOf(d), src: d.source, line: d.range.start.line, msg: d.message.slice(0, 100) })),
  );
}

/** 0-based line of the first line containing `needle`. */
function lineOf(doc: vscode.TextDocument, needle: string): number {
  for (let i = 0; i < doc.lineCount; i++) {
    if (doc.lineAt(i).text.includes(needle)) {
      return i;
    }
  }
  throw new Error(`"${needle}" not found in ${doc.uri.fsPath}`);
}

async function open(rel: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(sampleUri(rel));
  await vscode.window.showTextDocument(doc);
  return doc;
}

async function api(): Promise<DtypeguardApi> {
  const ext = vscode.extensions.getExtension<DtypeguardApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not loaded`);
  // Opening a Python file is what activates us; wait for that rather than forcing it.
  if (!ext.isActive && !vscode.workspace.textDocuments.some((d) => d.languageId === 'python')) {
    await open(H06);
  }
  await waitFor('extension activation (onLanguage:python)', () => ext.isActive, 60000);
  return ext.exports;
}

async function runningServer(): Promise<DtypeguardApi> {
  const a = await api();
  await a.whenIdle();
  await waitFor(`server running (state: ${a.state})`, () => a.state === 'running' || a.state === 'error', 60000);
  assert.equal(a.state, 'running', `server state is ${a.state}; see the dtypeguard log`);
  return a;
}

async function dgDiagnostics(uri: vscode.Uri, code: string): Promise<vscode.Diagnostic[]> {
  return waitFor(`${code} diagnostics on ${path.basename(uri.fsPath)}`, () => {
    const diags = vscode.languages.getDiagnostics(uri).filter((d) => codeOf(d) === code);
    return diags.length > 0 ? diags : undefined;
  });
}

/** Ask the driver for a screenshot of the window (kept next to results.json) and wait until it
 * is written, so the picture shows the state the test just asserted. */
async function screenshot(name: string): Promise<void> {
  const file = path.join(path.dirname(workspaceRoot().fsPath), `${name}.png`);
  log(`SCREENSHOT ${name}`);
  await waitFor(`screenshot ${name}`, () => fs.existsSync(file) || undefined, 20000);
}

/** The text of the notification toasts on screen (read by the driver from the page), once one
 * contains `needle`: what the user reads, buttons included. */
async function toastsWith(name: string, needle: string): Promise<string> {
  const file = path.join(path.dirname(workspaceRoot().fsPath), `${name}.txt`);
  let last = '';
  try {
    return await waitFor(`a notification containing "${needle}"`, async () => {
      fs.rmSync(file, { force: true });
      log(`TOASTS ${name}`);
      last = await waitFor(`toast text ${name}`, () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined), 10000);
      return last.includes(needle) ? last : undefined;
    }, 30000);
  } catch (e) {
    throw new Error(`${String(e)}; the toasts said: ${JSON.stringify(last)}`);
  }
}

interface FixVerifyAnswer {
  applied?: boolean;
  reason?: string;
  message?: string;
  before?: { outcome?: string; summary?: string };
  after?: { outcome?: string; summary?: string };
}

/** No lens says a fix-and-verify is running any more (the server asked the editor to refresh
 * them when the runs ended). */
async function lensesSettled(uri: vscode.Uri): Promise<void> {
  await waitFor('the lenses to stop saying "Fixing and verifying…"', async () => {
    const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
    return (l ?? []).every((x) => !/Fixing and verifying/.test(x.command?.title ?? '')) || undefined;
  }, 10000);
}

/** The body of the trusted suite's fix-and-verify test (run with autosave off). */
async function fixAndVerifyH06(): Promise<void> {
  const doc = await open(H06);
  const editor = await vscode.window.showTextDocument(doc);
  const [diag] = await dgDiagnostics(doc.uri, 'DG004');
  assert.ok(diag);
  const onDisk = fs.readFileSync(doc.uri.fsPath, 'utf8');
  // an unsaved edit: the server runs the buffer, so the error is one line lower than on disk
  await editor.edit((b) => b.insert(new vscode.Position(0, 0), '# unsaved\n'));
  const creation = lineOf(doc, 'inputs = torch.from_numpy(X)');
  const fresh = await waitFor('DG004 on the edited buffer', () =>
    vscode.languages.getDiagnostics(doc.uri).find((d) => codeOf(d) === 'DG004' && d.range.start.line === creation), 20000);
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
    'vscode.executeCodeActionProvider', doc.uri, fresh.range, vscode.CodeActionKind.QuickFix.value);
  const offered = actions.find((x) => x.title.startsWith('Fix and verify'));
  log(`fix and verify action ${JSON.stringify(offered?.title)} ${JSON.stringify(offered?.command?.command)}`);
  assert.equal(offered?.command?.command, 'dtypeguard.fixAndVerify', 'no Fix and verify code action at DG004');
  const lenses = await waitFor('the Fix and verify lens', async () => {
    const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
    return l && l.some((x) => x.command?.command === 'dtypeguard.fixAndVerify') ? l : undefined;
  });
  log(`lenses ${JSON.stringify(lenses.map((l) => l.command?.title))}`);

  const answer = (await vscode.commands.executeCommand('dtypeguard.fixAndVerifyFile', doc.uri)) as FixVerifyAnswer | undefined;
  log(`fix and verify h06 ${String(JSON.stringify(answer)).slice(0, 600)}`);
  assert.equal(answer?.applied, true, `not applied: ${answer?.message}`);
  assert.match(answer?.message ?? '', /before: error: RuntimeError at line \d+: mat1 and mat2 .*; after: ok: Adam step OK on cpu/);
  const disk = onDisk.split('\n').findIndex((l) => l.includes('self.hidden(x)')) + 1;
  assert.match(answer?.message ?? '', new RegExp(`before: error: RuntimeError at line ${disk + 1}:`), 'the buffer ran, not the file');
  assert.equal(doc.lineAt(creation).text.trim(), 'inputs = torch.from_numpy(X).float()  # expect: DG004');
  assert.equal(doc.lineAt(0).text, '# unsaved', 'the unsaved edit is kept');
  assert.ok(doc.isDirty, 'the fix is in the buffer, not saved');
  assert.equal(fs.readFileSync(doc.uri.fsPath, 'utf8'), onDisk, 'the file on disk is untouched');
  const toasts = await toastsWith('fix-and-verify-toasts', 'dtypeguard fix and verify: applied');
  log(`toasts ${JSON.stringify(toasts.slice(0, 600))}`);
  assert.match(toasts, /before: error: RuntimeError at line \d+: mat1 and mat2/);
  assert.match(toasts, /after: ok: Adam step OK on cpu/);
  await waitFor('DG004 to go after the fix', () =>
    vscode.languages.getDiagnostics(doc.uri).every((d) => codeOf(d) !== 'DG004') || undefined, 20000);
  await lensesSettled(doc.uri);
  await screenshot('fix-and-verify-applied');
  await vscode.commands.executeCommand('undo');  // one undo step takes the fixes back
  await waitFor('undo to take the fix back', () => !doc.lineAt(creation).text.includes('.float()') || undefined, 10000);
  await vscode.commands.executeCommand('workbench.action.files.revert');
  assert.equal(doc.isDirty, false);

  // a second bug in the buffer (the layer is one feature too wide): the DG004 fix is right, but
  // the fixed copy then fails on the shapes, so nothing is applied
  const again = await open(H06);
  const editor2 = await vscode.window.showTextDocument(again);
  const modelLine = lineOf(again, 'model = Regressor(n_features=4)');
  await editor2.edit((b) => b.replace(again.lineAt(modelLine).range, 'model = Regressor(n_features=5)'));
  const edited = again.getText();
  const answer2 = (await vscode.commands.executeCommand('dtypeguard.fixAndVerifyFile', again.uri)) as FixVerifyAnswer | undefined;
  log(`fix and verify, second bug ${String(JSON.stringify(answer2)).slice(0, 600)}`);
  assert.equal(answer2?.applied, false);
  assert.equal(answer2?.before?.outcome, 'error');
  assert.match(answer2?.after?.summary ?? '', /shapes cannot be multiplied/);
  assert.equal(again.getText(), edited, 'nothing applied to the buffer');
  assert.equal(fs.readFileSync(again.uri.fsPath, 'utf8'), onDisk, 'the file on disk is untouched');
  const toasts2 = await toastsWith('fix-and-verify-not-applied-toasts', 'not applied: the fixed copy does not verify ok');
  log(`toasts, second bug ${JSON.stringify(toasts2.slice(0, 800))}`);
  assert.match(toasts2, /before: error: RuntimeError at line \d+: mat1 and mat2 must have the same dtype/);
  assert.match(toasts2, /after: error: RuntimeError at line \d+: mat1 and mat2 shapes cannot be multiplied/);
  assert.match(toasts2, /Apply anyway/);
  await lensesSettled(again.uri);
  await screenshot('fix-and-verify-not-applied');
  await vscode.commands.executeCommand('workbench.action.files.revert');
  assert.equal(again.isDirty, false);
  await vscode.commands.executeCommand('notifications.clearAll');
}

function hoverText(hovers: vscode.Hover[] | undefined): string {
  return (hovers ?? [])
    .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)))
    .join('\n');
}

// ---------------------------------------------------------------------------------------------

function smokeTests(config: E2EConfig): TestCase[] {
  return [
    {
      name: 'extension activates on a Python file and the server answers initialize',
      fn: async () => {
        await open(H06);
        const a = await runningServer();
        log(`server info ${JSON.stringify(a.serverInfo)} interpreter ${JSON.stringify(a.interpreter)}`);
        assert.ok(a.serverInfo, 'initialize result has no serverInfo');
        assert.equal(a.interpreter?.source, 'setting');
        assert.deepEqual(a.interpreter?.command, [config.python]);
        assert.deepEqual(a.initializationOptions?.settings.interpreter, [config.python]);
        const commands = await vscode.commands.getCommands(true);
        for (const c of ['dtypeguard.restart', 'dtypeguard.showLogs', 'dtypeguard.verifyFileOnCpu']) {
          assert.ok(commands.includes(c), `command ${c} not registered`);
        }
      },
    },
  ];
}

function trustedTests(config: E2EConfig): TestCase[] {
  return [
    ...smokeTests(config),
    {
      name: 'the server is told the workspace is trusted',
      fn: async () => {
        const a = await runningServer();
        assert.equal(vscode.workspace.isTrusted, true);
        assert.equal(a.initializationOptions?.workspaceTrusted, true);
      },
    },
    {
      name: 'diagnostics: h06 reports DG004 where the fix goes, torch.from_numpy(X), naming the failing forward call',
      fn: async () => {
        const doc = await open(H06);
        const diags = await dgDiagnostics(doc.uri, 'DG004');
        log(`h06 diagnostics ${describeDiags(vscode.languages.getDiagnostics(doc.uri))}`);
        const creation = lineOf(doc, 'inputs = torch.from_numpy(X)');
        const forward = lineOf(doc, 'preds = model(inputs)');
        const at = diags.find((d) => d.range.start.line === creation);
        assert.ok(at, `no DG004 on line ${creation + 1}`);
        assert.ok(
          (at.relatedInformation ?? []).some((r) => r.location.range.start.line === forward && /fails here/.test(r.message)),
          `DG004 does not point at the failing forward call on line ${forward + 1}`,
        );
        for (const d of vscode.languages.getDiagnostics(doc.uri).filter((x) => x.source !== VERIFY_SOURCE)) {
          assert.match(codeOf(d), /^DG\d{3}$/, 'every static finding carries a DGxxx code');
        }
      },
    },
    {
      name: 'hover: the DG004 root cause explains the dtype state behind it',
      fn: async () => {
        const doc = await open(H06);
        const [diag] = await dgDiagnostics(doc.uri, 'DG004');
        assert.ok(diag);
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
          'vscode.executeHoverProvider',
          doc.uri,
          diag.range.start,
        );
        const text = hoverText(hovers);
        log(`hover ${JSON.stringify(text.slice(0, 400))}`);
        assert.match(text, /float64/i, 'hover should name the input dtype (float64)');
        assert.match(text, /default dtype/i, 'hover should explain the default dtype/device state');
      },
    },
    {
      name: 'code lenses offer Verify on CPU / GPU when trusted',
      fn: async () => {
        const doc = await open(H06);
        const lenses = await waitFor('Verify code lenses', async () => {
          const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
          return l && l.some((x) => x.command?.command === 'dtypeguard.verify') ? l : undefined;
        });
        const titles = lenses.map((l) => l.command?.title ?? '');
        log(`lenses ${JSON.stringify(titles)}`);
        assert.ok(titles.some((t) => /Verify on CPU/.test(t)), 'no "Verify on CPU" lens');
        assert.ok(titles.some((t) => /Verify on GPU/.test(t)), 'no "Verify on GPU" lens');
      },
    },
    {
      name: 'verify on CPU: h06 gets a dtypeguard.verify diagnostic at the root cause, the failing line related',
      fn: async () => {
        const a = await runningServer();
        const doc = await open(H06);
        const result = (await vscode.commands.executeCommand('dtypeguard.verifyFileOnCpu', doc.uri)) as
          | { status?: string; line?: number; rule?: string }
          | undefined;
        log(`verify h06 result ${String(JSON.stringify(result)).slice(0, 300)}`);
        assert.ok(result, 'verify returned nothing');
        assert.equal(result.status, 'error');
        const failing = lineOf(doc, 'self.hidden(x)'); // the deepest frame in the script
        const root = lineOf(doc, 'torch.from_numpy(X)'); // where the static DG004 puts the fix
        const diags = await waitFor('dtypeguard.verify diagnostic', () => {
          const d = vscode.languages.getDiagnostics(doc.uri).filter((x) => x.source === VERIFY_SOURCE);
          return d.length > 0 ? d : undefined;
        });
        log(`verify diagnostics ${describeDiags(diags)}`);
        const runtime = diags.find((d) => d.range.start.line === root);
        assert.ok(runtime, `runtime diagnostic expected on line ${root + 1}, got ${describeDiags(diags)}`);
        assert.ok(
          (runtime.relatedInformation ?? []).some((r) => r.location.range.start.line === failing),
          `the raising line ${failing + 1} should be related information`,
        );
        await waitFor('verify result in the status bar', () => a.lastVerify?.uri === doc.uri.toString() || undefined, 10000);
        assert.equal(a.lastVerify?.status, 'error');
        assert.match(a.statusText, /verify error/);
      },
    },
    {
      name: 'verify: float16 Adam leaves NaN parameters: a warning lens, diagnostic and status bar, never OK',
      fn: async () => {
        const a = await runningServer();
        const doc = await open(FP16_ADAM);
        const result = (await vscode.commands.executeCommand('dtypeguard.verifyFileOnCpu', doc.uri)) as
          | { status?: string; outcome?: string; summary?: string }
          | undefined;
        log(`verify fp16 Adam result ${String(JSON.stringify(result)).slice(0, 300)}`);
        assert.equal(result?.outcome, 'warning');
        assert.doesNotMatch(result?.summary ?? '', /OK/);
        const diags = await waitFor('DG012 verify diagnostic', () => {
          const d = vscode.languages.getDiagnostics(doc.uri).filter((x) => x.source === VERIFY_SOURCE && codeOf(x) === 'DG012');
          return d.length > 0 ? d : undefined;
        });
        assert.equal(diags[0].severity, vscode.DiagnosticSeverity.Warning);
        const lenses = await waitFor('a warning lens', async () => {
          const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
          return l && l.some((x) => (x.command?.title ?? '').startsWith('$(warning)')) ? l : undefined;
        });
        log(`lenses ${JSON.stringify(lenses.map((l) => l.command?.title))}`);
        await waitFor('warning in the status bar', () => /verify warning/.test(a.statusText) || undefined, 10000);
        await screenshot('verify-fp16-adam-warning');
      },
    },
    {
      name: 'verify: an edit after a run marks it stale within a debounce; the status bar follows the active editor',
      fn: async () => {
        const a = await runningServer();
        const fixed = await open(H06_FIXED);
        const ok = (await vscode.commands.executeCommand('dtypeguard.verifyFileOnCpu', fixed.uri)) as { outcome?: string } | undefined;
        assert.equal(ok?.outcome, 'ok');
        await waitFor('OK in the status bar for the fixed file', () => /verify OK/.test(a.statusText) || undefined, 10000);
        const fp16 = await open(FP16_ADAM); // verified by the test above: a warning
        await waitFor('the status bar shows the active file (warning)', () => /verify warning/.test(a.statusText) || undefined, 10000);
        await open(H06_FIXED);
        await waitFor('back to the fixed file (OK)', () => /verify OK/.test(a.statusText) || undefined, 10000);
        const editor = vscode.window.activeTextEditor;
        assert.ok(editor && editor.document.uri.toString() === fixed.uri.toString());
        await editor.edit((e) => e.insert(new vscode.Position(0, 0), '# edited after verify\n'));
        await waitFor('stale state in the status bar', () => /edited since/.test(a.statusText) || undefined, 10000);
        const lenses = await waitFor('a stale lens', async () => {
          const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', fixed.uri);
          return l && l.some((x) => /again \(edited since: ok\)/.test(x.command?.title ?? '')) ? l : undefined;
        });
        log(`stale lenses ${JSON.stringify(lenses.map((l) => l.command?.title))}`);
        await screenshot('verify-stale-after-edit');
        await vscode.commands.executeCommand('workbench.action.files.revert');
        void fp16;
      },
    },
    {
      name: 'verify on CPU: the fixed h06 reports OK',
      fn: async () => {
        const a = await runningServer();
        const doc = await open(H06_FIXED);
        const result = (await vscode.commands.executeCommand('dtypeguard.verifyFileOnCpu', doc.uri)) as
          | { status?: string; summary?: string }
          | undefined;
        log(`verify fixed h06 result ${String(JSON.stringify(result)).slice(0, 300)}`);
        assert.equal(result?.status, 'ok', `fixed sample did not verify OK: ${JSON.stringify(result)}`);
        const verifyDiags = vscode.languages.getDiagnostics(doc.uri).filter((x) => x.source === VERIFY_SOURCE);
        assert.equal(verifyDiags.length, 0, `unexpected runtime diagnostics ${describeDiags(verifyDiags)}`);
        await waitFor('OK verify result in the status bar', () => a.lastVerify?.uri === doc.uri.toString() || undefined, 10000);
        assert.equal(a.lastVerify?.status, 'ok');
      },
    },
    {
      name: 'quick fix: h06 DG004 appends .float() where the tensor is created',
      fn: async () => {
        const doc = await open(H06);
        const [diag] = await dgDiagnostics(doc.uri, 'DG004');
        assert.ok(diag);
        const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
          'vscode.executeCodeActionProvider',
          doc.uri,
          diag.range,
          vscode.CodeActionKind.QuickFix.value,
          10, // resolve up to 10 actions: the server fills in edits lazily (codeAction/resolve)
        );
        log(`actions ${JSON.stringify(actions.map((x) => `${x.kind?.value}: ${x.title}`))}`);
        const fix = actions.find((x) => x.title.includes('.float()')) ?? actions.find((x) => x.isPreferred);
        assert.ok(fix, 'no .float() quick fix offered');
        const creation = lineOf(doc, 'inputs = torch.from_numpy(X)');
        if (fix.edit) {
          assert.ok(await vscode.workspace.applyEdit(fix.edit), 'applyEdit refused the fix');
        }
        if (fix.command) {
          await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));
        }
        await waitFor('the fix to land in the document', () =>
          doc.lineAt(creation).text.includes('.float()') || undefined, 10000);
        assert.equal(doc.lineAt(creation).text.trim(), 'inputs = torch.from_numpy(X).float()  # expect: DG004');
        // The rest of the file is untouched, and the finding goes away once re-analysed.
        assert.equal(doc.lineAt(lineOf(doc, 'preds = model(inputs)')).text.trim(), 'preds = model(inputs)');
        await waitFor('DG004 to disappear after the fix', () =>
          vscode.languages.getDiagnostics(doc.uri).every((d) => codeOf(d) !== 'DG004') || undefined, 20000);
        await vscode.commands.executeCommand('workbench.action.files.revert');
      },
    },
    {
      name: 'notebook: the cross-cell DG001 is in the set_default_dtype cell; its quick fix moves the call into the imports cell',
      fn: async () => {
        await runningServer();
        const nb = await vscode.workspace.openNotebookDocument(sampleUri(NOTEBOOK));
        await vscode.window.showNotebookDocument(nb);
        assert.equal(nb.notebookType, 'jupyter-notebook');
        const cellWith = (needle: string): vscode.NotebookCell => {
          const cell = nb.getCells().find((c) => c.kind === vscode.NotebookCellKind.Code && c.document.getText().includes(needle));
          assert.ok(cell, `no code cell contains "${needle}"`);
          return cell;
        };
        const imports = cellWith('from torch import nn');
        const model = cellWith('model = nn.Sequential');
        const setDefault = cellWith('torch.set_default_dtype(torch.float64)');
        const data = cellWith('x = torch.randn(256, 4)');
        const training = cellWith('optimizer = torch.optim.Adam');
        const [diag] = await dgDiagnostics(setDefault.document.uri, 'DG001');
        assert.ok(diag);
        log(`notebook cell ${setDefault.index} diagnostics ${describeDiags(vscode.languages.getDiagnostics(setDefault.document.uri))}`);
        assert.equal(setDefault.document.uri.scheme, 'vscode-notebook-cell');
        assert.deepEqual([diag.range.start.line, diag.range.start.character], [0, 0], 'the range is relative to the cell');
        assert.ok(
          (diag.relatedInformation ?? []).some((r) => r.location.uri.toString() === model.document.uri.toString()),
          'DG001 points at the model cell',
        );
        const [dg004] = await dgDiagnostics(data.document.uri, 'DG004');
        assert.equal(dg004?.range.start.line, 0);
        for (const cell of [imports, model, training]) {
          const codes = vscode.languages.getDiagnostics(cell.document.uri).map(codeOf);
          assert.ok(!codes.includes('DG001'), `DG001 also in cell ${cell.index}: ${codes}`);
        }
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
          'vscode.executeHoverProvider', setDefault.document.uri, diag.range.start);
        assert.match(hoverText(hovers), /DG001/, 'hover in the cell explains DG001');
        const lenses = await waitFor('the Verify lens on the training cell', async () => {
          const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', training.document.uri);
          return l && l.some((x) => x.command?.command === 'dtypeguard.verify') ? l : undefined;
        });
        log(`notebook lenses ${JSON.stringify(lenses.map((l) => l.command?.title))}`);
        const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
          'vscode.executeCodeActionProvider', setDefault.document.uri, diag.range, vscode.CodeActionKind.QuickFix.value, 10);
        log(`notebook actions ${JSON.stringify(actions.map((x) => x.title))}`);
        const fix = actions.find((x) => x.title.startsWith('Move this call'));
        assert.ok(fix?.edit, 'no "Move this call to the top" quick fix with an edit');
        assert.ok(await vscode.workspace.applyEdit(fix.edit), 'applyEdit refused the fix');
        await waitFor('the call to land in the imports cell', () =>
          imports.document.getText().includes('torch.set_default_dtype(torch.float64)') || undefined, 20000);
        assert.equal(setDefault.document.getText().trim(), '', 'the call left its old cell');
        assert.ok(imports.document.getText().startsWith('%matplotlib inline\nimport numpy as np'), 'the magic line is kept');
        await waitFor('DG001 and DG004 to go after the fix', () =>
          nb.getCells().every((c) => vscode.languages.getDiagnostics(c.document.uri).every((d) => !['DG001', 'DG004'].includes(codeOf(d)))) || undefined,
          30000);
        await vscode.commands.executeCommand('workbench.action.files.revert');
      },
    },
    {
      name: 'Fix All Hazards in File applies the h06 fix through workspace/applyEdit',
      fn: async () => {
        const doc = await open(H06);
        await dgDiagnostics(doc.uri, 'DG004');
        const creation = lineOf(doc, 'inputs = torch.from_numpy(X)');
        const result = await vscode.commands.executeCommand('dtypeguard.fixAllInFile', doc.uri);
        log(`fixAll result ${String(JSON.stringify(result)).slice(0, 200)}`);
        await waitFor('fix all to edit the document', () =>
          doc.lineAt(creation).text.includes('.float()') || undefined, 20000);
        assert.equal(doc.lineAt(creation).text.trim(), 'inputs = torch.from_numpy(X).float()  # expect: DG004');
        await vscode.window.showTextDocument(doc);
        await vscode.commands.executeCommand('workbench.action.files.revert');
        assert.equal(doc.isDirty, false);
      },
    },
    {
      name: 'fix and verify: h06 (unsaved edit): the fixes land in the buffer, the notification says before error, after ok; with a second bug nothing is applied',
      fn: async () => {
        await runningServer();
        // code-server saves after a second by default (VS Code in a browser): this test is about
        // what lands in the buffer and never on disk, so the user's save is the only one
        const files = vscode.workspace.getConfiguration('files');
        await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
        try {
          await fixAndVerifyH06();
        } finally {
          await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
        }
      },
    },
    {
      name: 'typing a hazard key by key: DG004 appears on the new line, and goes when it is undone',
      fn: async () => {
        const doc = await open(H06_FIXED);
        const editor = await vscode.window.showTextDocument(doc);
        await waitFor('the first analysis', () =>
          (vscode.languages.getDiagnostics(doc.uri).every((d) => codeOf(d) !== 'DG004') ? true : undefined), 20000);
        const at = lineOf(doc, 'loss = criterion(preds, targets)');
        await editor.edit((b) => b.insert(new vscode.Position(at, 0), '    \n'));
        const typed = 'extra = model(torch.zeros(4, 4, dtype=torch.float64))';
        for (let i = 0; i < typed.length; i++) {  // one change per keystroke, as typing sends them
          await editor.edit((b) => b.insert(new vscode.Position(at, 4 + i), typed[i]));
        }
        const found = await waitFor('DG004 on the typed line', () =>
          vscode.languages.getDiagnostics(doc.uri).find((d) => codeOf(d) === 'DG004' && d.range.start.line === at), 20000);
        assert.equal(doc.getText(found.range), 'torch.zeros(4, 4, dtype=torch.float64)');
        await vscode.commands.executeCommand('workbench.action.files.revert');
        await waitFor('DG004 to go with the revert', () =>
          (vscode.languages.getDiagnostics(doc.uri).every((d) => codeOf(d) !== 'DG004') ? true : undefined), 20000);
      },
    },
    {
      name: 'Insert Setup Block adds the default dtype/device block after the imports',
      fn: async () => {
        const doc = await open(H06);
        await dgDiagnostics(doc.uri, 'DG004');
        const before = doc.getText();
        assert.ok(!before.includes('torch.set_default_dtype('));
        const importLine = lineOf(doc, 'from torch import nn');
        await vscode.commands.executeCommand('dtypeguard.insertSetupBlockInFile', doc.uri);
        await waitFor('the setup block to be inserted', () =>
          doc.getText().includes('torch.set_default_dtype(torch.float32)') || undefined, 20000);
        const block = lineOf(doc, 'torch.set_default_dtype(torch.float32)');
        assert.ok(block > importLine, `the block (line ${block}) comes after the imports (line ${importLine})`);
        assert.match(doc.lineAt(block + 1).text, /^device = torch\.device\("cuda" if torch\.cuda\.is_available\(\) else "cpu"\)$/);
        assert.equal(doc.getText().replace(/\n# Default dtype and device[^\n]*\n[^\n]*\n[^\n]*\n/, ''), before);
        await vscode.window.showTextDocument(doc);
        await vscode.commands.executeCommand('workbench.action.files.revert');
        assert.equal(doc.isDirty, false);
      },
    },
    {
      name: 'an interpreter older than 3.10 is refused with a clear message, then recovery',
      fn: async () => {
        const doc = await open(H06);
        const a = await runningServer();
        // A stand-in "python" that reports 3.9: the version probe is all that runs.
        const old = path.join(path.dirname(workspaceRoot().fsPath), 'python3.9-standin');
        fs.writeFileSync(old, '#!/bin/sh\necho 3.9.18\n', { mode: 0o755 });
        const settings = vscode.workspace.getConfiguration('dtypeguard', doc.uri);
        await settings.update('interpreter', [old], vscode.ConfigurationTarget.Workspace);
        try {
          await waitFor('the server to refuse Python 3.9', async () => {
            await a.whenIdle();
            return a.state === 'error' ? true : undefined;
          });
          log(`old python: ${a.detail}`);
          assert.match(a.detail ?? '', /needs Python >= 3\.10.*is 3\.9\.18/);
        } finally {
          await settings.update('interpreter', undefined, vscode.ConfigurationTarget.Workspace);
        }
        await waitFor('the server to come back with the user setting', async () => {
          await a.whenIdle();
          return a.state === 'running' ? true : undefined;
        });
        assert.deepEqual(a.interpreter?.command, [config.python]);
        await dgDiagnostics(doc.uri, 'DG004');
      },
    },
    {
      name: 'a wrong dtypeguard.interpreter value is named in an error notification and ignored',
      fn: async () => {
        const doc = await open(H06);
        const a = await runningServer();
        const settings = vscode.workspace.getConfiguration('dtypeguard', doc.uri);
        await settings.update('interpreter', 42, vscode.ConfigurationTarget.Workspace);
        try {
          const problem = await waitFor('the notification for interpreter=42', async () => {
            await a.whenIdle();
            return a.settingProblem;
          });
          log(`wrong setting: ${problem}`);
          assert.match(problem, /dtypeguard\.interpreter/);
          await waitFor('the server running on the fallback interpreter', async () => {
            await a.whenIdle();
            return a.state === 'running' ? true : undefined;
          });
          await dgDiagnostics(doc.uri, 'DG004');
        } finally {
          await settings.update('interpreter', undefined, vscode.ConfigurationTarget.Workspace);
        }
        await waitFor('the setting back, no problem', async () => {
          await a.whenIdle();
          return a.settingProblem === undefined && a.state === 'running' ? true : undefined;
        });
      },
    },
    {
      name: 'a settings change restarts the server with the new options (and Restart Server works)',
      fn: async () => {
        const doc = await open(H06);
        const a = await runningServer();
        await dgDiagnostics(doc.uri, 'DG004');
        const settings = vscode.workspace.getConfiguration('dtypeguard', doc.uri);
        await settings.update('ignore', ['DG004'], vscode.ConfigurationTarget.Workspace);
        try {
          await waitFor('restart with ignore=[DG004]', async () => {
            await a.whenIdle();
            return a.initializationOptions?.settings.ignore.includes('DG004') && a.state === 'running' ? true : undefined;
          });
          await waitFor('DG004 to be ignored', () =>
            vscode.languages.getDiagnostics(doc.uri).every((d) => codeOf(d) !== 'DG004') || undefined, 30000);
        } finally {
          await settings.update('ignore', undefined, vscode.ConfigurationTarget.Workspace);
        }
        await waitFor('restart without ignore', async () => {
          await a.whenIdle();
          return a.initializationOptions?.settings.ignore.length === 0 && a.state === 'running' ? true : undefined;
        });
        await dgDiagnostics(doc.uri, 'DG004');
        await vscode.commands.executeCommand('dtypeguard.restart');
        await a.whenIdle();
        assert.equal(a.state, 'running');
        await dgDiagnostics(doc.uri, 'DG004');
      },
    },
  ];
}

function untrustedTests(config: E2EConfig): TestCase[] {
  return [
    {
      name: 'restricted mode: analysis works, the server is told, verify is off',
      fn: async () => {
        assert.equal(vscode.workspace.isTrusted, false, 'this suite must run in an untrusted workspace');
        const doc = await open(H06);
        const a = await runningServer();
        assert.equal(a.initializationOptions?.workspaceTrusted, false);
        // The user-level interpreter setting still applies (only workspace values are restricted).
        assert.deepEqual(a.interpreter?.command, [config.python]);
        await dgDiagnostics(doc.uri, 'DG004');
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
          'vscode.executeHoverProvider',
          doc.uri,
          new vscode.Position(lineOf(doc, 'preds = model(inputs)'), 14),
        );
        assert.ok(hoverText(hovers).length > 0, 'hover works in restricted mode');
        const lenses =
          (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri)) ?? [];
        log(`untrusted lenses ${JSON.stringify(lenses.map((l) => l.command?.title))}`);
        assert.ok(!lenses.some((l) => l.command?.command === 'dtypeguard.verify'), 'verify lens offered when untrusted');
        const viaPalette = await vscode.commands.executeCommand('dtypeguard.verifyFileOnCpu', doc.uri);
        assert.equal(viaPalette, undefined, 'palette verify ran in an untrusted workspace');
        const all = await vscode.commands.getCommands(true);
        if (all.includes('dtypeguard.verify')) {
          const direct = await vscode.commands.executeCommand('dtypeguard.verify', doc.uri.toString(), 'cpu');
          assert.equal(direct, undefined, 'server verify command ran in an untrusted workspace');
        }
        const runtime = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === VERIFY_SOURCE);
        assert.equal(runtime.length, 0, 'a verify diagnostic appeared in restricted mode');
        const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
          'vscode.executeCodeActionProvider',
          doc.uri,
          (await dgDiagnostics(doc.uri, 'DG004'))[0]!.range,
        );
        assert.ok(actions.length > 0, 'quick fixes are offered in restricted mode');
        assert.ok(!actions.some((x) => x.title.startsWith('Fix and verify')), 'Fix and verify offered when untrusted');
        const fixVerify = await vscode.commands.executeCommand('dtypeguard.fixAndVerifyFile', doc.uri);
        assert.equal(fixVerify, undefined, 'Fix and verify ran in an untrusted workspace');
        assert.equal(doc.isDirty, false, 'nothing was applied');
      },
    },
  ];
}

// ---------------------------------------------------------------------------------------------

export async function run(): Promise<void> {
  const root = workspaceRoot().fsPath;
  const runDir = path.dirname(root);
  const config = JSON.parse(fs.readFileSync(path.join(runDir, 'e2e-config.json'), 'utf8')) as E2EConfig;
  const only = process.env.DTYPEGUARD_E2E_ONLY; // substring filter, for debugging one test
  const suites: Record<SuiteName, (c: E2EConfig) => TestCase[]> = {
    smoke: smokeTests,
    trusted: trustedTests,
    untrusted: untrustedTests,
  };
  const tests = suites[config.suite](config).filter((t) => !only || t.name.includes(only));
  log(`suite ${config.suite}: ${tests.length} tests, workspace ${root}`);
  const results: Array<{ name: string; ok: boolean; seconds: number; error?: string }> = [];
  for (const t of tests) {
    const t0 = Date.now();
    try {
      await t.fn();
      results.push({ name: t.name, ok: true, seconds: (Date.now() - t0) / 1000 });
      log(`PASS ${t.name} (${(Date.now() - t0) / 1000}s)`);
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      results.push({ name: t.name, ok: false, seconds: (Date.now() - t0) / 1000, error });
      log(`FAIL ${t.name}: ${error}`);
    }
  }
  fs.writeFileSync(path.join(runDir, 'results.json'), JSON.stringify({ suite: config.suite, results }, null, 2));
  const failed = results.filter((r) => !r.ok);
  log(`${results.length - failed.length}/${results.length} passed`);
  if (failed.length > 0) {
    throw new Error(`${failed.length} e2e test(s) failed: ${failed.map((f) => f.name).join('; ')}`);
  }
}
