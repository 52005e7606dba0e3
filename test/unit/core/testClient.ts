// Shared set-up for the core tests: a fake service on 127.0.0.1 and a client
// pointed at it with short retry delays, no proxy from the environment, and a
// log of every request the client reported.

import type { Credentials } from '../../../src/core/client/auth/tokenClient';
import type { RequestLogEntry } from '../../../src/core/client/http/httpClient';
import { OnboardingClient, type ClientOptions, type HttpSettings } from '../../../src/core/client/onboardingClient';
import { startFakeApi, TEST_CREDENTIALS, type FakeApi, type FakeApiOptions } from '../../support/fakeApi';

export interface TestContext {
  readonly api: FakeApi;
  readonly client: OnboardingClient;
  readonly log: RequestLogEntry[];
}

export const CREDENTIALS: Credentials = { ...TEST_CREDENTIALS };

/** Every secret the tests hand to the client; none may ever appear in an error, log entry or string form. */
export const SECRETS: readonly string[] = [TEST_CREDENTIALS.password, TEST_CREDENTIALS.clientSecret];

export const FAST_HTTP: HttpSettings = { retryBaseDelayMs: 5, env: {} };

export function makeClient(api: FakeApi, options: Partial<ClientOptions> = {}, log: RequestLogEntry[] = []): OnboardingClient {
  return new OnboardingClient({
    apiBaseUrl: api.baseUrl,
    authUrl: api.authUrl,
    credentials: () => Promise.resolve(CREDENTIALS),
    onRequest: (entry) => log.push(entry),
    ...options,
    http: { ...FAST_HTTP, ...options.http },
  });
}

/** Registers mocha hooks that start a fresh fake and client for each test. */
export function useFakeApi(fakeOptions: FakeApiOptions = {}, clientOptions: Partial<ClientOptions> = {}): () => TestContext {
  let context: TestContext | undefined;
  beforeEach(async () => {
    const api = await startFakeApi(fakeOptions);
    const log: RequestLogEntry[] = [];
    context = { api, client: makeClient(api, clientOptions, log), log };
  });
  afterEach(async () => {
    context?.client.dispose();
    await context?.api.close();
    context = undefined;
  });
  return () => {
    if (context === undefined) throw new Error('useFakeApi: no test is running');
    return context;
  };
}

/** Resolves with the rejection reason; fails when the promise resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
