// Sends API requests with the bearer token (spec §5.6) and owns the rule for a
// 401: forget that token, obtain exactly one new one, retry exactly once. A
// second 401 means the API will not accept our tokens, and retrying more would
// only hammer the authorization server.

import { definedOnly } from '../../common/definedOnly';
import { describeRequest, rejectedFreshTokenError } from '../errors';
import type { Priority } from '../http/concurrencyLimiter';
import type { HttpClient, HttpRequest, HttpResponse } from '../http/httpClient';
import type { TokenClient } from './tokenClient';

export class AuthorizedRequests {
  constructor(
    private readonly http: HttpClient,
    private readonly tokens: TokenClient,
  ) {}

  async get(url: string, signal: AbortSignal | undefined, accept = 'application/json', priority?: Priority): Promise<HttpResponse> {
    const request = (token: string): HttpRequest => ({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${token}`, accept },
      ...definedOnly({ priority, signal }),
    });
    const token = await this.tokens.getToken(signal);
    const first = await this.http.send(request(token));
    if (first.status !== 401) return first;
    this.tokens.invalidate(token);
    const fresh = await this.tokens.getToken(signal);
    const second = await this.http.send(request(fresh));
    if (second.status === 401) throw rejectedFreshTokenError(describeRequest('GET', url));
    return second;
  }
}
