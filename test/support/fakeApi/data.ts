// The small default data set used by unit and integration tests, and the
// helper that builds spec-shaped events (spec §2.2).

import type { FakeApiData } from './types';

/**
 * Stands for `http://127.0.0.1:PORT` in hrefs. Data sets are built before the
 * server has a port, so the fake replaces this prefix in every JSON string it
 * sends (see `resolveBaseUrl`).
 */
export const BASE_URL_PLACEHOLDER = 'http://fake-api.base.invalid';

/**
 * Working credentials of the default data. Clearly fake; the client secret and
 * the password contain characters that must be form-url-encoded (RFC 6749
 * §2.3.1), so a client that skips the encoding fails.
 */
export const TEST_CREDENTIALS = {
  clientId: 'test-client:1',
  clientSecret: 's3cr:t/ü+ &=%',
  username: 'test.user+api@example.invalid',
  password: 'p@ss w:rd/ü+',
} as const;

/** A user of the default data whose token request is refused with access_denied. */
export const TEST_NO_PERMISSION_USER = {
  username: 'no.permission@example.invalid',
  password: 'no-permission-password',
} as const;

/** Serial numbers in the default data. */
export const TEST_SERIALS = {
  /** Three events, including a machine-created one with an assetId and a machine link. */
  onboarded: 'MX-4711-A0023',
  /** A single ONBOARDING_STARTED event. */
  started: 'KRP-0815-B0001',
  /** Known, but with no events. */
  empty: 'TBL-1000-C0000',
} as const;

export const TEST_ASSET_ID = '3f2b8c1e-7a4d-4e4b-9a6f-1c2d3e4f5a6b';

export interface MakeEventInput {
  type: string;
  message: string;
  timestamp: number;
  assetId?: string;
  /** Defaults to the machine resource of `assetId` on this fake, when assetId is set. */
  machineHref?: string;
  /** Merged last, so it can add unknown fields or overwrite spec fields with wrong types. */
  extra?: Record<string, unknown>;
}

/** A raw event object as the server sends it; `_links.machine` is a HAL link. */
export function makeEvent(input: MakeEventInput): Record<string, unknown> {
  const event: Record<string, unknown> = {
    type: input.type,
    message: input.message,
    timestamp: input.timestamp,
  };
  if (input.assetId !== undefined) {
    event['assetId'] = input.assetId;
  }
  const href =
    input.machineHref ?? (input.assetId !== undefined ? `${BASE_URL_PLACEHOLDER}/public/api/machines/${input.assetId}` : undefined);
  if (href !== undefined) {
    event['_links'] = {
      machine: { href, type: 'application/hal+json', title: 'Machine', name: input.assetId ?? 'machine' },
    };
  }
  return { ...event, ...(input.extra ?? {}) };
}

/** Fixed instant so recorded timestamps do not depend on when a test runs. */
const T0 = Date.UTC(2025, 0, 15, 8, 0, 0);

export function defaultData(): FakeApiData {
  return {
    users: [
      { username: TEST_CREDENTIALS.username, password: TEST_CREDENTIALS.password },
      { ...TEST_NO_PERMISSION_USER, noPermission: true },
    ],
    clients: [{ clientId: TEST_CREDENTIALS.clientId, clientSecret: TEST_CREDENTIALS.clientSecret }],
    machines: {
      [TEST_SERIALS.onboarded]: [
        makeEvent({ type: 'ONBOARDING_STARTED', message: 'Onboarding started', timestamp: T0 }),
        makeEvent({
          type: 'MACHINE_CREATED',
          message: 'Machine asset created',
          timestamp: T0 + 60_000,
          assetId: TEST_ASSET_ID,
        }),
        makeEvent({ type: 'ONBOARDING_COMPLETED', message: 'Onboarding completed', timestamp: T0 + 120_000 }),
      ],
      [TEST_SERIALS.started]: [makeEvent({ type: 'ONBOARDING_STARTED', message: 'Onboarding started', timestamp: T0 + 3_600_000 })],
      [TEST_SERIALS.empty]: [],
    },
  };
}
