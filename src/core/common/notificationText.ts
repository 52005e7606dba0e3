// Notification messages and progress titles are not plain text: VS Code turns
// `[label](https://…|command:…|file:…)` in them into links, and runs command
// links with their arguments when clicked (allowCommands). So server text in a
// notification (a link's URL, say) could plant "[Retry](command:…)" there.
// Pure: unit-tested.

/** VS Code's own pattern for links in notifications (base/common/linkedText.ts). */
export const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** Bidi controls: a right-to-left override makes "exe.txt" read as "txt.exe". */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from outside (a server, a setting, a file) as it may be shown in a
 * label, tooltip or title: control and bidi-control characters become "�",
 * so nothing reorders or hides what is shown.
 */
export function displayText(text: string): string {
  return text.replace(CONTROL, '\ufffd').replace(BIDI, '\ufffd');
}

/**
 * The text as it reads, with no link or icon VS Code would make of it: a
 * zero-width space between "]" and "(" (and between "$" and "(") breaks the
 * pattern and is invisible. Control and bidi characters are shown as "�".
 * Every notification, progress title and status-bar message built from
 * anything but a literal goes through this (a unit test checks the sources).
 */
export function inertNotificationText(text: string): string {
  return displayText(text).replace(/\]\(/g, ']\u200b(').replace(/\$\(/g, '$\u200b(');
}
