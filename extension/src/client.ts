/**
 * The vscode-languageclient wiring for one server run.
 *
 * Trust is enforced on both sides: the server is told `workspaceTrusted` and should not offer
 * Verify, and this middleware also drops Verify lenses and refuses the verify command when
 * the workspace is untrusted, so a server that ignores the flag still cannot run user code.
 */
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
} from 'vscode-languageclient/node';
import { Launch } from './launch';
import { InitializationOptions } from './settings';
import { withFixVerifyProgress } from './fixVerify';
import { VerifyResult } from './status';

export const CLIENT_ID = 'dtypeguard';
export const SERVER_VERIFY_COMMAND = 'dtypeguard.verify';
export const SERVER_FIX_ALL_COMMAND = 'dtypeguard.fixAll';
export const SERVER_SETUP_BLOCK_COMMAND = 'dtypeguard.insertSetupBlock';
export const SERVER_FIX_VERIFY_COMMAND = 'dtypeguard.fixAndVerify';
export const SERVER_CANCEL_FIX_VERIFY_COMMAND = 'dtypeguard.cancelFixAndVerify';
export const VERIFY_RESULT_NOTIFICATION = 'dtypeguard/verifyResult';

export interface ClientParams {
  launch: Launch;
  cwd: string | undefined;
  init: InitializationOptions;
  log: vscode.LogOutputChannel;
  onVerifyResult: (result: VerifyResult) => void;
}

/** The server commands that run the user's code: Verify, and Fix and verify. */
function runsCode(command: string | undefined): boolean {
  return command === SERVER_VERIFY_COMMAND || command === SERVER_FIX_VERIFY_COMMAND;
}

function isVerify(command: vscode.Command | undefined): boolean {
  return runsCode(command?.command);
}

/** A code action (or bare command) whose command runs the user's code. */
function actionRunsCode(action: vscode.Command | vscode.CodeAction): boolean {
  const command = (action as vscode.CodeAction).command ?? (action as vscode.Command).command;
  return typeof command === 'string' ? runsCode(command) : runsCode(command?.command);
}

export function createClient(p: ClientParams): LanguageClient {
  const serverOptions: ServerOptions = {
    command: p.launch.command,
    args: p.launch.args,
    // No `transport`: with TransportKind.stdio the client appends `--stdio` to argv, which the
    // contract's `python -m dtypeguard lsp` does not take; without one it still talks over stdio.
    options: { env: p.launch.env, ...(p.cwd ? { cwd: p.cwd } : {}) },
  };
  const trusted = p.init.workspaceTrusted;
  const clientOptions: LanguageClientOptions = {
    // Python files, and the Python cells of Jupyter notebooks (synced with the LSP notebook
    // protocol: the server analyses a notebook's code cells joined in order).
    documentSelector: [
      { scheme: 'file', language: 'python' },
      { scheme: 'untitled', language: 'python' },
      { notebook: 'jupyter-notebook', language: 'python' },
    ],
    diagnosticCollectionName: CLIENT_ID,
    outputChannel: p.log,
    traceOutputChannel: p.log,
    revealOutputChannelOn: RevealOutputChannelOn.Never, // the status bar says when to look
    initializationOptions: p.init,
    // The default error handler already restarts a crashed server (up to 4 times in 3 min);
    // state changes reach the status bar through `onDidChangeState` (extension.ts).
    middleware: {
      provideCodeLenses: async (document, token, next) => {
        const lenses = await next(document, token);
        return trusted || !lenses ? lenses : lenses.filter((l) => !isVerify(l.command));
      },
      provideCodeActions: async (document, range, context, token, next) => {
        const actions = await next(document, range, context, token);
        return trusted || !actions ? actions : actions.filter((a) => !actionRunsCode(a));
      },
      executeCommand: async (command, args, next) => {
        if (runsCode(command) && !trusted) {
          const what = command === SERVER_VERIFY_COMMAND ? 'Verify' : 'Fix and verify';
          void vscode.window.showWarningMessage(
            `dtypeguard: ${what} runs your code, so it is off until you trust this workspace.`,
          );
          return undefined;
        }
        if (command === SERVER_FIX_VERIFY_COMMAND) {
          const uri = typeof args[0] === 'string' ? args[0] : undefined;
          return withFixVerifyProgress(
            uri,
            async () => (await next(command, args)) as unknown,
            () =>
              client.sendRequest(ExecuteCommandRequest.type, {
                command: SERVER_CANCEL_FIX_VERIFY_COMMAND,
                arguments: [uri ?? ''],
              }),
          );
        }
        return next(command, args);
      },
    },
  };
  const client = new LanguageClient(CLIENT_ID, 'dtypeguard', serverOptions, clientOptions);
  client.onNotification(VERIFY_RESULT_NOTIFICATION, (result: VerifyResult) => p.onVerifyResult(result));
  return client;
}
