// Anything can run these commands, so a given event is validated again from its raw JSON, and a
// reference (`{ serialNumber, key }`) the cache cannot answer costs a request only after the gate asks.
import * as vscode from 'vscode';
import type { OnboardingEvent } from '../../core/client/model';
import type { EventsCache } from '../../core/eventsCache/eventsCache';
import { inertNotificationText } from '../../core/common/notificationText';
import type { ArgumentTrust } from '../workbench/argumentTrust';
import type { CommandFactory, CommandTable } from '../workbench/commands';
import { COMMANDS } from '../workbench/constants';
import type { Log } from '../workbench/log';
import type { SettingsReader } from '../workbench/settings';
import type { DetailsPanels } from './detailsPanels';
import { eventFromArgument, eventReference, type EventReference } from './eventArgument';
import type { ReadOnlyDocuments } from './jsonDocuments';
import { lineText } from '../../core/common/serverText';

export interface DetailsCommandDeps {
  readonly panels: DetailsPanels;
  readonly documents: ReadOnlyDocuments;
  readonly settings: SettingsReader;
  readonly log: Log;
  /** Resolves `{ serialNumber, key }` references (hover links, quick fixes) to the event. */
  readonly events: EventsCache;
  /** Asks before a reference the cache cannot answer is loaded. */
  readonly trust: Pick<ArgumentTrust, 'confirm'>;
}

/** An event, `{ event }`, a reference, or (without argument) the current panel's. */
async function eventFrom(deps: DetailsCommandDeps, argument: unknown): Promise<OnboardingEvent | undefined> {
  if (argument === undefined) return deps.panels.current?.event;
  const reference = eventReference(argument);
  if (reference !== undefined) {
    const event = await cachedEvent(deps, reference);
    if (event === undefined)
      void vscode.window.showInformationMessage(
        inertNotificationText(vscode.l10n.t('The events of {0} are no longer loaded. Hover again to load them.', reference.serialNumber)),
      );
    return event;
  }
  const result = eventFromArgument(argument, deps.settings.value.timestampUnit, vscode.l10n.t);
  if (result.ok) return result.event;
  deps.log.warn(`Event details: cannot show this event: ${result.reason}.`);
  // The reason may quote a relation name from the (tampered) argument: keep it from forming a command link.
  void vscode.window.showErrorMessage(
    inertNotificationText(vscode.l10n.t('Cannot show the event: {0}.', inertNotificationText(result.reason))),
  );
  return undefined;
}

/** Anyone can write a reference to any machine: a request only after the user agreed. */
async function cachedEvent(
  { events, trust }: DetailsCommandDeps,
  { serialNumber, key }: EventReference,
): Promise<OnboardingEvent | undefined> {
  const find = (list: readonly OnboardingEvent[] | undefined): OnboardingEvent | undefined =>
    key === undefined ? list?.[0] : list?.find((event) => event.key === key);
  const hit = find(events.peek(serialNumber)?.result.events);
  if (hit !== undefined) return hit;
  const agreed = await trust.confirm({
    title: vscode.l10n.t('Another extension or a link asks to load the onboarding events of {0}.', serialNumber),
    detail: vscode.l10n.t('Its onboarding events are then loaded with your sign-in, and other extensions can read what was loaded.'),
    action: vscode.l10n.t('Load'),
  });
  if (!agreed) return undefined;
  try {
    return find((await events.get(serialNumber)).events);
  } catch {
    return undefined;
  }
}

const showEventDetails: CommandFactory<DetailsCommandDeps> = (deps) => async (argument) => {
  const event = await eventFrom(deps, argument);
  if (event) deps.panels.show(event);
};

const showRawJson: CommandFactory<DetailsCommandDeps> = (deps) => async (argument) => {
  const event = await eventFrom(deps, argument);
  if (!event) return;
  // The document's name is its tab title: the type as one clean line.
  const name = `${lineText(event.type, 60)}-${String(event.time.raw)}`;
  await deps.documents.show(['event', event.serialNumber, name], JSON.stringify(event.raw, null, 2));
};

export const DETAILS_COMMANDS: CommandTable<DetailsCommandDeps> = {
  [COMMANDS.showEventDetails]: showEventDetails,
  [COMMANDS.showRawJson]: showRawJson,
};
