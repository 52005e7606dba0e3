// VS Code turns `[label](command:…)` in notifications into links it runs when clicked, so server text
// there could plant "[Retry](command:…)".

/** VS Code's own pattern for links in notifications (base/common/linkedText.ts). */
export const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** Bidi controls: a right-to-left override makes "exe.txt" read as "txt.exe". */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Control and bidi characters become "�", so nothing reorders or hides what is shown. */
export function displayText(text: string): string {
  return text.replace(CONTROL, '\ufffd').replace(BIDI, '\ufffd');
}

/**
 * A zero-width space between "]" and "(" (and "$" and "(") breaks every link and icon; a unit test
 * checks that every non-literal notification goes through this.
 */
export function inertNotificationText(text: string): string {
  return displayText(text).replace(/\]\(/g, ']\u200b(').replace(/\$\(/g, '$\u200b(');
}
