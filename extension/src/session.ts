/**
 * One server run after another: stop the old client, pick the interpreter, check its version,
 * start a new client. Only `extension.ts`'s debounced `runServer` calls `restart`, so there is
 * never more than one client alive.
 */
import * as os from 'os';
import * as vscode from 'vscode';
import { LanguageClient, State } from 'vscode-languageclient/node';
import { createClient } from './client';
import {
  ResolvedInterpreter,
  formatVersion,
  interpreterSetting,
  isSupportedVersion,
  resolveInterpreter,
  unsupportedMessage,
} from './interpreter';
import { bundlePaths, serverLaunch } from './launch';
import { probePythonVersion, pythonExtensionInterpreter } from './python';
import { InitializationOptions, initializationOptions, readSettings } from './settings';
import { StatusBar } from './statusBar';
import { ServerState } from './status';

const STATE_NAMES: Record<State, ServerState> = {
  [State.Starting]: 'starting',
  [State.Running]: 'running',
  [State.Stopped]: 'stopped',
};

export class ServerSession implements vscode.Disposable {
  private current: LanguageClient | undefined;
  private stateListener: vscode.Disposable | undefined;
  interpreter: ResolvedInterpreter | undefined;
  /** The notification shown for an invalid `dtypeguard.interpreter` at the last (re)start. */
  settingProblem: string | undefined;
  init: InitializationOptions | undefined;

  constructor(
    private readonly extensionPath: string,
    private readonly log: vscode.LogOutputChannel,
    private readonly status: StatusBar,
  ) {}

  /** The running client, or undefined (not started, failed, or restarting). */
  get client(): LanguageClient | undefined {
    return this.current?.state === State.Running ? this.current : undefined;
  }

  async restart(reasons: readonly string[]): Promise<void> {
    this.log.info(`(re)starting server: ${reasons.join(', ') || 'requested'}`);
    await this.stop();
    this.status.update({ state: 'starting', detail: undefined, trusted: vscode.workspace.isTrusted });

    const folder = vscode.workspace.workspaceFolders?.[0];
    const resource = vscode.window.activeTextEditor?.document.uri ?? folder?.uri;
    const config = vscode.workspace.getConfiguration('dtypeguard', resource);
    const { setting, problem } = interpreterSetting(config.get<unknown>('interpreter'));
    this.settingProblem = problem;
    if (problem) {
      this.log.error(problem);
      void vscode.window.showErrorMessage(problem, 'Show Output').then((pick) => pick && this.log.show());
    }
    const interpreter = resolveInterpreter(
      {
        setting,
        pythonExtension: await pythonExtensionInterpreter(resource, this.log),
        platform: process.platform,
      },
      { workspaceFolder: folder?.uri.fsPath, userHome: os.homedir(), env: process.env },
    );
    this.interpreter = interpreter;
    this.log.info(`interpreter (${interpreter.source}): ${interpreter.command.join(' ')}`);

    const probe = await probePythonVersion(interpreter.command);
    if (!probe.version || !isSupportedVersion(probe.version)) {
      const message = unsupportedMessage(interpreter, probe.version, probe.error);
      this.log.error(message);
      this.status.update({ state: 'error', detail: message });
      void vscode.window.showErrorMessage(message, 'Show Logs').then((pick) => pick && this.log.show());
      return;
    }
    this.log.info(`Python ${formatVersion(probe.version)}`);

    this.init = initializationOptions(
      readSettings((key) => config.get(key), interpreter.command),
      vscode.workspace.isTrusted,
    );
    const launch = serverLaunch(interpreter.command, bundlePaths(this.extensionPath), process.env);
    this.log.debug(`launch: ${launch.command} ${launch.args.join(' ')} PYTHONPATH=${launch.env.PYTHONPATH}`);
    const client = createClient({
      launch,
      cwd: folder?.uri.fsPath,
      init: this.init,
      log: this.log,
      onVerifyResult: (result) =>
        this.status.update({
          lastVerify: result,
          verifies: { ...(this.status.current.verifies ?? {}), [result.uri]: result },
        }),
    });
    this.current = client;
    this.stateListener = client.onDidChangeState((e) => {
      if (this.current === client) {
        this.status.update({ state: STATE_NAMES[e.newState], detail: this.describe() });
      }
    });
    try {
      await client.start();
      this.status.update({ state: 'running', detail: this.describe() });
      const info = client.initializeResult?.serverInfo;
      this.log.info(`server running${info ? `: ${info.name} ${info.version ?? ''}` : ''}`);
    } catch (e) {
      const message = `dtypeguard server failed to start with ${interpreter.command.join(' ')}: ${String(e)}`;
      this.log.error(message);
      this.status.update({ state: 'error', detail: message });
      void vscode.window.showErrorMessage(message, 'Show Logs').then((pick) => pick && this.log.show());
    }
  }

  private describe(): string | undefined {
    return this.interpreter ? `Python: ${this.interpreter.command.join(' ')}` : undefined;
  }

  async stop(): Promise<void> {
    const client = this.current;
    this.current = undefined;
    this.stateListener?.dispose();
    this.stateListener = undefined;
    if (!client) {
      return;
    }
    try {
      if (client.state !== State.Stopped) {
        await client.stop(5000);
      }
    } catch (e) {
      this.log.warn(`stopping the old server: ${String(e)}`);
    }
    await client.dispose().catch(() => undefined);
    this.status.update({ state: 'stopped', detail: undefined });
  }

  dispose(): void {
    void this.stop();
  }
}
