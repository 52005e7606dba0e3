// Spec §5: the Resource Owner Password grant. Tokens are cached until shortly
// before they expire, concurrent callers share one grant, and the token value
// lives only in a private field so neither toString nor util.inspect shows it.

import {
  type ApiError,
  cancelledError,
  describeRequest,
  invalidCredentialsError,
  notFoundError,
  permissionDeniedError,
  protocolError,
  rateLimitedError,
  serverError,
  unexpectedStatusError,
} from '../errors';
import type { HttpClient, HttpResponse } from '../http/httpClient';
import { parseRetryAfter } from '../http/retryPolicy';
import { clampDelay, DELAY_CEILINGS } from '../../common/delays';
import { isRecord } from '../../common/guards';
import { parseJsonBody } from '../jsonBody';
import { SharedRequest } from '../sharedRequest';

export interface Credentials {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly username: string;
  readonly password: string;
}

export type CredentialsProvider = () => Promise<Credentials>;

/** Spec §8: the stated lifetime, assumed when a server omits expires_in. */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600;
/** Refresh this long before expiry (at most a tenth of the lifetime), so a token never expires mid-request. */
export const EXPIRY_MARGIN_MS = 30_000;

/** RFC 6750 §2.1 b64token: anything else could smuggle characters into a header. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

export interface AccessToken {
  readonly value: string;
  readonly refreshAt: number;
}

export interface TokenClientOptions {
  readonly http: HttpClient;
  readonly authUrl: string;
  readonly credentials: CredentialsProvider;
  readonly now: () => number;
  /** Called with every access token the moment it arrives, before anything else sees it (the log registers it as a secret). */
  readonly onToken?: (value: string) => void;
  /** Called with every token granted and accepted, with its refresh time: a program that keeps tokens between runs stores it. */
  readonly onGrant?: (grant: VerifiedGrant) => void;
}

/**
 * Handed to the session's new client so a sign-in makes one password grant, not two. The token sits in
 * a private field, absent from toString, JSON and inspection.
 */
export class VerifiedGrant {
  readonly #tokenUrl: string;
  readonly #token: AccessToken;

  constructor(tokenUrl: string, token: AccessToken) {
    this.#tokenUrl = tokenUrl;
    this.#token = token;
  }

  tokenFor(tokenUrl: string): AccessToken | undefined {
    return tokenUrl === this.#tokenUrl ? this.#token : undefined;
  }

  toString(): string {
    return 'VerifiedGrant';
  }

  toJSON(): string {
    return this.toString();
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}

export class TokenClient {
  readonly #options: TokenClientOptions;
  /** The grant in flight, by purpose ('grant' for getToken, 'verify' for grantFresh): concurrent callers share it. */
  readonly #grants = new Map<string, SharedRequest<AccessToken>>();
  #cached: AccessToken | undefined;

  constructor(options: TokenClientOptions) {
    this.#options = options;
  }

  get tokenUrl(): string {
    return tokenEndpoint(this.#options.authUrl);
  }

  get hasToken(): boolean {
    return this.#cached !== undefined && this.#options.now() < this.#cached.refreshAt;
  }

  async getToken(signal?: AbortSignal): Promise<string> {
    const cached = this.#cached;
    if (cached !== undefined && this.#options.now() < cached.refreshAt) return cached.value;
    const token = await this.#shared('grant', signal);
    return token.value;
  }

  /**
   * Given the rejected token, forgets only that one: of several 401s for one token, the first forgets
   * it and the rest reuse the replacement.
   */
  invalidate(rejected?: string): void {
    if (rejected === undefined || this.#cached?.value === rejected) this.#cached = undefined;
  }

  async grantFresh(signal?: AbortSignal): Promise<VerifiedGrant> {
    this.#cached = undefined;
    return new VerifiedGrant(this.tokenUrl, await this.#shared('verify', signal));
  }

  /** Only a token of this token URL that is still fresh; else the first request makes its own grant. */
  adopt(grant: VerifiedGrant): void {
    const token = grant.tokenFor(this.tokenUrl);
    if (token !== undefined && this.#cached === undefined && this.#options.now() < token.refreshAt) this.#cached = token;
  }

  toString(): string {
    return `TokenClient(${this.tokenUrl}, token: ${this.hasToken ? 'cached' : 'none'})`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }

  #shared(key: string, signal: AbortSignal | undefined): Promise<AccessToken> {
    if (signal?.aborted === true) return Promise.reject(cancelledError());
    let grant = this.#grants.get(key);
    if (grant === undefined) {
      const controller = new AbortController();
      const forget = (): void => {
        // A newer grant may already own the key after every waiter of this one cancelled.
        if (this.#grants.get(key) === started) this.#grants.delete(key);
      };
      const started = new SharedRequest(this.#grantAndCache(controller.signal), controller, forget);
      started.promise.then(forget, forget);
      this.#grants.set(key, started);
      grant = started;
    }
    return grant.join(signal);
  }

  async #grantAndCache(signal: AbortSignal): Promise<AccessToken> {
    const token = await this.#grant(signal);
    this.#cached = token;
    this.#options.onGrant?.(new VerifiedGrant(this.tokenUrl, token));
    return token;
  }

  async #grant(signal: AbortSignal): Promise<AccessToken> {
    const credentials = await this.#options.credentials();
    const requestedAt = this.#options.now();
    const response = await this.#options.http.send({
      method: 'POST',
      url: this.tokenUrl,
      headers: {
        authorization: basicClientAuthorization(credentials.clientId, credentials.clientSecret),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({
        grant_type: 'password',
        username: credentials.username,
        password: credentials.password,
        scope: 'api',
      }).toString(),
      signal,
    });
    if (response.status !== 200) throw this.#errorFor(response);
    return this.#parseToken(response, requestedAt);
  }

  #parseToken(response: HttpResponse, requestedAt: number): AccessToken {
    const request = describeRequest('POST', this.tokenUrl);
    const json = parseJsonBody(response.body, response.headers['content-type'], (t) => t('The authorization server'));
    if (!json.ok) throw protocolError(request, json.problem, response.status);
    const body = json.value;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw protocolError(request, (t) => t('The token response is not a JSON object.'));
    const { token_type: tokenType, access_token: accessToken, expires_in: expiresIn } = body as Record<string, unknown>;
    // Opaque tokens look like nothing a pattern could recognise: the log must be told, even of one we refuse below.
    if (typeof accessToken === 'string' && accessToken !== '') this.#options.onToken?.(accessToken);
    if (typeof tokenType !== 'string' || tokenType.toLowerCase() !== 'bearer') {
      throw protocolError(request, (t) =>
        t('The authorization server did not issue a Bearer token (spec §5.4 expects token_type "Bearer").'),
      );
    }
    if (typeof accessToken !== 'string' || !B64TOKEN.test(accessToken)) {
      throw protocolError(request, (t) => t('The token response has no usable access_token.'));
    }
    if (expiresIn !== undefined && (typeof expiresIn !== 'number' || !Number.isInteger(expiresIn) || expiresIn <= 0)) {
      throw protocolError(request, (t) => t('The token response has an expires_in that is not a positive number of seconds.'));
    }
    // A server's expires_in is a delay from outside: 1e308 seconds must not mean "never refresh".
    const lifetimeMs = clampDelay((expiresIn ?? DEFAULT_TOKEN_LIFETIME_SECONDS) * 1000, DELAY_CEILINGS.tokenLifetimeMs);
    const refreshAt = requestedAt + lifetimeMs - Math.min(EXPIRY_MARGIN_MS, lifetimeMs / 10);
    return { value: accessToken, refreshAt };
  }

  #errorFor(response: HttpResponse): ApiError {
    const request = describeRequest('POST', this.tokenUrl);
    const json = parseJsonBody(response.body, response.headers['content-type'], (t) => t('The authorization server'));
    const code = json.ok && isRecord(json.value) ? json.value['error'] : undefined;
    const { status } = response;
    if (code === 'access_denied' || code === 'unauthorized_client' || code === 'invalid_scope' || status === 403)
      return permissionDeniedError(request, status);
    if (code === 'invalid_grant' || code === 'invalid_client' || status === 401) return invalidCredentialsError(request, status);
    if (status === 404) return notFoundError(request, (t) => t('The token endpoint'), 'token');
    if (status === 429) return rateLimitedError(request, status, parseRetryAfter(response.headers['retry-after'], this.#options.now()));
    if (status >= 500) return serverError(request, status);
    if (status === 400)
      return protocolError(request, (t) => t('The authorization server refused the token request as malformed (HTTP 400).'), status);
    return unexpectedStatusError(request, status);
  }
}

/** Spec §5.3: `POST {auth_url}/token`; the one place that joins them (the curl commands of domain/links/curlCommands.ts too). */
export function tokenEndpoint(authUrl: string): string {
  return `${authUrl.replace(/\/+$/, '')}/token`;
}

// RFC 6749 §2.3.1: id and secret are each form-urlencoded before joining with ":", or secrets with
// ":", "%", "+" or non-ASCII break.

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
