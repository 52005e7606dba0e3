// The one way to turn anything thrown into text for a log line or a message:
// an Error's message, else its string form. Callers that show the text to the
// user still pass it through the inert-text helpers.
import { plainLocalize, type Localize, type LocalizedText } from './localize';

/**
 * An error whose message a view can show in the user's language. `message` is
 * the English text (logs, agent tools, anything that does not localize);
 * `errorMessage(error, t)` renders `text` with the caller's `t`.
 */
export class LocalizedError extends Error {
  constructor(readonly text: LocalizedText) {
    super(text(plainLocalize));
  }
}

/**
 * The text of anything thrown: a LocalizedError in `t`'s language (pass
 * vscode.l10n.t where the user reads it, plainLocalize for logs and agent
 * tools), any other Error's message, else its string form.
 */
export function errorMessage(error: unknown, t: Localize = plainLocalize): string {
  if (error instanceof LocalizedError) return error.text(t);
  return error instanceof Error ? error.message : String(error);
}

/** `error` as an Error, wrapping anything else that was thrown. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
