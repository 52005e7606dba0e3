// What a sign-in is, without secrets, and the states a session can be in.
// Pure types shared by the sign-in rules, the session and every view.

/** One sign-in: an API plus the non-secret parts of its credentials. */
export interface Environment {
  /** Stable id, used as the AuthenticationSession id and the SecretStorage key prefix. */
  readonly id: string;
  /** Shown to the user, e.g. "Production", "Test system", "Demo". */
  readonly name: string;
  readonly apiBaseUrl: string;
  readonly authUrl: string;
  readonly clientId: string;
  readonly username: string;
}

export type SessionState =
  | { readonly kind: 'signed-out' }
  | { readonly kind: 'signed-in'; readonly environment: Environment }
  /** Stored credentials stopped working (password changed, user removed): views show signed-out, the user was told once. */
  | { readonly kind: 'credentials-rejected'; readonly environment: Environment };
