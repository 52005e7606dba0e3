// Serial numbers in code: hovers, links, the context-menu look-up and the in-document views. The
// language providers are registered again whenever the serial settings change.
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../core/common/lifecycle';
import { commandUri } from '../../core/common/markdownText';
import { COMMANDS } from '../workbench/constants';
import { selectorFor, type SerialSettings, type SerialSettingsSnapshot } from '../workbench/serialSettings';
import { tooLargeToRead } from './statusDocuments';
import { registerCommands } from '../workbench/commands';
import { EDITOR_COMMANDS } from './editorCommands';
import { SerialAtCursorContext } from './serialAtCursor';
import { SerialHoverProvider } from './serialHoverProvider';
import type { CachedLineHistory } from '../../core/eventsCache/cachedLineHistory';
import type { SerialFeatureDeps } from '../workbench/contracts/features';
import type { SettingsReader } from '../workbench/settings';
import { SerialStatuses } from './serialStatuses';
import { InlineStatus } from './inlineStatus';
import { SerialCodeActions } from './serialCodeActions';
import { SerialCompletion } from './serialCompletion';
import { SerialDiagnostics } from './serialDiagnostics';

/** More links than this help nobody and cost the editor memory. */
const MAX_LINKS_PER_DOCUMENT = 2000;

type ProviderRegistrations = (selector: vscode.DocumentSelector, value: SerialSettingsSnapshot) => vscode.Disposable[];

class SerialProviders extends Disposable {
  private registrations: vscode.Disposable | undefined;

  constructor(
    settings: SerialSettings,
    private readonly registerAll: ProviderRegistrations,
  ) {
    super();
    this.update(settings.value);
    this.register(
      settings.onDidChange((value) => {
        this.update(value);
      }),
    );
    this.register(
      toDisposable(() => {
        this.registrations?.dispose();
      }),
    );
  }

  private update(value: SerialSettingsSnapshot): void {
    this.registrations?.dispose();
    this.registrations = vscode.Disposable.from(...this.registerAll(selectorFor(value.languages), value));
  }
}

/** Local work only (no request), capped per document, skipped for huge documents. */
class SerialLinkProvider implements vscode.DocumentLinkProvider {
  constructor(
    private readonly settings: SerialSettings,
    private readonly trust: EditorDeps['trust'],
  ) {}

  provideDocumentLinks(document: vscode.TextDocument, token: vscode.CancellationToken): vscode.DocumentLink[] {
    if (tooLargeToRead(document) || token.isCancellationRequested) return [];
    const matcher = this.settings.value.matcher;
    const matches = matcher.findAll(document.getText(), MAX_LINKS_PER_DOCUMENT);
    return matches.map((match) => {
      const link = new vscode.DocumentLink(
        new vscode.Range(document.positionAt(match.start), document.positionAt(match.end)),
        vscode.Uri.parse(commandUri(COMMANDS.revealMachine, [this.trust.ownArgument({ serialNumber: match.serialNumber })])),
      );
      link.tooltip = vscode.l10n.t('Show {0} in the Onboarding Events sidebar', match.serialNumber);
      return link;
    });
  }
}

export type EditorDeps = SerialFeatureDeps & {
  readonly settings: SettingsReader;
  /** The line's history: the hover says an in-progress machine's step and time to go. */
  readonly lineHistory: Pick<CachedLineHistory, 'progressFor'>;
};

export function registerEditor(context: vscode.ExtensionContext, deps: EditorDeps): void {
  const { serialSettings } = deps;
  const linkProvider = new SerialLinkProvider(serialSettings, deps.trust);
  const hoverProvider = new SerialHoverProvider({
    session: deps.session,
    events: deps.events,
    settings: serialSettings,
    eventStates: () => deps.settings.value.eventStates,
    log: deps.log,
    lineHistory: deps.lineHistory,
    ownArgument: (fields) => deps.trust.ownArgument(fields),
  });
  context.subscriptions.push(
    new SerialProviders(serialSettings, (selector, value) => {
      return [
        ...(value.hoverEnabled ? [vscode.languages.registerHoverProvider(selector, hoverProvider)] : []),
        ...(value.linksEnabled ? [vscode.languages.registerDocumentLinkProvider(selector, linkProvider)] : []),
      ];
    }),
    new SerialAtCursorContext(serialSettings),
    ...registerCommands(EDITOR_COMMANDS, deps),
  );
  const states = new SerialStatuses({ session: deps.session, events: deps.events, settings: deps.settings, log: deps.log });
  const inline = new InlineStatus(states, serialSettings, deps.settings);
  const diagnostics = new SerialDiagnostics(states, serialSettings, deps.settings, deps.log);
  const codeActions = new SerialCodeActions(serialSettings, states, deps.trust);
  const completion = new SerialCompletion(deps.machines, states, serialSettings);
  context.subscriptions.push(
    states,
    inline,
    diagnostics,
    new SerialProviders(serialSettings, (selector) => [
      vscode.languages.registerCodeActionsProvider(selector, codeActions, SerialCodeActions.metadata),
      vscode.languages.registerCompletionItemProvider(selector, completion),
    ]),
  );
}
