// Helpers the benchmarks share: timing, medians, and the bare requests (plain
// fetch, no client of ours) that our code is measured against.
import { TEST_CREDENTIALS } from '../support/fakeApi';

/** Where a fake API listens: the in-process fake or the worker-thread one. */
export interface FakeEndpoints {
  readonly baseUrl: string;
  readonly authUrl: string;
}

export async function timed(work: () => unknown): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

export function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

/** A token by the password grant, the way a naive client gets one for each call. */
export async function bareToken(api: FakeEndpoints): Promise<string> {
  const basic = Buffer.from(
    `${encodeURIComponent(TEST_CREDENTIALS.clientId)}:${encodeURIComponent(TEST_CREDENTIALS.clientSecret)}`,
  ).toString('base64');
  const tokenResponse = await fetch(`${api.authUrl}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    body: new URLSearchParams({
      grant_type: 'password',
      username: TEST_CREDENTIALS.username,
      password: TEST_CREDENTIALS.password,
      scope: 'api',
    }),
  });
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  return token;
}

/** One events request by plain fetch with a token in hand. */
export async function bareEvents(api: FakeEndpoints, serial: string, token: string): Promise<unknown> {
  const response = await fetch(`${api.baseUrl}/public/api/onboarding-events/events?serialNumber=${encodeURIComponent(serial)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return response.json();
}

/**
 * The round trip at a concurrency: `concurrency` bare requests sent at once
 * (plain fetch, token in hand), timed as one round; the median of `rounds`
 * after one untimed round that opens the connections. A floor of
 * ceil(n / c) round trips must use this, not a lone request's round trip: on
 * two loaded cores, an answer among 64 in flight costs more than one alone
 * (the server's and the client's work per answer add up), and a floor that
 * ignores it fails a run that the machine, not the code, slowed down.
 */
export async function roundTripAt(
  api: FakeEndpoints,
  token: string,
  concurrency: number,
  serialOf: (index: number) => string,
  rounds = 3,
): Promise<number> {
  const round = (): Promise<unknown> =>
    Promise.all(Array.from({ length: concurrency }, (_, index) => bareEvents(api, serialOf(index), token)));
  await round();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) samples.push(await timed(round));
  return median(samples);
}

export const ms = (value: number): string => `${Math.round(value).toLocaleString('en')} ms`;
export const times = (value: number): string => `${value.toFixed(2)}×`;

/** Empty when no peer was faster in wall time; otherwise a clause saying which, by how much and why. */
export function slowerClause(ours: number, peers: readonly { name: string; ms: number }[], why: string): string {
  const faster = peers.filter((peer) => peer.ms < ours);
  if (faster.length === 0) return '';
  return ` — SLOWER than ${faster.map((peer) => `${peer.name} by ${ms(ours - peer.ms)} (${times(ours / peer.ms)})`).join(', ')}: ${why}`;
}
