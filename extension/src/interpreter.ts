/**
 * Which Python runs the dtypeguard server (and, through the server, `Verify`).
 *
 * Pure logic, no `vscode` import, so the resolution order is unit-tested in plain node.
 * The order follows Microsoft's Python tool extensions (flake8, pylint, black-formatter):
 *   1. our `dtypeguard.interpreter` setting (explicit beats implicit),
 *   2. the interpreter selected in the Python extension, when that extension is installed,
 *   3. `python3` on PATH (`python` on Windows, where `python3` is often the Store stub).
 */

export type InterpreterSource = 'setting' | 'python-extension' | 'path';

export interface ResolvedInterpreter {
  /** argv prefix: `command[0]` is the executable, the rest are extra args (e.g. `conda run`). */
  readonly command: readonly string[];
  readonly source: InterpreterSource;
}

export interface InterpreterInputs {
  /** Value of `dtypeguard.interpreter` (VS Code already drops the workspace value when untrusted). */
  readonly setting: readonly string[] | undefined;
  /** Executable of the Python extension's active environment; undefined when not installed/none. */
  readonly pythonExtension: readonly string[] | undefined;
  readonly platform: NodeJS.Platform;
}

export interface VariableContext {
  readonly workspaceFolder?: string | undefined;
  readonly userHome: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Expand `${workspaceFolder}`, `${userHome}` and `${env:NAME}` the way VS Code users expect. */
export function substituteVariables(value: string, ctx: VariableContext): string {
  return value.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
    if (name === 'workspaceFolder') {
      return ctx.workspaceFolder ?? whole; // leave it visible rather than silently making a bad path
    }
    if (name === 'userHome') {
      return ctx.userHome;
    }
    if (name.startsWith('env:')) {
      return ctx.env[name.slice(4)] ?? '';
    }
    return whole;
  });
}

/**
 * The raw `dtypeguard.interpreter` value as users write it: a path (`"/venv/bin/python"`) or a
 * list (`["/venv/bin/python", "-X", "utf8"]`). Anything else is a mistake the user must see:
 * `problem` says what is wrong and the setting is ignored (the other sources still apply).
 */
export function interpreterSetting(raw: unknown): { setting: string[] | undefined; problem?: string } {
  if (raw === undefined || raw === null || raw === '') {
    return { setting: undefined };
  }
  if (typeof raw === 'string') {
    return { setting: [raw] }; // one path, spaces and all: it is not split
  }
  if (Array.isArray(raw) && raw.every((part) => typeof part === 'string')) {
    return { setting: raw as string[] };
  }
  return {
    setting: undefined,
    problem:
      `The "dtypeguard.interpreter" setting must be a path to a Python or a list of strings (the Python and its arguments), ` +
      `not ${JSON.stringify(raw)}; it is ignored until fixed.`,
  };
}

function nonEmpty(parts: readonly string[] | undefined): string[] | undefined {
  const cleaned = (parts ?? []).map((p) => p.trim()).filter((p) => p.length > 0);
  return cleaned.length > 0 ? cleaned : undefined;
}

export function defaultPython(platform: NodeJS.Platform): string {
  return platform === 'win32' ? 'python' : 'python3';
}

export function resolveInterpreter(inputs: InterpreterInputs, ctx?: VariableContext): ResolvedInterpreter {
  const fromSetting = nonEmpty(inputs.setting);
  if (fromSetting) {
    return {
      command: ctx ? fromSetting.map((p) => substituteVariables(p, ctx)) : fromSetting,
      source: 'setting',
    };
  }
  const fromPython = nonEmpty(inputs.pythonExtension);
  if (fromPython) {
    return { command: fromPython, source: 'python-extension' };
  }
  return { command: [defaultPython(inputs.platform)], source: 'path' };
}

export type PythonVersion = readonly [number, number, number];

export const MIN_PYTHON: PythonVersion = [3, 10, 0];

/** Args that make an interpreter print its version as `3.11.7` (no imports: fast, never fails). */
export const VERSION_PROBE_ARGS: readonly string[] = [
  '-c',
  'import sys; print("%d.%d.%d" % sys.version_info[:3])',
];

export function parsePythonVersion(stdout: string): PythonVersion | undefined {
  // Take the last matching line: `conda run` and shell wrappers may print banners first.
  const lines = stdout.split(/\r?\n/).reverse();
  for (const line of lines) {
    const m = /^\s*(\d+)\.(\d+)\.(\d+)\s*$/.exec(line);
    if (m) {
      return [Number(m[1]), Number(m[2]), Number(m[3])];
    }
  }
  return undefined;
}

export function isSupportedVersion(v: PythonVersion, min: PythonVersion = MIN_PYTHON): boolean {
  for (let i = 0; i < 3; i++) {
    if (v[i] !== min[i]) {
      return (v[i] ?? 0) > (min[i] ?? 0);
    }
  }
  return true;
}

export function formatVersion(v: PythonVersion): string {
  return v.join('.');
}

const SOURCE_HINT: Record<InterpreterSource, string> = {
  setting: 'from the dtypeguard.interpreter setting',
  'python-extension': 'selected in the Python extension',
  path: 'found on PATH',
};

/** The message a user sees when their interpreter cannot run the server; says what to do. */
export function unsupportedMessage(
  resolved: ResolvedInterpreter,
  version: PythonVersion | undefined,
  error?: string,
): string {
  const what = `${resolved.command.join(' ')} (${SOURCE_HINT[resolved.source]})`;
  const fix =
    'Set "dtypeguard.interpreter" to a Python >= 3.10 (e.g. your project\'s venv), or select one with "Python: Select Interpreter".';
  if (!version) {
    return `dtypeguard could not run Python ${what}${error ? `: ${error}` : ''}. ${fix}`;
  }
  return `dtypeguard needs Python >= ${MIN_PYTHON[0]}.${MIN_PYTHON[1]}, but ${what} is ${formatVersion(version)}. ${fix}`;
}
