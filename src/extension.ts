// Only wiring: build the services, register each feature, push every
// disposable to context.subscriptions, and show an activation failure to the
// user instead of swallowing it. Activation must stay cheap (target ≤ 15 ms):
// nothing here touches the network, and the HTTP stack loads on first use.
import * as vscode from 'vscode';
import { registerDetails } from './details/registerDetails';
import { EventsService } from './eventsCache/eventsService';
import { FileResultStore } from './eventsCache/fileResultStore';
import { forgetResultsOnSignOut, resultScope } from './session/resultScope';
import { Log } from './workbench/log';
import { registerMachines } from './machines/registerMachines';
import { SettingsReader } from './workbench/settings';
import { publicApi, type OnboardingEventsExtensionApi } from './publicApi';
import { registerSerialNumbers } from './editor/registerEditor';
import { registerSession } from './session/registerSession';
import { errorMessage } from './common/errors';
import { registerSettingsSync } from './workbench/settingsSync';

export type { OnboardingEventsExtensionApi } from './publicApi';

export function activate(context: vscode.ExtensionContext): OnboardingEventsExtensionApi {
  const started = performance.now();
  try {
    const log = new Log();
    const settings = new SettingsReader();
    context.subscriptions.push(log, settings);
    registerSettingsSync(context);
    const session = registerSession(context, log);
    context.subscriptions.push(session);
    const resultStore = new FileResultStore({
      directory: vscode.Uri.joinPath(context.globalStorageUri, 'results').fsPath,
      scope: () => resultScope(session.state),
      timestampUnit: () => settings.value.timestampUnit,
      onError: (message, error) => {
        log.warn(`${message} (${errorMessage(error)})`);
      },
    });
    context.subscriptions.push(forgetResultsOnSignOut(session, resultStore));
    const events = new EventsService({
      source: () => session.client(),
      freshForMs: () => settings.value.cacheSeconds * 1000,
      // Last good results survive reloads and outages, filed per environment and API.
      store: resultStore,
    });
    // Data of one API or user never shows under another.
    context.subscriptions.push(
      session.onDidChangeState(() => {
        events.clear();
      }),
    );
    const details = registerDetails(context, { session, log });
    const machines = registerMachines(context, { session, events, details, log });
    const serialNumbers = registerSerialNumbers(context, { session, events, machines, details, log });
    return publicApi({
      activationMs: performance.now() - started,
      machines,
      events,
      testMode: context.extensionMode === vscode.ExtensionMode.Test,
      sessionTestHook: session.testHook,
      detailsTestHook: details.testHook,
      serialNumbersTestHook: serialNumbers,
    });
  } catch (error) {
    const message = errorMessage(error);
    void vscode.window.showErrorMessage(vscode.l10n.t('Onboarding Events could not start: {0}', message));
    throw error;
  }
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
