// Issued access tokens and their expiry. Tokens look like JWTs (spec §5.6)
// but are only ever checked by lookup here, so the signature is random bytes.

import { randomBytes } from 'node:crypto';

interface IssuedToken {
  username: string;
  expiresAt: number;
}

export type TokenCheck = { ok: true; username: string } | { ok: false; reason: string };

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

export class TokenStore {
  private readonly tokens = new Map<string, IssuedToken>();

  issue(username: string, lifetimeSeconds: number, scope: string): string {
    const now = Date.now();
    const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: 'fake-api' }));
    const payload = base64url(
      JSON.stringify({
        sub: username,
        scope,
        iat: Math.floor(now / 1000),
        exp: Math.floor(now / 1000 + lifetimeSeconds),
        // Random so two tokens issued in the same second still differ and
        // a client cannot guess one.
        jti: randomBytes(16).toString('hex'),
      }),
    );
    const token = `${header}.${payload}.${base64url(randomBytes(32))}`;
    this.tokens.set(token, { username, expiresAt: now + lifetimeSeconds * 1000 });
    return token;
  }

  check(token: string): TokenCheck {
    const issued = this.tokens.get(token);
    if (issued === undefined) {
      return { ok: false, reason: 'The access token is unknown or was revoked.' };
    }
    if (Date.now() >= issued.expiresAt) {
      return { ok: false, reason: 'The access token expired.' };
    }
    return { ok: true, username: issued.username };
  }

  revokeAll(): void {
    this.tokens.clear();
  }

  revokeUser(username: string): void {
    for (const [token, issued] of this.tokens) {
      if (issued.username === username) {
        this.tokens.delete(token);
      }
    }
  }
}
