// The extension's exports are readable by every other extension: walk the
// whole object graph after a sign-in and a look-up, and find no credential,
// no token and no way into the session or the API client.
import * as assert from 'node:assert/strict';
import { startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../support/fakeApi';
import { activateExtension, signIn, signOutIfSignedIn } from './support/extension';

interface Walked {
  readonly strings: string[];
  readonly constructors: Set<string>;
}

/** Every string and every constructor name reachable through own properties (getters included). */
function walk(root: unknown): Walked {
  const strings: string[] = [];
  const constructors = new Set<string>();
  const seen = new Set<unknown>();
  const queue: unknown[] = [root];
  while (queue.length > 0 && seen.size < 50_000) {
    const value = queue.shift();
    if (typeof value === 'string') {
      strings.push(value);
      continue;
    }
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) continue;
    seen.add(value);
    const ctor = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name;
    if (ctor) constructors.add(ctor);
    for (const key of Object.getOwnPropertyNames(value)) {
      try {
        queue.push((value as Record<string, unknown>)[key]);
      } catch {
        // A getter that throws reveals nothing.
      }
    }
    if (value instanceof Map || value instanceof Set) for (const entry of value) queue.push(entry);
  }
  return { strings, constructors };
}

describe('Exported API', () => {
  let fake: FakeApi;

  before(async () => {
    fake = await startFakeApi();
    await activateExtension();
    await signIn(fake);
  });

  after(async () => {
    await signOutIfSignedIn();
    await fake.close();
  });

  it('reaches no secret, token, session or API client, even after a look-up', async () => {
    const api = await activateExtension();
    await api.testHooks.getEvents(TEST_SERIALS.onboarded);
    const { strings, constructors } = walk(api);
    const secrets = [TEST_CREDENTIALS.password, TEST_CREDENTIALS.clientSecret, encodeURIComponent(TEST_CREDENTIALS.clientSecret)];
    const leaks = strings.filter((s) => secrets.some((secret) => s.includes(secret)) || /Bearer\s|eyJ[A-Za-z0-9_-]{8,}\./.test(s));
    assert.deepEqual(leaks, []);
    for (const internal of ['OnboardingClient', 'SessionManager', 'SessionMachine', 'CredentialStore', 'TokenClient', 'EventsCache']) {
      assert.ok(!constructors.has(internal), `${internal} is not reachable from the exports`);
    }
  });
});
