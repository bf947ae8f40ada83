/**
 * VS Code settings (`dtypeguard.*`) -> the server's `initializationOptions` (docs/lsp-contract.md).
 *
 * Pure: takes a getter instead of `vscode.WorkspaceConfiguration` so the mapping and the
 * validation are unit-tested without VS Code. Every value is sanitised here, because a bad
 * user setting must degrade to the default rather than crash the server at `initialize`.
 */

export type Severity = 'error' | 'warning' | 'information' | 'hint';
export type VerifyDevice = 'auto' | 'cpu' | 'cuda';

/** The `settings` object of the contract, key for key. */
export interface ServerSettings {
  interpreter: string[];
  verifyTimeout: number;
  verifyDevice: VerifyDevice;
  select: string[];
  ignore: string[];
  severityOverrides: Record<string, Severity>;
  inlayHints: boolean;
  debounceMs: number;
  workspaceDiagnostics: boolean;
}

export interface InitializationOptions {
  workspaceTrusted: boolean;
  settings: ServerSettings;
}

/** Reads `dtypeguard.<key>`; `vscode.workspace.getConfiguration('dtypeguard').get` fits. */
export type SettingGetter = (key: string) => unknown;

export const DEFAULTS: Readonly<Omit<ServerSettings, 'interpreter'>> = Object.freeze({
  verifyTimeout: 60,
  verifyDevice: 'auto',
  select: [],
  ignore: [],
  severityOverrides: {},
  inlayHints: false,
  debounceMs: 200,
  workspaceDiagnostics: false,
});

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'information', 'hint'];
const DEVICES: readonly VerifyDevice[] = ['auto', 'cpu', 'cuda'];
const CODE_PREFIX = /^DG\d{0,3}$/;
const CODE = /^DG\d{3}$/;

function num(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
}

function codes(value: unknown, pattern: RegExp): string[] {
  if (!Array.isArray(value)) {
    return [];
  }
  const out = value
    .filter((v): v is string => typeof v === 'string')
    .map((v) => v.trim().toUpperCase())
    .filter((v) => pattern.test(v));
  return [...new Set(out)];
}

function severities(value: unknown): Record<string, Severity> {
  const out: Record<string, Severity> = {};
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [code, sev] of Object.entries(value as Record<string, unknown>)) {
      const key = code.trim().toUpperCase();
      const level = typeof sev === 'string' ? sev.trim().toLowerCase() : '';
      // Accept VS Code's own spelling "info" too: users copy it from other extensions.
      const normalised = (level === 'info' ? 'information' : level) as Severity;
      if (CODE.test(key) && SEVERITIES.includes(normalised)) {
        out[key] = normalised;
      }
    }
  }
  return out;
}

/**
 * Build the contract's settings. `interpreter` is the *resolved* interpreter (see
 * interpreter.ts), not the raw setting: the server must verify with the same Python the
 * client chose, whichever of the three sources it came from.
 */
export function readSettings(get: SettingGetter, interpreter: readonly string[]): ServerSettings {
  const device = get('verifyDevice');
  return {
    interpreter: [...interpreter],
    verifyTimeout: num(get('verifyTimeout'), DEFAULTS.verifyTimeout, 1, 24 * 3600),
    verifyDevice: DEVICES.includes(device as VerifyDevice) ? (device as VerifyDevice) : DEFAULTS.verifyDevice,
    select: codes(get('select'), CODE_PREFIX),
    ignore: codes(get('ignore'), CODE_PREFIX),
    severityOverrides: severities(get('severityOverrides')),
    inlayHints: get('inlayHints') === true,
    debounceMs: Math.round(num(get('debounceMs'), DEFAULTS.debounceMs, 0, 5000)),
    workspaceDiagnostics: get('workspaceDiagnostics') === true,
  };
}

export function initializationOptions(settings: ServerSettings, workspaceTrusted: boolean): InitializationOptions {
  return { workspaceTrusted, settings };
}

/** Settings the language client handles live (it sends `$/setTrace`): no restart needed. */
const LIVE_KEYS = ['dtypeguard.trace.server', 'dtypeguard.trace'];

/** Every other `dtypeguard.*` setting is part of `initializationOptions`, so it needs a restart. */
export const SERVER_KEYS: readonly string[] = [
  'dtypeguard.interpreter',
  'dtypeguard.verifyTimeout',
  'dtypeguard.verifyDevice',
  'dtypeguard.select',
  'dtypeguard.ignore',
  'dtypeguard.severityOverrides',
  'dtypeguard.inlayHints',
  'dtypeguard.debounceMs',
  'dtypeguard.workspaceDiagnostics',
];

/**
 * Does a configuration change need a server restart? `affects` is
 * `ConfigurationChangeEvent.affectsConfiguration`. (The Python extension's interpreter choice
 * arrives through its own event, see python.ts.)
 */
export function needsRestart(affects: (section: string) => boolean): boolean {
  if (SERVER_KEYS.some((k) => affects(k))) {
    return true;
  }
  // A dtypeguard key we do not list (added later): safer to restart than to ignore it.
  return affects('dtypeguard') && !LIVE_KEYS.some((k) => affects(k));
}
