// Anything thrown as text for a log line or a message; shown text still goes through the inert-text helpers.
import { plainLocalize, type Localize, type LocalizedText } from './localize';

/** `message` is English (logs, agent tools); `errorMessage(error, t)` renders `text` in the caller's language. */
export class LocalizedError extends Error {
  constructor(readonly text: LocalizedText) {
    super(text(plainLocalize));
  }
}

/** Pass vscode.l10n.t where the user reads it, plainLocalize for logs and agent tools. */
export function errorMessage(error: unknown, t: Localize = plainLocalize): string {
  if (error instanceof LocalizedError) return error.text(t);
  return error instanceof Error ? error.message : String(error);
}

export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
