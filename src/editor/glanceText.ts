// The words of the inline status, the Problems-panel entries and completion
// details: "✓ onboarded · 3 days ago". Pure (no vscode import), so it is
// unit-tested and timed by the bench. Server text never appears here: only
// our own state words and a time.
import type { Localize } from '../common/localize';
import { formatRelative } from '../common/time';
import { STATE_LOOKS, type MachineState } from '../domain/events/eventState';

export interface GlanceTextContext {
  readonly now: number;
  readonly locale: string;
  readonly t: Localize;
}

/** The state's word in the user's language. */
export function stateWord(state: MachineState, t: Localize): string {
  switch (state) {
    case 'onboarded':
      return t('onboarded');
    case 'failed':
      return t('failed');
    case 'inProgress':
      return t('in progress');
    case 'noEvents':
      return t('no events');
    case 'unknown':
      return t('unknown');
    case 'unavailable':
      return t('unavailable');
  }
}

/** "onboarded · 3 days ago": the state's word and, when there is a latest event, its age. */
export function stateSummary(state: MachineState, latestEpochMs: number | undefined, ctx: GlanceTextContext): string {
  const word = stateWord(state, ctx.t);
  if (latestEpochMs === undefined) return word;
  const age = formatRelative(latestEpochMs, ctx.now, ctx.locale);
  return age === undefined ? word : `${word} · ${age}`;
}

/** The inline status after a serial number: glyph, word, age. */
export function inlineStatusText(state: MachineState, latestEpochMs: number | undefined, ctx: GlanceTextContext): string {
  return `${STATE_LOOKS[state].glyph} ${stateSummary(state, latestEpochMs, ctx)}`;
}

/** The Problems-panel message for a serial number in a problem state. */
export function problemMessage(serialNumber: string, state: 'failed' | 'noEvents' | 'unknown', latestType: string | undefined, ctx: GlanceTextContext): string {
  switch (state) {
    case 'failed':
      // The type name is server text: a diagnostic message is plain text, never rendered as Markdown.
      return ctx.t('Onboarding of {0} failed: its latest event is {1}.', serialNumber, latestType ?? '?');
    case 'noEvents':
      return ctx.t('The platform has no onboarding events for {0}.', serialNumber);
    case 'unknown':
      return ctx.t('The platform does not know the serial number {0}.', serialNumber);
  }
}
