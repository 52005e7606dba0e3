// How deep a hover's request runs: the function frames from the events cache
// to the transport for a first-page GET on a cache miss. Two stacks are read:
// the client's caller, synchronously (the cache calls it directly), and the
// transport's, with V8's async frames ("at async X") for every awaiting
// caller below the cache (the cache itself joins the request with .then, so
// the async stack ends at the client). The hover adds two frames above the
// cache (SerialHoverProvider.provideHover and its fetch), which this tier
// cannot run: they import vscode. So the hover's path is this count + 2, then
// Transport.request.

import * as assert from 'node:assert/strict';
import { OnboardingClient } from '../../../src/core/client/onboardingClient';
import type { Transport, TransportResponse } from '../../../src/core/client/http/transport';
import { EventsCache } from '../../../src/core/eventsCache/eventsCache';

function stackHere(): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;
  const stack = new Error('recorded').stack ?? '';
  Error.stackTraceLimit = limit;
  return stack;
}

const json = (body: unknown): TransportResponse => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: new TextEncoder().encode(JSON.stringify(body)),
});

/** The frames of `stack` below the recording one, that are ours (src/), by function name. */
function ourFrames(stack: string): string[] {
  return stack
    .split('\n')
    .slice(2)
    .filter((line) => /[/\\]src[/\\]/.test(line))
    .map((line) =>
      line
        .trim()
        .replace(/^at (async )?/, '')
        .replace(/ \(.*$/, ''),
    );
}

describe('The request path from the cache to the transport', () => {
  it('a first-page GET on a cache miss runs through at most 7 of our frames, the cache first', async () => {
    let seen: string | undefined;
    let asked: string | undefined;
    const transport: Transport = {
      request(request) {
        if (request.method === 'POST') return Promise.resolve(json({ access_token: 'token', token_type: 'Bearer', expires_in: 3600 }));
        seen = stackHere();
        return Promise.resolve(json({ events: [] }));
      },
      close: () => Promise.resolve(),
    };
    const client = new OnboardingClient({
      apiBaseUrl: 'https://api.example.test',
      authUrl: 'https://auth.example.test',
      credentials: () => Promise.resolve({ clientId: 'c', clientSecret: 's', username: 'u', password: 'p' }),
      transport,
      http: { env: {} },
    });
    try {
      const source = {
        getEvents: (...args: Parameters<OnboardingClient['getEvents']>) => {
          asked = stackHere();
          return client.getEvents(...args);
        },
      };
      const cache = new EventsCache({ source: () => source, freshForMs: () => 60_000 });
      await cache.get('MX-4711-A0023');
      assert.ok(seen !== undefined && asked !== undefined, 'the transport was asked for the events');
      // Outermost first: the cache, the client, ..., the frame that calls Transport.request.
      const frames = [...ourFrames(asked).reverse(), ...ourFrames(seen).reverse()];
      assert.equal(frames[0], 'EventsCache.get', frames.join(' > '));
      assert.ok(frames.length <= 7, frames.join(' > '));
    } finally {
      client.dispose();
    }
  });
});
