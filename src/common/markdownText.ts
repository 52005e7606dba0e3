// Turning untrusted server strings into inert Markdown text. Pure (no vscode
// import) so the escaping is unit-tested against hostile input.

// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g;
const WHITESPACE_RUN = /\s+/g;
/**
 * CommonMark lets any ASCII punctuation be backslash-escaped, and an escaped
 * character is always literal. Escaping all of it (not only the obvious
 * `*_[]`) also defuses HTML (`<`), entities (`&`), autolinks (`https\:`),
 * table pipes, code spans, and VS Code's `$(icon)` syntax.
 */
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/** One line of plain text: line breaks and tabs become spaces, invisible and control characters go. */
export function toSingleLine(text: string): string {
  return text.replace(CONTROL_CHARACTERS, '').replace(WHITESPACE_RUN, ' ').trim();
}

/** Shortens to at most `max` code points, ending in "…" when cut; never splits a surrogate pair. */
export function truncate(text: string, max: number): string {
  const points = Array.from(text);
  if (points.length <= max) return text;
  return `${points
    .slice(0, Math.max(0, max - 1))
    .join('')
    .trimEnd()}…`;
}

/** Literal Markdown text, safe in a paragraph and in a table cell. */
export function escapeMarkdown(text: string): string {
  return text.replace(ASCII_PUNCTUATION, '\\$&');
}

/** Server text for one table cell: one line, truncated, escaped. Empty cells get a dash so the table keeps its shape. */
export function markdownCell(text: string, max: number): string {
  const line = truncate(toSingleLine(text), max);
  return line === '' ? '—' : escapeMarkdown(line);
}

/** A `command:` URI with JSON arguments, as VS Code expects in Markdown and DocumentLinks. */
export function commandUri(command: string, args: readonly unknown[]): string {
  return `command:${command}?${encodeURIComponent(JSON.stringify(args))}`;
}

/**
 * Keeps VS Code's `$(icon)` syntax in quick-pick labels and details from
 * turning server text into icons (quick picks have no escape for it).
 */
export function defuseThemeIcons(text: string): string {
  return text.replace(/\$\(/g, '$\u200a(');
}
