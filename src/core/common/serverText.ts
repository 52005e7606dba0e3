// Server text: what the Onboarding Events API sent (an event's type and
// message), from validation onward. At run time it is the string as received
// (stored copies, webview messages and the exported API carry it unchanged);
// to the type checker it is not a string, so `new TreeItem(event.type)`,
// `{ description: event.message }` or `showWarningMessage(event.message)` do
// not compile, and ESLint's restrict-template-expressions / restrict-plus-operands
// refuse it inside a template or a `+`. It reaches what VS Code shows only
// through the one renderer of that kind of surface below. Reading the
// characters as data (matching rules, filters, exports, agent-tool results,
// webview messages a page shows with textContent) is `serverTextData`, which
// ESLint allows only in the files listed in eslint.config.mjs. Pure: unit-tested.

import { displayText, inertNotificationText } from './notificationText';
import { defuseThemeIcons, escapeMarkdown, toSingleLine, truncate } from './markdownText';

declare const SERVER_TEXT: unique symbol;

/** Text from the server. Not assignable to `string`: show it through a renderer, read it with `serverTextData`. */
export interface ServerText {
  readonly [SERVER_TEXT]: 'server text';
}

/** Marks text as the server's: validation does this, and readers of a stored or posted copy of it. */
export function serverText(text: string): ServerText {
  return text as unknown as ServerText;
}

/** The characters as sent, for data (compare, match, export, quote to a model, post to a page): never for a VS Code surface. */
export function serverTextData(text: ServerText): string {
  return text as unknown as string;
}

/** The longest line a label, description or status bar text shows of one server string. */
export const MAX_LINE = 120;
/** The longest server string a tooltip or notification shows. */
export const MAX_BLOCK = 500;

/**
 * A label, description or detail of a tree item or quick pick, a status bar
 * text, a diagnostic, a code lens or an inline decoration: one line, at most
 * `max` code points; control, bidi and invisible characters go (an U+202E
 * override would reverse what follows), and `$(…)` stays text (quick picks
 * and the status bar draw it as an icon and have no escape for it).
 */
export function lineText(text: ServerText, max: number = MAX_LINE): string {
  return defuseThemeIcons(toSingleLine(serverTextData(text), max));
}

/** A plain-text tooltip (tree items, quick pick buttons): line breaks kept, control and bidi characters shown as "�", bounded. */
export function tooltipText(text: ServerText, max: number = MAX_BLOCK): string {
  return defuseThemeIcons(displayText(truncate(serverTextData(text), max)));
}

/** A part of a notification, progress title or status-bar message: no link or icon VS Code would make of it, bounded. */
export function notificationText(text: ServerText, max: number = MAX_BLOCK): string {
  return inertNotificationText(truncate(serverTextData(text), max));
}

/** A Markdown surface (hovers, Markdown tooltips): one line, literal (every ASCII punctuation escaped: no link, HTML or icon). */
export function markdownText(text: ServerText, max: number = MAX_LINE): string {
  return escapeMarkdown(toSingleLine(serverTextData(text), max));
}

/** The clipboard, when the user asks to copy it (Copy Message): the characters as sent, which is what they asked for. */
export function clipboardText(text: ServerText): string {
  return serverTextData(text);
}

/**
 * A terminal's line (the oe command's tables and messages): one line, at most `max` code points; control
 * characters go, ESC among them, so no escape sequence of the server's can move the cursor, retitle the
 * window or fake a line; bidi overrides and invisible characters go too.
 */
export function terminalText(text: ServerText, max: number = MAX_BLOCK): string {
  return toSingleLine(serverTextData(text), max);
}

/** Text a webview page sets as `textContent` (never HTML): control and bidi characters shown as "�". */
export function pageText(text: ServerText): string {
  return displayText(serverTextData(text));
}
