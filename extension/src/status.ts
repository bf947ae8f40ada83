/**
 * What the status bar item says: the server's state plus the last verify result.
 *
 * Pure (model -> view), so every state/result combination is unit-tested; statusBar.ts only
 * copies the view onto a `vscode.StatusBarItem`.
 */

export type ServerState = 'starting' | 'running' | 'stopped' | 'error';

/** Payload of the server's `dtypeguard/verifyResult` notification (docs/lsp-contract.md). */
export interface VerifyResult {
  uri: string;
  status: string;
  summary: string;
  /** 1-based, like the traceback line the runner reports. */
  line?: number | null;
}

export interface StatusModel {
  state: ServerState;
  /** Why the server is in this state (an error message, the interpreter in use...). */
  detail?: string | undefined;
  trusted: boolean;
  lastVerify?: VerifyResult | undefined;
}

export type StatusTone = 'normal' | 'warning' | 'error';

export interface StatusView {
  text: string;
  tooltip: string;
  tone: StatusTone;
}

export type VerifyOutcome = 'ok' | 'failed' | 'inconclusive';

/**
 * The verify runner's JSON status is owned by the server; classify generously so a new status
 * word shows up as "inconclusive" rather than as a false "OK".
 */
export function verifyOutcome(status: string): VerifyOutcome {
  const s = status.trim().toLowerCase();
  if (['ok', 'pass', 'passed', 'success', 'clean'].includes(s)) {
    return 'ok';
  }
  // The runner's statuses (server/dtypeguard/verify/result.py): ok, error, crashed are
  // verdicts; these say the run could not reach a verdict.
  if (['timeout', 'no-step', 'no-torch', 'no-cuda', 'cancelled', 'skipped'].includes(s)) {
    return 'inconclusive';
  }
  return 'failed';
}

/** `file:///a/b/train.py` -> `train.py`, without needing `vscode.Uri` (or `path` on URIs). */
export function uriBasename(uri: string): string {
  const trimmed = uri.replace(/[?#].*$/, '').replace(/\/+$/, '');
  const last = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

const STATE_ICON: Record<ServerState, string> = {
  starting: '$(sync~spin)',
  running: '$(shield)',
  stopped: '$(circle-slash)',
  error: '$(error)',
};

const OUTCOME_ICON: Record<VerifyOutcome, string> = {
  ok: '$(pass)',
  failed: '$(error)',
  inconclusive: '$(warning)',
};

export function renderStatus(model: StatusModel): StatusView {
  const lines: string[] = [`dtypeguard server: ${model.state}${model.detail ? ` (${model.detail})` : ''}`];
  if (!model.trusted) {
    lines.push('Restricted mode: analysis only, Verify is off until you trust this workspace.');
  }
  let text = `${STATE_ICON[model.state]} dtypeguard`;
  let tone: StatusTone = model.state === 'error' ? 'error' : 'normal';
  const v = model.lastVerify;
  if (v) {
    const outcome = verifyOutcome(v.status);
    const where = `${uriBasename(v.uri)}${typeof v.line === 'number' ? `:${v.line}` : ''}`;
    text += ` ${OUTCOME_ICON[outcome]} ${outcome === 'ok' ? 'verify OK' : `verify ${v.status}`}`;
    lines.push(`Last verify of ${where}: ${v.status}${v.summary ? ` - ${v.summary}` : ''}`);
    if (tone === 'normal' && outcome !== 'ok') {
      tone = outcome === 'failed' ? 'error' : 'warning';
    }
  }
  lines.push('Click to show the dtypeguard log.');
  return { text, tooltip: lines.join('\n'), tone };
}
