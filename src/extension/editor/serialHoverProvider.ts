// The cached path answers synchronously from EventsCache.peek: no request, no await. Otherwise one
// request through the shared cache, cancelled with the hover.
import * as vscode from 'vscode';
import { isApiError } from '../../core/client/errors';
import { NotSignedInError, type EventsCache } from '../../core/eventsCache/eventsCache';
import type { EventStateRules } from '../../core/domain/events/eventState';
import type { CachedLineHistory } from '../../core/eventsCache/cachedLineHistory';
import type { Log } from '../workbench/log';
import type { ApiSession } from '../workbench/contracts/apiSession';
import {
  errorHoverMarkdown,
  eventsHoverMarkdown,
  HOVER_ENABLED_COMMANDS,
  signedOutHoverMarkdown,
  type HoverContext,
} from './hoverMarkdown';
import { abortSignalFor } from '../../core/common/cancellation';
import { definedOnly } from '../../core/common/definedOnly';
import { errorMessage } from '../../core/common/errors';
import { extensionErrorText } from '../workbench/remedies';
import type { SerialSettings } from '../workbench/serialSettings';
import { serialAtPosition } from './serialAtCursor';

export interface SerialHoverDeps {
  readonly session: ApiSession;
  readonly events: EventsCache;
  readonly settings: SerialSettings;
  readonly eventStates: () => EventStateRules;
  readonly log: Log;
  readonly lineHistory: Pick<CachedLineHistory, 'progressFor'>;
  readonly ownArgument?: HoverContext['ownArgument'];
}

/** Offline a refresh can take until the request timeout, and a hover half a minute late is no hover. */
export const STALE_HOVER_WAIT_MS = 800;

export class SerialHoverProvider implements vscode.HoverProvider {
  constructor(private readonly deps: SerialHoverDeps) {}

  provideHover(
    document: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): vscode.ProviderResult<vscode.Hover> {
    const settings = this.deps.settings.value;
    // The matcher on the line (RE2, linear time), with the minimum length and the deny list.
    const match = serialAtPosition(document, position, settings.matcher);
    if (match === undefined) return undefined;
    const serialNumber = match.serialNumber;
    const range = new vscode.Range(position.line, match.start, position.line, match.end);

    const ctx = this.context(settings.maxEvents, this.deps.eventStates());
    const events = this.deps.events;
    if (this.deps.session.state.kind !== 'signed-in') {
      return hover(signedOutHoverMarkdown(serialNumber, ctx), range);
    }
    const cached = events.peek(serialNumber);
    if (cached !== undefined && events.isFresh(serialNumber)) {
      return hover(eventsHoverMarkdown(serialNumber, cached, ctx), range);
    }
    const fetched = this.fetch(serialNumber, range, token, ctx);
    if (cached === undefined) return fetched;
    // Wait a little for fresh data, then show the last good result "not up to date"; the refresh goes on.
    return this.staleAfterWait(fetched, serialNumber, range, ctx);
  }

  private context(maxEvents: number, rules: EventStateRules): HoverContext {
    const { ownArgument, lineHistory } = this.deps;
    return {
      now: Date.now(),
      locale: vscode.env.language,
      t: (message, ...args) => vscode.l10n.t(message, ...args),
      maxEvents,
      rules,
      progress: (result) => lineHistory.progressFor(result),
      ...definedOnly({ ownArgument }),
    };
  }

  private async staleAfterWait(
    fetched: Promise<vscode.Hover | undefined>,
    serialNumber: string,
    range: vscode.Range,
    ctx: HoverContext,
  ): Promise<vscode.Hover | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => {
        resolve('late');
      }, STALE_HOVER_WAIT_MS);
    });
    try {
      const first = await Promise.race([fetched, late]);
      if (first !== 'late') return first;
    } finally {
      clearTimeout(timer);
    }
    const known = this.deps.events.peek(serialNumber);
    if (known === undefined) return fetched;
    return hover(eventsHoverMarkdown(serialNumber, { ...known, stale: true }, ctx), range);
  }

  private async fetch(
    serialNumber: string,
    range: vscode.Range,
    token: vscode.CancellationToken,
    asked: HoverContext,
  ): Promise<vscode.Hover | undefined> {
    const abort = abortSignalFor(token);
    try {
      const result = await this.deps.events.get(serialNumber, { signal: abort.signal });
      return hover(eventsHoverMarkdown(serialNumber, { result, stale: false }, this.context(asked.maxEvents, asked.rules)), range);
    } catch (error) {
      if (token.isCancellationRequested || (isApiError(error) && error.kind === 'cancelled')) return undefined;
      const ctx = this.context(asked.maxEvents, asked.rules);
      // Refused credentials (the cache told the session) leave the user signed out, as no client does.
      if (error instanceof NotSignedInError || (isApiError(error) && error.kind === 'invalid-credentials'))
        return hover(signedOutHoverMarkdown(serialNumber, ctx), range);
      this.deps.log.warn(`Hover for ${serialNumber}: ${errorMessage(error)}`);
      // The last good result (kept by the service, now marked stale) beats an error alone.
      const previous = this.deps.events.peek(serialNumber);
      if (previous !== undefined) return hover(eventsHoverMarkdown(serialNumber, previous, ctx), range);
      return hover(errorHoverMarkdown(serialNumber, extensionErrorText(error, ctx.t), ctx), range);
    } finally {
      abort.dispose();
    }
  }
}

/** Server data is escaped by the builders; here the string is made inert: no HTML, only our own commands. */
export function trustedMarkdown(value: string): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString(value, false);
  markdown.isTrusted = { enabledCommands: [...HOVER_ENABLED_COMMANDS] };
  markdown.supportHtml = false;
  return markdown;
}

function hover(value: string, range: vscode.Range): vscode.Hover {
  return new vscode.Hover(trustedMarkdown(value), range);
}
