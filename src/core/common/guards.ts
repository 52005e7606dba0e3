// Type guards for untrusted values (server JSON, command arguments, settings
// edited by hand). One copy each, so every edge validates the same way.

/** A plain object (not null, not an array): a JSON object as parsed. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The strings of `value` when it is an array; anything else reads as empty. */
export function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
