// RFC 6749 §2.3.1: the client id and secret are each encoded with the
// application/x-www-form-urlencoded algorithm *before* being joined with ":"
// and base64-encoded. Skipping that step breaks secrets containing ":", "%",
// "+" or non-ASCII characters.

/** The WHATWG form-urlencoded serialiser: only ALPHA / DIGIT / "*-._" stay, space becomes "+". */
export function formUrlEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()~]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

export function basicClientAuthorization(clientId: string, clientSecret: string): string {
  const pair = `${formUrlEncode(clientId)}:${formUrlEncode(clientSecret)}`;
  return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
}
