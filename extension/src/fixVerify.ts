/**
 * "Fix and verify" (server command `dtypeguard.fixAndVerify`, docs/lsp-contract.md): the server
 * runs the buffer (unsaved edits included) and its safe-fixed copy up to their first optimizer
 * step, applies the fixes to the buffer only if the copy verifies ok (an undoable edit; the
 * user saves), and says both outcomes in a notification; otherwise it offers "Apply anyway".
 *
 * The server's work-done progress shows in the status bar, where VS Code offers no cancel
 * button, so every request (code action, lens, palette) runs under a cancellable notification
 * here; cancelling it sends `dtypeguard.cancelFixAndVerify`, which stops the run.
 */
import * as vscode from 'vscode';
import { uriBasename } from './status';

export async function withFixVerifyProgress<T>(
  uri: string | undefined,
  run: () => Promise<T>,
  cancel: () => Promise<unknown>,
): Promise<T> {
  const name = uri ? uriBasename(uri) : 'the file';
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `dtypeguard: fix and verify ${name}`, cancellable: true },
    async (progress, token) => {
      progress.report({ message: 'running it as it is in the editor, then with the safe fixes…' });
      const cancelled = token.onCancellationRequested(() => {
        cancel().then(undefined, () => undefined);
      });
      try {
        return await run();
      } finally {
        cancelled.dispose();
      }
    },
  );
}
