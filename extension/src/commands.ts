/**
 * The commands users see in the palette. Each forwards to a server command
 * (`workspace/executeCommand`, docs/lsp-contract.md) for the active (or given) file.
 *
 * Their ids differ from the server's (`dtypeguard.verify`, `dtypeguard.fixAll`,
 * `dtypeguard.insertSetupBlock`, `dtypeguard.fixAndVerify`) on purpose: vscode-languageclient registers the server's
 * advertised commands itself (code lenses invoke them), and registering one id twice fails.
 */
import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient } from 'vscode-languageclient/node';
import {
  SERVER_FIX_ALL_COMMAND,
  SERVER_FIX_VERIFY_COMMAND,
  SERVER_SETUP_BLOCK_COMMAND,
  SERVER_VERIFY_COMMAND,
} from './client';
import { uriBasename } from './status';

export const COMMANDS = {
  restart: 'dtypeguard.restart',
  showLogs: 'dtypeguard.showLogs',
  verifyCpu: 'dtypeguard.verifyFileOnCpu',
  verifyGpu: 'dtypeguard.verifyFileOnGpu',
  verifyThrough: 'dtypeguard.verifyFileRunThrough',
  fixAll: 'dtypeguard.fixAllInFile',
  insertSetupBlock: 'dtypeguard.insertSetupBlockInFile',
  fixAndVerify: 'dtypeguard.fixAndVerifyFile',
} as const;

export interface CommandDeps {
  client: () => LanguageClient | undefined;
  restart: (reason: string) => Promise<void>;
  log: vscode.LogOutputChannel;
}

/** The file a command acts on: an explicit argument (menus, tests), else the active editor. */
function targetDocument(arg: unknown): Thenable<vscode.TextDocument> | undefined {
  if (arg instanceof vscode.Uri) {
    return vscode.workspace.openTextDocument(arg);
  }
  if (typeof arg === 'string') {
    return vscode.workspace.openTextDocument(vscode.Uri.parse(arg));
  }
  const doc = vscode.window.activeTextEditor?.document;
  return doc && doc.languageId === 'python' ? Promise.resolve(doc) : undefined;
}

async function runOnFile(deps: CommandDeps, command: string, arg: unknown, extra: unknown[]): Promise<unknown> {
  const pending = targetDocument(arg);
  if (!pending) {
    void vscode.window.showWarningMessage('dtypeguard: open a Python file first.');
    return undefined;
  }
  const doc = await pending;
  const client = deps.client();
  if (!client) {
    const pick = await vscode.window.showErrorMessage('dtypeguard: the server is not running.', 'Show Logs');
    if (pick) {
      deps.log.show();
    }
    return undefined;
  }
  return client.sendRequest(ExecuteCommandRequest.type, {
    command,
    arguments: [doc.uri.toString(), ...extra],
  });
}

/** `device` 'through': the run-through (whole script, capped DataLoaders) on the configured
 * device; the server takes it as a third argument (null device = its verifyDevice setting). */
async function verify(deps: CommandDeps, device: 'cpu' | 'cuda' | 'through', arg: unknown): Promise<unknown> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('dtypeguard: Verify runs your code, so it is off until you trust this workspace.');
    return undefined;
  }
  const pending = targetDocument(arg);
  const doc = pending && (await pending);
  // Verify runs the file from disk: run what the user sees.
  if (doc?.isDirty) {
    await doc.save();
  }
  const label = device === 'cpu' ? 'on CPU' : device === 'cuda' ? 'on GPU' : '(run-through)';
  const extra = device === 'through' ? [null, 'through'] : [device];
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Window,
      title: `dtypeguard: verifying ${doc ? uriBasename(doc.uri.toString()) : 'file'} ${label}`,
    },
    async () => {
      try {
        return await runOnFile(deps, SERVER_VERIFY_COMMAND, doc?.uri ?? arg, extra);
      } catch (e) {
        deps.log.error(`verify failed: ${String(e)}`);
        void vscode.window.showErrorMessage(`dtypeguard: verify failed: ${String(e)}`);
        return undefined;
      }
    },
  );
}

/** Fix and verify runs the buffer as it is (no save first: the server takes the unsaved text)
 * and applies the fixes to the buffer. It goes through the server command's registration, so
 * the client middleware (trust, the cancellable notification: client.ts) wraps it as it wraps
 * the code action and the lens. */
async function fixAndVerify(deps: CommandDeps, arg: unknown): Promise<unknown> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('dtypeguard: Fix and verify runs your code, so it is off until you trust this workspace.');
    return undefined;
  }
  const pending = targetDocument(arg);
  if (!pending) {
    void vscode.window.showWarningMessage('dtypeguard: open a Python file first.');
    return undefined;
  }
  const doc = await pending;
  if (!deps.client()) {
    const pick = await vscode.window.showErrorMessage('dtypeguard: the server is not running.', 'Show Logs');
    if (pick) {
      deps.log.show();
    }
    return undefined;
  }
  try {
    return await vscode.commands.executeCommand(SERVER_FIX_VERIFY_COMMAND, doc.uri.toString());
  } catch (e) {
    deps.log.error(`fix and verify failed: ${String(e)}`);
    void vscode.window.showErrorMessage(`dtypeguard: fix and verify failed: ${String(e)}`);
    return undefined;
  }
}

export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const reg = vscode.commands.registerCommand;
  return [
    reg(COMMANDS.restart, () => deps.restart('Restart Server command')),
    reg(COMMANDS.showLogs, () => deps.log.show()),
    reg(COMMANDS.verifyCpu, (arg?: unknown) => verify(deps, 'cpu', arg)),
    reg(COMMANDS.verifyGpu, (arg?: unknown) => verify(deps, 'cuda', arg)),
    reg(COMMANDS.verifyThrough, (arg?: unknown) => verify(deps, 'through', arg)),
    reg(COMMANDS.fixAll, (arg?: unknown) => runOnFile(deps, SERVER_FIX_ALL_COMMAND, arg, [])),
    reg(COMMANDS.insertSetupBlock, (arg?: unknown) => runOnFile(deps, SERVER_SETUP_BLOCK_COMMAND, arg, [])),
    reg(COMMANDS.fixAndVerify, (arg?: unknown) => fixAndVerify(deps, arg)),
  ];
}
