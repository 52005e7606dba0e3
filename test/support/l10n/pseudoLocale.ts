// The pseudo-locale `qps-ploc`: every message of the English bundles with its
// letters accented, each line wrapped in ⟦ ⟧ and padded by about 30 %, its
// placeholders, code spans, link targets and setting ids untouched. Run in it,
// any English left on screen did not come through l10n, a clipped ⟧ shows
// where a longer language (German runs ~30 % longer) would be cut off, and a
// broken placeholder shows as a raw {0}.
//
// ⟦ ⟧ rather than [ ]: Markdown reads [ ] as links, and a welcome view's
// button is a line that is exactly `[label](command:…)`.

import { fixedTokens } from './invariants';

export const PSEUDO_LOCALE = 'qps-ploc';
export const OPEN = '⟦';
export const CLOSE = '⟧';
/** Padding, as a share of the letters a line has to translate. */
export const PADDING = 0.3;
const PAD = '·';

const PLAIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ACCENTS = Array.from('åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ');
const ACCENTED = new Map(Array.from(PLAIN, (letter, i) => [letter, ACCENTS[i] ?? letter]));

function accent(text: string): string {
  return text.replace(/[A-Za-z]/g, (letter) => ACCENTED.get(letter) ?? letter);
}

/** Accents everything but the fixed tokens; returns the text and how many letters it accented. */
function accentOutsideTokens(line: string): { text: string; letters: number } {
  let text = '';
  let letters = 0;
  let at = 0;
  for (const token of fixedTokens(line)) {
    const prose = line.slice(at, token.index);
    text += accent(prose) + token.text;
    letters += (prose.match(/[A-Za-z]/g) ?? []).length;
    at = token.index + token.text.length;
  }
  const rest = line.slice(at);
  letters += (rest.match(/[A-Za-z]/g) ?? []).length;
  return { text: text + accent(rest), letters };
}

function wrap(text: string, letters: number): string {
  const padding = letters === 0 ? '' : ` ${PAD.repeat(Math.max(1, Math.round(letters * PADDING)))}`;
  return `${OPEN}${text}${padding}${CLOSE}`;
}

/** A line that is only a Markdown link, as a welcome view's or walkthrough's button. */
const BUTTON = /^\[([^\]]+)\]\(([^)\s]+)\)$/;

function pseudoLine(line: string): string {
  if (line.trim() === '') return line;
  const button = BUTTON.exec(line);
  if (button !== null) {
    const label = accentOutsideTokens(button[1] ?? '');
    return `[${wrap(label.text, label.letters)}](${button[2] ?? ''})`;
  }
  const { text, letters } = accentOutsideTokens(line);
  return wrap(text, letters);
}

/** One message in the pseudo-locale. */
export function pseudoLocalize(message: string): string {
  return message.split('\n').map(pseudoLine).join('\n');
}

/** A bundle (English message or key → English text) in the pseudo-locale, same keys, same order. */
export function pseudoBundle(english: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(english).map(([key, text]) => [key, pseudoLocalize(text)]));
}
