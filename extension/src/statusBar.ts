/** Copies status.ts's view onto a status bar item; clicking it shows the log. */
import * as vscode from 'vscode';
import { StatusModel, renderStatus } from './status';

export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private model: StatusModel;

  constructor(showLogsCommand: string, trusted: boolean) {
    this.item = vscode.window.createStatusBarItem('dtypeguard.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'dtypeguard';
    this.item.command = showLogsCommand;
    this.model = { state: 'stopped', trusted };
    this.render();
    this.item.show();
  }

  get current(): Readonly<StatusModel> {
    return this.model;
  }

  update(change: Partial<StatusModel>): void {
    this.model = { ...this.model, ...change };
    this.render();
  }

  private render(): void {
    const view = renderStatus(this.model);
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor =
      view.tone === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : view.tone === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
  }

  dispose(): void {
    this.item.dispose();
  }
}
