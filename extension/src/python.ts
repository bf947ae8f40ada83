/**
 * The VS Code side of interpreter selection: the Python extension's API (optional) and the
 * version probe. The decision itself is in interpreter.ts.
 *
 * `@vscode/python-extension` is only a thin client for the Python extension's exported API; we
 * touch it only when `ms-python.python` is installed, so users without that extension (and
 * code-server, where the Microsoft marketplace is not available) get the PATH fallback instead
 * of an activation error. It is not an `extensionDependencies` entry on purpose.
 */
import { execFile } from 'child_process';
import * as vscode from 'vscode';
import { PythonExtension } from '@vscode/python-extension';
import { PythonVersion, VERSION_PROBE_ARGS, parsePythonVersion } from './interpreter';

export const PYTHON_EXTENSION_ID = 'ms-python.python';

function pythonExtensionInstalled(): boolean {
  return vscode.extensions.getExtension(PYTHON_EXTENSION_ID) !== undefined;
}

async function api(log: vscode.LogOutputChannel): Promise<PythonExtension | undefined> {
  if (!pythonExtensionInstalled()) {
    return undefined;
  }
  try {
    return await PythonExtension.api();
  } catch (e) {
    log.warn(`Python extension installed but its API is unavailable: ${String(e)}`);
    return undefined;
  }
}

/** Executable of the environment selected in the Python extension for `resource`, if any. */
export async function pythonExtensionInterpreter(
  resource: vscode.Uri | undefined,
  log: vscode.LogOutputChannel,
): Promise<string[] | undefined> {
  const py = await api(log);
  if (!py) {
    return undefined;
  }
  try {
    const env = await py.environments.resolveEnvironment(py.environments.getActiveEnvironmentPath(resource));
    const exe = env?.executable.uri?.fsPath;
    return exe ? [exe] : undefined;
  } catch (e) {
    log.warn(`Could not resolve the Python extension's active environment: ${String(e)}`);
    return undefined;
  }
}

/** Calls `listener` when the user picks another interpreter in the Python extension. */
export async function onPythonInterpreterChanged(
  listener: () => void,
  log: vscode.LogOutputChannel,
): Promise<vscode.Disposable | undefined> {
  const py = await api(log);
  return py?.environments.onDidChangeActiveEnvironmentPath(() => listener());
}

export interface ProbeResult {
  version?: PythonVersion | undefined;
  error?: string | undefined;
}

/** Ask the interpreter for its version; a missing or broken interpreter yields `error`. */
export function probePythonVersion(command: readonly string[], timeoutMs = 15000): Promise<ProbeResult> {
  const [exe, ...extra] = command;
  if (!exe) {
    return Promise.resolve({ error: 'empty interpreter command' });
  }
  return new Promise((resolve) => {
    execFile(exe, [...extra, ...VERSION_PROBE_ARGS], { timeout: timeoutMs, windowsHide: true }, (err, stdout, stderr) => {
      const version = parsePythonVersion(String(stdout));
      if (version) {
        resolve({ version });
      } else {
        const why = err ? err.message : String(stderr).trim() || 'no version printed';
        resolve({ error: why.split('\n')[0] });
      }
    });
  });
}
