// What the API sent, from validation on: a string at run time, not one to the type checker, so no VS Code
// surface takes it raw; ESLint refuses it in a template or `+`. Only a renderer below shows it;
// `serverTextData` reads it as data, in the files eslint.config.mjs lists.

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

export const MAX_LINE = 120;
export const MAX_BLOCK = 500;

/**
 * One line; control, bidi and invisible characters go (U+202E would reverse what follows), and `$(…)`
 * stays text: quick picks and the status bar have no escape for it.
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

/** Control characters (ESC among them) go, so no escape sequence can move the cursor or fake a line. */
export function terminalText(text: ServerText, max: number = MAX_BLOCK): string {
  return toSingleLine(serverTextData(text), max);
}

/** Text a webview page sets as `textContent` (never HTML): control and bidi characters shown as "�". */
export function pageText(text: ServerText): string {
  return displayText(serverTextData(text));
}
