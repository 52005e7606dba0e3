// Small typed events for the details unit tests, validated by the core exactly as API data is.
import type { OnboardingEvent } from '../../../src/core/client/model';
import { validateEvent } from '../../../src/core/client/validateEvents';

export const SERIAL = 'MX-4711-A0023';
export const ASSET_ID = '3f2b8c1e-7a4d-4e4b-9a6f-1c2d3e4f5a6b';
export const API_BASE = 'https://api.example.test';
/** 2025-01-15T08:01:00Z in milliseconds. */
export const T_MS = Date.UTC(2025, 0, 15, 8, 1, 0);

export function event(raw: Record<string, unknown>, serialNumber = SERIAL): OnboardingEvent {
  const result = validateEvent(raw, serialNumber);
  if (typeof result === 'string') throw new Error(`fixture is invalid: ${result}`);
  return result;
}

/** A machine-created event with a plain, a templated and a deprecated link. */
export function machineCreated(): OnboardingEvent {
  return event({
    type: 'MACHINE_CREATED',
    message: 'Machine asset created',
    timestamp: T_MS,
    assetId: ASSET_ID,
    _links: {
      machine: { href: `${API_BASE}/public/api/machines/${ASSET_ID}`, type: 'application/hal+json', title: 'Machine', name: ASSET_ID },
      search: { href: '/public/api/machines{?serialNumber,page,size}', templated: true, title: 'Find machines' },
      legacy: {
        href: 'https://legacy.example.test/m/1',
        deprecation: 'https://api.example.test/docs/deprecations#legacy',
        hreflang: 'en',
        seen: 'x',
        profile: 'https://p.example.test/p',
      },
    },
    plant: 'Augsburg',
  });
}
