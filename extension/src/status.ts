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
  /** The server's verdict for an editor: ok | warning | error | timeout | no-step | inconclusive. */
  outcome?: string;
  device?: string;
  /** The document was edited after this run: the result describes an earlier version. */
  stale?: boolean;
}

export interface StatusModel {
  state: ServerState;
  /** Why the server is in this state (an error message, the interpreter in use...). */
  detail?: string | undefined;
  trusted: boolean;
  /** The newest result of any document (kept for the API and for a window with no editor). */
  lastVerify?: VerifyResult | undefined;
  /** The newest result per document URI. */
  verifies?: Readonly<Record<string, VerifyResult>>;
  /** The active editor's document: the status bar shows its result, not another file's. */
  activeUri?: string | undefined;
}

export type StatusTone = 'normal' | 'warning' | 'error';

export interface StatusView {
  text: string;
  tooltip: string;
  tone: StatusTone;
}

export type VerifyOutcome = 'ok' | 'warning' | 'failed' | 'inconclusive';

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
  warning: '$(warning)',
  failed: '$(error)',
  inconclusive: '$(question)',
};

/** The server's `outcome` when it sent one (a step that left NaN parameters is a warning,
 * not OK), else the status word classified as `verifyOutcome` does. */
export function resultOutcome(v: VerifyResult): VerifyOutcome {
  switch (v.outcome) {
    case 'ok':
      return 'ok';
    case 'warning':
      return 'warning';
    case 'error':
      return 'failed';
    case 'timeout':
    case 'no-step':
    case 'inconclusive':
      return 'inconclusive';
    default:
      return verifyOutcome(v.status);
  }
}

/** The result the status bar shows: the active document's, or (no editor tracked) the newest. */
export function shownVerify(model: StatusModel): VerifyResult | undefined {
  if (model.activeUri !== undefined) {
    return model.verifies?.[model.activeUri];
  }
  return model.lastVerify;
}

export function renderStatus(model: StatusModel): StatusView {
  const lines: string[] = [`dtypeguard server: ${model.state}${model.detail ? ` (${model.detail})` : ''}`];
  if (!model.trusted) {
    lines.push('Restricted mode: analysis only, Verify is off until you trust this workspace.');
  }
  let text = `${STATE_ICON[model.state]} dtypeguard`;
  let tone: StatusTone = model.state === 'error' ? 'error' : 'normal';
  const v = shownVerify(model);
  if (v) {
    const outcome = resultOutcome(v);
    const where = `${uriBasename(v.uri)}${typeof v.line === 'number' ? `:${v.line}` : ''}`;
    const word = outcome === 'ok' ? 'verify OK' : outcome === 'warning' ? 'verify warning' : `verify ${v.status}`;
    if (v.stale) {
      // edited since the run: say so, in no alarming colour, until it runs again
      text += ` $(history) ${word} (edited since)`;
      lines.push(`Last verify of ${where}, before your edits: ${v.outcome ?? v.status}${v.summary ? ` - ${v.summary}` : ''}`);
      lines.push('Run Verify again to check the current text.');
    } else {
      text += ` ${OUTCOME_ICON[outcome]} ${word}`;
      lines.push(`Last verify of ${where}: ${v.outcome ?? v.status}${v.summary ? ` - ${v.summary}` : ''}`);
      if (tone === 'normal' && outcome !== 'ok') {
        tone = outcome === 'failed' ? 'error' : 'warning';
      }
    }
  }
  lines.push('Click to show the dtypeguard log.');
  return { text, tooltip: lines.join('\n'), tone };
}
