// Pure modules (no vscode import) still produce user-facing text: they take a
// `t` of vscode.l10n.t's shape from the glue, which passes vscode.l10n.t
// itself. Calls stay `t('literal {0}', arg)` so the strings can be extracted
// into l10n/bundle.l10n.json.

/** vscode.l10n.t's shape. */
export type Localize = (message: string, ...args: (string | number | boolean)[]) => string;

/** Substitutes `{0}`, `{1}`… like vscode.l10n.t does without a translation: for tests, the bench and logs. */
export const plainLocalize: Localize = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (whole, index: string) => String(args[Number(index)] ?? whole));

/**
 * A message whose language is chosen by whoever shows it. An error is built deep
 * in the core, long before anyone knows whether it ends in a notification (the
 * user's language: `text(vscode.l10n.t)`), in the log or in an agent tool's
 * result (English on purpose: `text(plainLocalize)`). Written as
 * `(t) => t('literal {0}', arg)` so the literal is extracted like any other.
 */
export type LocalizedText = (t: Localize) => string;
