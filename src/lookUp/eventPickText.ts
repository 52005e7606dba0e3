// The texts of one event in the look-up quick pick. Pure (no vscode import).
// Quick picks render `$(icon)` in labels, descriptions and details and have no
// escape for it, so server text is defused; everything else is plain text.
import type { OnboardingEvent } from '../core/model';
import { defuseThemeIcons, toSingleLine, truncate } from '../common/markdownText';
import { formatAbsolute, formatRelative } from '../common/time';

export interface EventPickText {
  readonly label: string;
  readonly description: string;
  readonly detail: string;
  /** A codicon id that says how the step went. */
  readonly icon: 'error' | 'pass-filled' | 'circle-large-outline';
}

const DETAIL_MAX = 300;

/** `timeZone`: IANA zone for the exact time; the host's zone when absent (tests pin it). */
export function eventPickText(event: OnboardingEvent, now: number, locale: string, timeZone?: string): EventPickText {
  const type = event.type.toUpperCase();
  const icon =
    type.includes('FAIL') || type.includes('ERROR') ? 'error' : type.includes('COMPLETED') ? 'pass-filled' : 'circle-large-outline';
  const message = toSingleLine(event.message);
  return {
    label: defuseThemeIcons(truncate(toSingleLine(event.type), 80)),
    description: `${formatRelative(event.time.epochMs, now, locale) ?? ''} · ${formatAbsolute(event.time.epochMs, locale, timeZone) ?? String(event.time.raw)}`,
    detail: defuseThemeIcons(truncate(message === '' ? '—' : message, DETAIL_MAX)),
    icon,
  };
}
