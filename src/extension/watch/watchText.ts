// A watch's words, in one place so the newest event's type always goes through the line renderer
// ("STEP ‮DELIAF‬" reads as sent, not reversed).

import type { Localize } from '../../core/common/localize';
import { lineText } from '../../core/common/serverText';
import { formatRelative } from '../../core/common/time';
import { stateWord } from '../../core/domain/events/eventState';
import { progressWords, type ProgressAnswer } from '../../core/domain/progress/machineProgress';
import type { WatchInfo } from './watchList';

export interface WatchTextContext {
  readonly t: Localize;
  readonly locale: string;
  readonly now: number;
}

export function age(at: number, { locale, now }: WatchTextContext): string {
  return formatRelative(at, now, locale, 'short') ?? String(at);
}

/** "DEVICE_REGISTERED · 2 min ago", or what the watch waits for. */
export function stepText(watch: WatchInfo, ctx: WatchTextContext): string {
  return watch.step === undefined ? ctx.t('waiting for the first event') : `${lineText(watch.step.type)} · ${age(watch.step.at, ctx)}`;
}

export function statusText(watch: WatchInfo, { t }: WatchTextContext): string {
  switch (watch.status) {
    case 'watching':
      return t('watching');
    case 'paused':
      return t('paused');
    case 'onboarded':
    case 'failed':
      return stateWord(watch.status, t);
  }
}

export function watchDescription(watch: WatchInfo, ctx: WatchTextContext): string {
  return watch.outcome === undefined
    ? `${statusText(watch, ctx)} · ${stepText(watch, ctx)}`
    : `${statusText(watch, ctx)} · ${lineText(watch.outcome.type)} · ${age(watch.outcome.at, ctx)}`;
}

/** The description of a watched machine's row in the Machines view, while it is watched (an ended watch adds none). */
export function rowDescription(watch: WatchInfo, ctx: WatchTextContext): string | undefined {
  return watch.outcome === undefined ? watchDescription(watch, ctx) : undefined;
}

/**
 * "step 2 of 4 · FIRMWARE_CHECKED · usually 10 min more · …", or the stall; nothing when not in progress
 * or the history cannot say.
 */
export function progressDetail(progress: ProgressAnswer, { t }: WatchTextContext): string | undefined {
  if (progress?.kind !== 'progress') return undefined;
  const words = progressWords(progress, t, lineText);
  return [words.step, words.abandoned ?? words.stalled ?? words.toGo, words.restsOn].filter((part) => part !== undefined).join(' · ');
}
