// Only wiring: build the shared services, register each feature (each pushes
// its disposables to context.subscriptions), and return the public API. An
// activation failure is shown to the user instead of swallowed. Activation
// must stay cheap (target ≤ 15 ms): nothing here touches the network, and the
// HTTP stack loads on first use.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { FileClaims } from './core/common/claims';
import { extensionErrorText } from './extension/workbench/remedies';
import { registerAgentTools } from './extension/agentTools/registerAgentTools';
import { registerBoard } from './extension/board/registerBoard';
import { registerDetails } from './extension/details/registerDetails';
import { registerEditor } from './extension/editor/registerEditor';
import { registerLinks } from './extension/links/registerLinks';
import { registerLookUp } from './extension/lookUp/registerLookUp';
import { registerMachines } from './extension/machines/registerMachines';
import { scanWorkspace } from './extension/machines/workspaceScan';
import { publicApi, type OnboardingEventsExtensionApi } from './extension/publicApi';
import { registerSession } from './extension/session/registerSession';
import { registerWatch } from './extension/watch/registerWatch';
import { testHandles } from './testHooks';
import { Log } from './extension/workbench/log';
import { registerEventsCache } from './extension/workbench/registerEventsCache';
import { SerialSettings } from './extension/workbench/serialSettings';
import { SettingsReader } from './extension/workbench/settings';
import { registerSettingsSync } from './extension/workbench/constants';
import { ArgumentTrust } from './extension/workbench/argumentTrust';
import { inertNotificationText } from './core/common/notificationText';

export type { OnboardingEventsExtensionApi } from './extension/publicApi';

/** Set by esbuild.mjs: true in the development build the tests run, false in the production bundle, which so holds no test hooks. */
declare const OE_TEST_BUILD: boolean;

export function activate(context: vscode.ExtensionContext): OnboardingEventsExtensionApi {
  const started = performance.now();
  try {
    const log = new Log();
    const settings = new SettingsReader();
    // The one serial-number matcher: hovers, links, the look-up and the tree read it.
    const serialSettings = new SerialSettings(settings, log);
    context.subscriptions.push(log, settings, serialSettings);
    registerSettingsSync(context);
    // The one rule for what other extensions may do (workbench/argumentTrust.ts): they ask in VS Code's
    // modal, which only the user answers; the question names what is asked, made inert like every notification.
    const trust = new ArgumentTrust(
      (message, detail, action) => vscode.window.showWarningMessage(inertNotificationText(message), { modal: true, detail }, action),
      vscode.l10n.t('Another extension or a link asked for this. Continue only if you expected it.'),
    );
    const session = registerSession(context, { log, settings, trust });
    const { events, lineHistory } = registerEventsCache(context, { session, settings, log });
    const deps = { session, events, lineHistory, settings, serialSettings, log, trust };
    const details = registerDetails(context, deps);
    // One window of the profile tells what happened once: a watch's outcome, a pinned machine's new failure.
    const claims = new FileClaims(join(context.globalStorageUri.fsPath, 'watch-claims'), (message) => {
      log.warn(message);
    });
    void claims.prune();
    const machines = registerMachines(context, { ...deps, matcher: () => serialSettings.value.matcher, details, claims });
    registerEditor(context, { ...deps, machines, details });
    registerLookUp(context, { ...deps, machines, details });
    registerLinks(context, { ...deps, details, machines });
    // The watch feature before the agent tools: they read its watches and start new ones.
    const watch = registerWatch(context, { ...deps, machines, details, claims });
    const agentTools = registerAgentTools(context, { ...deps, machines, scanWorkspace, watches: watch });
    const board = registerBoard(context, { ...deps, machines, details });
    const api = publicApi({ activationMs: performance.now() - started, machines, events, trust });
    // What the tests build from, beside the API in the development build only (esbuild drops an `if (false)`
    // block from the production bundle, where an early return would leave it in); no feature knows of it.
    if (OE_TEST_BUILD) {
      const handles = testHandles({ context, session, events, agentTools, watch, board });
      if (handles !== undefined) Object.assign(api, { testHooks: handles });
    }
    return api;
  } catch (error) {
    void vscode.window.showErrorMessage(
      inertNotificationText(vscode.l10n.t('Onboarding Events could not start: {0}', extensionErrorText(error, vscode.l10n.t))),
    );
    throw error;
  }
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
