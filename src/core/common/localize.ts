// Pure modules take a `t` of vscode.l10n.t's shape; calls stay `t('literal {0}', arg)` so the strings
// are extracted into l10n/bundle.l10n.json.

/** vscode.l10n.t's shape. */
export type Localize = (message: string, ...args: (string | number | boolean)[]) => string;

/** Substitutes `{0}`, `{1}`… like vscode.l10n.t does without a translation: for tests, the bench and logs. */
export const plainLocalize: Localize = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (whole, index: string) => String(args[Number(index)] ?? whole));

/**
 * An error is built deep in the core before anyone knows whether it ends in a notification (the user's
 * language) or a log or tool result (English): whoever shows it chooses.
 */
export type LocalizedText = (t: Localize) => string;
