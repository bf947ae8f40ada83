/**
 * dtypeguard for VS Code: entry point. Reads as a table of contents; the parts live in:
 *   session.ts      one server run (interpreter -> version check -> client start)
 *   restart.ts      the single debounced, serialised `runServer` every restart reason goes through
 *   interpreter.ts  setting > Python extension > python3 on PATH; Python >= 3.10
 *   settings.ts     dtypeguard.* settings -> initializationOptions
 *   client.ts       vscode-languageclient options, trust middleware, verify notifications
 *   commands.ts     palette commands; status.ts / statusBar.ts the status bar item
 */
import * as vscode from 'vscode';
import { COMMANDS, registerCommands } from './commands';
import { onPythonInterpreterChanged } from './python';
import { createRestarter } from './restart';
import { ServerSession } from './session';
import { InitializationOptions, needsRestart } from './settings';
import { ServerState, VerifyResult, renderStatus } from './status';
import { StatusBar } from './statusBar';
import { ResolvedInterpreter } from './interpreter';

/** Coalesces the bursts of events a settings.json save or an interpreter switch produces. */
const RESTART_DEBOUNCE_MS = 400;

/** Returned from `activate`: lets tests (and other extensions) observe the server. */
export interface DtypeguardApi {
  /** Resolves when every (re)start requested so far has finished. */
  whenIdle(): Promise<void>;
  readonly state: ServerState;
  /** Why the server is in `state` (e.g. the unsupported-Python message). */
  readonly detail: string | undefined;
  readonly interpreter: ResolvedInterpreter | undefined;
  readonly initializationOptions: InitializationOptions | undefined;
  readonly serverInfo: { name: string; version?: string } | undefined;
  readonly lastVerify: VerifyResult | undefined;
  /** What the status bar item says now (end-to-end tests read it). */
  readonly statusText: string;
  /** The error notification shown for an invalid `dtypeguard.interpreter`, if any. */
  readonly settingProblem: string | undefined;
}

let session: ServerSession | undefined;

export function activate(context: vscode.ExtensionContext): DtypeguardApi {
  // 1. Where users look: a log channel and a status bar item that opens it.
  const log = vscode.window.createOutputChannel('dtypeguard', { log: true });
  const status = new StatusBar(COMMANDS.showLogs, vscode.workspace.isTrusted);
  session = new ServerSession(context.extensionPath, log, status);
  const server = session;

  // 2. One debounced runServer for every restart reason.
  let idle: Promise<void> = Promise.resolve();
  const restarter = createRestarter((reasons) => server.restart(reasons), () => RESTART_DEBOUNCE_MS);
  const runServer = (reason: string, immediately = false): Promise<void> =>
    (idle = immediately ? restarter.now(reason) : restarter.request(reason));

  context.subscriptions.push(
    log,
    status,
    server,
    { dispose: () => restarter.dispose() },
    // 3. Commands.
    ...registerCommands({ client: () => server.client, restart: (r) => runServer(r, true), log }),
    // 4. Restart reasons: our settings, workspace trust, the Python extension's interpreter.
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (needsRestart((section) => e.affectsConfiguration(section))) {
        void runServer('settings changed');
      }
    }),
    // The status bar shows the active editor's verify result, not the last file run.
    vscode.window.onDidChangeActiveTextEditor((editor) => status.update({ activeUri: activeUri(editor) })),
    vscode.window.onDidChangeActiveNotebookEditor((editor) => {
      if (editor) {
        status.update({ activeUri: editor.notebook.uri.toString() });
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      status.update({ trusted: true });
      void runServer('workspace trust granted', true);
    }),
  );
  void onPythonInterpreterChanged(() => void runServer('Python extension interpreter changed'), log).then(
    (d) => d && context.subscriptions.push(d),
  );

  status.update({ activeUri: activeUri(vscode.window.activeTextEditor) });

  // 5. Go. Not awaited: activation must not wait for Python; whenIdle() does.
  void runServer('activation', true);

  return {
    whenIdle: () => idle,
    get state() {
      return status.current.state;
    },
    get detail() {
      return status.current.detail;
    },
    get interpreter() {
      return server.interpreter;
    },
    get initializationOptions() {
      return server.init;
    },
    get serverInfo() {
      return server.client?.initializeResult?.serverInfo;
    },
    get lastVerify() {
      return status.current.lastVerify;
    },
    get statusText() {
      return renderStatus(status.current).text;
    },
    get settingProblem() {
      return server.settingProblem;
    },
  };
}

/** The URI results are keyed by: a notebook cell's result is its notebook's. */
function activeUri(editor: vscode.TextEditor | undefined): string | undefined {
  if (!editor) {
    return undefined;
  }
  const cellOf = vscode.workspace.notebookDocuments.find((nb) =>
    nb.getCells().some((cell) => cell.document.uri.toString() === editor.document.uri.toString()),
  );
  return (cellOf?.uri ?? editor.document.uri).toString();
}

export async function deactivate(): Promise<void> {
  await session?.stop();
  session = undefined;
}
