// The one way to turn anything thrown into text for a log line or a message:
// an Error's message, else its string form. Callers that show the text to the
// user still pass it through the inert-text helpers.

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `error` as an Error, wrapping anything else that was thrown. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
