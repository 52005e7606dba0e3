// The peers our client is measured against, in the same run, on the same fake:
//   - the simple client: what a competent engineer writes in an afternoon —
//     one token, cached; plain fetch; every request at once; on a 429 it waits
//     that request's Retry-After and tries again; a GET whose kept-alive
//     connection the server closed is sent again, as a browser does;
//   - by hand: one request at a time, as with curl or REST Client (the token
//     pasted once).
// Neither is a strawman: no new token per call, no artificial delay. Over
// HTTPS each peer makes one undici Agent that trusts the fake's CA (undici's
// defaults otherwise: no limit on connections) and keeps it for the whole
// run, as such a program would for its process; a hover shares its refresh's.

/** Runs `work` with a fresh peer dispatcher (undefined over HTTP), or the one given; closes only its own. */
async function withDispatcher<T>(
  api: FakeEndpoints,
  given: Dispatcher | undefined,
  work: (dispatcher: Dispatcher | undefined) => Promise<T>,
): Promise<T> {
  if (given !== undefined) return work(given);
  const own = peerDispatcher(api);
  try {
    return await work(own);
  } finally {
    await own?.destroy();
  }
}

import type { Dispatcher } from 'undici';
import { parseRetryAfter, sleep } from '../../src/core/client/http/retryPolicy';
import { peerDispatcher, peerFetch, type FakeEndpoints } from './benchSupport';

export interface PeerRun {
  readonly ms: number;
  /** Requests sent, retries included. */
  readonly sent: number;
  /** 429 answers received. */
  readonly tooMany: number;
  /** Look-ups that ended without an answer (10,000 connections at once can be more than a loopback server accepts). */
  readonly failed?: number;
}

function eventsUrl(api: FakeEndpoints, serial: string): string {
  return `${api.baseUrl}/public/api/onboarding-events/events?serialNumber=${encodeURIComponent(serial)}`;
}

/** One look-up by plain fetch, retrying 429s after their Retry-After (1 s when absent). */
async function simpleLookup(
  api: FakeEndpoints,
  serial: string,
  token: string,
  counts: { sent: number; tooMany: number },
  dispatcher: Dispatcher | undefined,
): Promise<unknown> {
  for (let staleRetries = 0; ;) {
    counts.sent++;
    let response: Response;
    try {
      response = await peerFetch(eventsUrl(api, serial), { headers: { authorization: `Bearer ${token}` } }, dispatcher);
    } catch (error) {
      // A kept-alive connection the server closed as the request went out: a browser, and Node's
      // http agent, send such a GET again on a new one; fetch does not, and one such moment of a
      // loaded machine ended the whole bench (the simple client, capacity server, load average 19).
      if (++staleRetries <= 2 && isStaleConnection(error)) continue;
      throw error;
    }
    if (response.status !== 429) {
      if (!response.ok) throw new Error(`simple client: HTTP ${response.status} for ${serial}`);
      return response.json();
    }
    counts.tooMany++;
    await response.arrayBuffer();
    await sleep(parseRetryAfter(response.headers.get('retry-after') ?? undefined, Date.now()) ?? 1000, undefined);
  }
}

/** fetch's error for a connection the other side closed before answering (undici's UND_ERR_SOCKET, ECONNRESET). */
function isStaleConnection(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
}

/** One look-up by either peer with a token in hand: one plain request (retrying 429s). */
export function peerLookup(api: FakeEndpoints, serial: string, token: string, dispatcher?: Dispatcher): Promise<unknown> {
  return withDispatcher(api, dispatcher, (through) => simpleLookup(api, serial, token, { sent: 0, tooMany: 0 }, through));
}

/** The simple client refreshing many machines: all at once, each retrying its own 429s. */
export function simpleRefresh(api: FakeEndpoints, serials: readonly string[], token: string, dispatcher?: Dispatcher): Promise<PeerRun> {
  return withDispatcher(api, dispatcher, async (through) => {
    const counts = { sent: 0, tooMany: 0 };
    let failed = 0;
    const started = performance.now();
    // Counted, not thrown: at a plant's size its flood of connections can fail, and that is its figure.
    await Promise.all(
      serials.map((serial) =>
        simpleLookup(api, serial, token, counts, through).catch(() => {
          failed++;
        }),
      ),
    );
    return { ms: performance.now() - started, ...counts, ...(failed > 0 ? { failed } : {}) };
  });
}

/** The simple client's one look-up (a hover): one request, retrying 429s. */
export function simpleHover(api: FakeEndpoints, serial: string, token: string, dispatcher?: Dispatcher): Promise<number> {
  return withDispatcher(api, dispatcher, async (through) => {
    const started = performance.now();
    await simpleLookup(api, serial, token, { sent: 0, tooMany: 0 }, through);
    return performance.now() - started;
  });
}

/**
 * By hand: one request after another. Timed over `sample` of the serials and
 * scaled to all of them (a thousand round trips in turn would take minutes);
 * the line says so.
 */
export async function byHandRefresh(
  api: FakeEndpoints,
  serials: readonly string[],
  token: string,
  sample: number,
): Promise<PeerRun & { readonly measured: number }> {
  return withDispatcher(api, undefined, async (through) => {
    const counts = { sent: 0, tooMany: 0 };
    const subset = serials.slice(0, sample);
    const started = performance.now();
    for (const serial of subset) await simpleLookup(api, serial, token, counts, through);
    const ms = ((performance.now() - started) * serials.length) / subset.length;
    return {
      ms,
      sent: Math.round((counts.sent * serials.length) / subset.length),
      tooMany: Math.round((counts.tooMany * serials.length) / subset.length),
      measured: subset.length,
    };
  });
}

/**
 * A hover while refreshing by hand: the look-up goes after the request in
 * progress (one at a time), then takes its own round trip.
 */
export async function byHandHovers(
  api: FakeEndpoints,
  serials: readonly string[],
  hoverSerials: readonly string[],
  token: string,
  spacingMs: number,
): Promise<number[]> {
  return withDispatcher(api, undefined, (through) => byHandHoversThrough(api, serials, hoverSerials, token, spacingMs, through));
}

async function byHandHoversThrough(
  api: FakeEndpoints,
  serials: readonly string[],
  hoverSerials: readonly string[],
  token: string,
  spacingMs: number,
  dispatcher: Dispatcher | undefined,
): Promise<number[]> {
  const times: number[] = [];
  // Written by the hover side, read by the one-at-a-time loop: a queue of one.
  const state: { wanted: { serial: string; at: number } | undefined; stop: boolean } = { wanted: undefined, stop: false };
  let index = 0;
  const refresh = (async () => {
    while (!state.stop) {
      const hover = state.wanted;
      state.wanted = undefined;
      if (hover !== undefined) {
        await simpleLookup(api, hover.serial, token, { sent: 0, tooMany: 0 }, dispatcher);
        times.push(performance.now() - hover.at);
      } else {
        await simpleLookup(api, serials[index++ % serials.length] ?? '', token, { sent: 0, tooMany: 0 }, dispatcher);
      }
    }
  })();
  for (const [done, serial] of hoverSerials.entries()) {
    await sleep(spacingMs, undefined);
    state.wanted = { serial, at: performance.now() };
    while (times.length <= done) await sleep(5, undefined);
  }
  state.stop = true;
  await refresh;
  return times;
}
