// Only wiring: build the services, register each feature, push every
// disposable to context.subscriptions, and show an activation failure to the
// user instead of swallowing it. Activation must stay cheap (target ≤ 15 ms):
// nothing here touches the network, and the HTTP stack loads on first use.
import * as vscode from 'vscode';
import { Log } from './log/log';

export interface OnboardingEventsExtensionApi {
  /** Milliseconds activate() took, measured by the extension itself. */
  readonly activationMs: number;
}

export function activate(context: vscode.ExtensionContext): OnboardingEventsExtensionApi {
  const started = performance.now();
  try {
    const log = new Log();
    context.subscriptions.push(log);
    // Feature registrations (one line each) go here, in dependency order.
    return { activationMs: performance.now() - started };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    void vscode.window.showErrorMessage(`Onboarding Events could not start: ${message}`);
    throw error;
  }
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
