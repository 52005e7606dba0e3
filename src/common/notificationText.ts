// Notification messages and progress titles are not plain text: VS Code turns
// `[label](https://…|command:…|file:…)` in them into links, and runs command
// links with their arguments when clicked (allowCommands). So server text in a
// notification (a link's URL, say) could plant "[Retry](command:…)" there.
// Pure: unit-tested.

/** VS Code's own pattern for links in notifications (base/common/linkedText.ts). */
export const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

/**
 * The text as it reads, with no link VS Code would make of it: a zero-width
 * space between "]" and "(" breaks the pattern and is invisible.
 */
export function inertNotificationText(text: string): string {
  return text.replace(/\]\(/g, ']\u200b(');
}
