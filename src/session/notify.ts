// The one place sign-in talks to the user through notifications. A thin
// wrapper so integration tests can count what was shown (through the test
// hooks, src/testHooks.ts) without stubbing the vscode namespace.
import * as vscode from 'vscode';
import { Emitter, type Event } from '../common/emitter';
import { inertNotificationText } from '../common/notificationText';

export type NotificationKind = 'info' | 'warning' | 'error' | 'confirm';

/** Answers a modal question: the chosen action, or undefined when cancelled. */
export type Confirmer = (message: string, detail: string, action: string) => Thenable<string | undefined>;

const modal: Confirmer = (message, detail, action) =>
  vscode.window.showWarningMessage(inertNotificationText(message), { modal: true, detail }, action);

export interface ShownNotification {
  readonly kind: NotificationKind;
  /** Our own wording only: never server text, never a secret. */
  readonly message: string;
}

export class Notifier {
  private readonly shownList: ShownNotification[] = [];
  private confirmer: Confirmer = modal;
  private readonly recorded = new Emitter<ShownNotification>();

  /** A notification was shown (for the test hooks' record of each window, src/testHooks.ts). */
  readonly onDidShow: Event<ShownNotification> = this.recorded.event;

  /** Everything shown so far in this window, oldest first (kept short). */
  get shown(): readonly ShownNotification[] {
    return this.shownList;
  }

  info(message: string, ...actions: string[]): Thenable<string | undefined> {
    this.record('info', message);
    return vscode.window.showInformationMessage(inertNotificationText(message), ...actions);
  }

  warning(message: string, ...actions: string[]): Thenable<string | undefined> {
    this.record('warning', message);
    return vscode.window.showWarningMessage(inertNotificationText(message), ...actions);
  }

  error(message: string, ...actions: string[]): Thenable<string | undefined> {
    this.record('error', message);
    return vscode.window.showErrorMessage(inertNotificationText(message), ...actions);
  }

  /** A modal question; returns the chosen action or undefined when cancelled. */
  confirm(message: string, detail: string, action: string): Thenable<string | undefined> {
    this.record('confirm', `${message}\n${detail}`);
    return this.confirmer(message, detail, action);
  }

  /**
   * For the test hooks (exported only in ExtensionMode.Test): answers modal
   * questions in place of the user until disposed, since a test cannot click
   * a modal dialog.
   */
  answerConfirmations(confirmer: Confirmer): { dispose(): void } {
    const previous = this.confirmer;
    this.confirmer = confirmer;
    return {
      dispose: () => {
        this.confirmer = previous;
      },
    };
  }

  private record(kind: NotificationKind, message: string): void {
    const shown = { kind, message };
    this.shownList.push(shown);
    if (this.shownList.length > 100) this.shownList.shift();
    this.recorded.fire(shown);
  }
}
