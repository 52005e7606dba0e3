// Turning untrusted server strings into inert Markdown text. Pure (no vscode
// import) so the escaping is unit-tested against hostile input.

// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g;
const WHITESPACE_RUN = /\s+/g;
/**
 * Any escaped ASCII punctuation is literal in CommonMark: escaping all of it defuses HTML, entities,
 * autolinks, table pipes, code spans and `$(icon)`.
 */
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/** Cut first, then clean: a 10 MB string costs what a short one does, and text mostly invisible still fills its line. */
const CLEANED_PER_SHOWN = 4;

/** The start of `text` that cleaning it into at most `max` code points looks at; never ends inside a surrogate pair. */
export function cleaningWindow(text: string, max: number): string {
  const size = max * CLEANED_PER_SHOWN + 16;
  if (text.length <= size) return text;
  const last = text.charCodeAt(size - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? size - 1 : size);
}

/** One line of plain text, at most `max` code points: line breaks and tabs become spaces, invisible and control characters go. */
export function toSingleLine(text: string, max: number): string {
  const window = cleaningWindow(text, max);
  return truncate(window.replace(CONTROL_CHARACTERS, '').replace(WHITESPACE_RUN, ' ').trim(), max, window.length < text.length);
}

function afterCodePoints(text: string, count: number): number {
  let index = 0;
  for (let points = 0; points < count && index < text.length; points++) {
    const code = text.charCodeAt(index);
    const pair = code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00;
    index += pair ? 2 : 1;
  }
  return index;
}

/** Ends in "…" when cut (or `cut` says it is the start of a longer text); never splits a surrogate pair. */
export function truncate(text: string, max: number, cut = false): string {
  if (!cut && afterCodePoints(text, max) === text.length) return text;
  return `${text.slice(0, afterCodePoints(text, Math.max(0, max - 1))).trimEnd()}…`;
}

const CUT_MARK = /… \[cut: \d{1,16} characters in all\]$/;
const CUT_MARK_MAX = cutMark(Number.MAX_SAFE_INTEGER).length;

/** Server text kept at the edge: at most `max` code units, and a mark saying how long the whole was. */
export function boundText(text: string, max: number): string {
  if (text.length <= max) return text;
  // Already bounded (a stored copy read back): cutting again would lose the whole length the mark gives.
  const mark = CUT_MARK.exec(text.slice(-CUT_MARK_MAX));
  if (mark !== null && text.length - mark[0].length <= max) return text;
  const last = text.charCodeAt(max - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
  return `${text.slice(0, end)}${cutMark(text.length)}`;
}

export function cutMark(length: number): string {
  return `… [cut: ${length} characters in all]`;
}

export function escapeMarkdown(text: string): string {
  return text.replace(ASCII_PUNCTUATION, '\\$&');
}

/** Server text for one table cell: one line, truncated, escaped. Empty cells get a dash so the table keeps its shape. */
export function markdownCell(text: string, max: number): string {
  const line = toSingleLine(text, max);
  return line === '' ? '—' : escapeMarkdown(line);
}

export function commandUri(command: string, args: readonly unknown[]): string {
  return `command:${command}?${encodeURIComponent(JSON.stringify(args))}`;
}

/** Quick picks have no escape for `$(icon)`. */
export function defuseThemeIcons(text: string): string {
  return text.replace(/\$\(/g, '$\u200a(');
}
