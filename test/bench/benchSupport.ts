// Helpers the benchmarks share: timing, medians, and the bare requests (plain
// fetch, no client of ours) that our code is measured against.
import { Agent, type Dispatcher } from 'undici';
import { TEST_CREDENTIALS } from '../support/fakeApi';
import { testPki } from '../support/network/testPki';

/** The test CA an HTTPS fake's certificate chains to: what every client of the bench must trust. */
export interface BenchTrust {
  /** PEM file of the CA: our client reads it as `caCertificatesFile`, as a user's would. */
  readonly caFile: string;
  /** The same CA in memory: the peers' undici Agent trusts it through `connect.ca`. */
  readonly caPem: string;
}

/** Where a fake API listens: the in-process fake or the worker-thread one; `trust` only when it serves HTTPS. */
export interface FakeEndpoints {
  readonly baseUrl: string;
  readonly authUrl: string;
  readonly trust?: BenchTrust | undefined;
}

/**
 * The fake's key and certificate, and the CA the clients trust: made with openssl on first use in
 * a temporary folder that is removed when the process exits (testPki). EC P-256, as a modern API uses.
 */
export function benchTls(): { readonly tls: { key: string; cert: string }; readonly trust: BenchTrust } {
  const pki = testPki();
  return { tls: { key: pki.server.key, cert: pki.server.cert }, trust: { caFile: pki.caFile, caPem: pki.caPem } };
}

/**
 * What a peer creates once in its process to reach an HTTPS fake: an undici Agent whose
 * connections trust the test CA, with undici's defaults otherwise (no limit on connections).
 * Undefined over plain HTTP: the global fetch's own dispatcher, as before.
 */
export function peerDispatcher(api: FakeEndpoints): Agent | undefined {
  return api.trust === undefined ? undefined : new Agent({ connect: { ca: api.trust.caPem } });
}

/** Plain global fetch, through `dispatcher` when one is given. */
export function peerFetch(url: string, init: RequestInit, dispatcher: Dispatcher | undefined): Promise<Response> {
  // Node's fetch takes an undici dispatcher; its RequestInit type names the one of its bundled copy.
  return fetch(url, dispatcher === undefined ? init : ({ ...init, dispatcher } as RequestInit));
}

/** The bare requests' (floors', round trips') own connections to each HTTPS fake: kept warm, as the floors assume. */
const bareDispatchers = new WeakMap<FakeEndpoints, Agent | undefined>();

function bareDispatcher(api: FakeEndpoints): Agent | undefined {
  if (!bareDispatchers.has(api)) bareDispatchers.set(api, peerDispatcher(api));
  return bareDispatchers.get(api);
}

/** Closes the bare requests' connections to `api` (before the fake closes). */
export async function closeBareDispatcher(api: FakeEndpoints): Promise<void> {
  const dispatcher = bareDispatchers.get(api);
  bareDispatchers.delete(api);
  await dispatcher?.destroy();
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
  const tokenResponse = await peerFetch(
    `${api.authUrl}/token`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
      body: new URLSearchParams({
        grant_type: 'password',
        username: TEST_CREDENTIALS.username,
        password: TEST_CREDENTIALS.password,
        scope: 'api',
      }),
    },
    bareDispatcher(api),
  );
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  return token;
}

/** One events request by plain fetch with a token in hand. */
export async function bareEvents(api: FakeEndpoints, serial: string, token: string): Promise<unknown> {
  const response = await peerFetch(
    `${api.baseUrl}/public/api/onboarding-events/events?serialNumber=${encodeURIComponent(serial)}`,
    { headers: { authorization: `Bearer ${token}` } },
    bareDispatcher(api),
  );
  return response.json();
}

/**
 * The round trip at a concurrency: `concurrency` bare requests sent at once
 * (plain fetch, token in hand), timed as one round; the median of `rounds`
 * after one untimed round that opens the connections (over HTTPS: their
 * handshakes are not in the floor). A floor of
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
