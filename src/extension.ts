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
import { SerialSettings } from './workbench/serialSettings';
import { SettingsReader } from './workbench/settings';
import { publicApi, type OnboardingEventsExtensionApi } from './publicApi';
import { registerEditor } from './editor/registerEditor';
import { registerLookUp } from './lookUp/registerLookUp';
import { registerSession } from './session/registerSession';
import { errorMessage } from './common/errors';
import { SerialSettings } from './workbench/serialSettings';
import { isTestMode } from './workbench/testMode';

export type { OnboardingEventsExtensionApi } from './publicApi';

export function activate(context: vscode.ExtensionContext): OnboardingEventsExtensionApi {
  const started = performance.now();
  try {
    const log = new Log();
    const settings = new SettingsReader();
    context.subscriptions.push(log, settings);
    const { session, testHook: sessionTestHook } = registerSession(context, log, settings);
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
    const testMode = isTestMode(context);
    // The one serial-number matcher: hovers, links, the look-up and the tree read it.
    const serialSettings = new SerialSettings(settings, log);
    context.subscriptions.push(serialSettings);
    const details = registerDetails(context, { session, settings, log, testMode });
    const machines = registerMachines(context, { session, events, settings, matcher: () => serialSettings.value.matcher, log });
    const editor = registerEditor(context, { session, events, machines, details: details.api, serialSettings, log });
    registerLookUp(context, { session, events, machines, details: details.api, serialSettings, log });
    return publicApi({
      activationMs: performance.now() - started,
      machines,
      events,
      testMode,
      sessionTestHook,
      detailsTestHook: details.testHook,
      serialNumbersTestHook: editor,
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
