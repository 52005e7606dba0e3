// The clients the session hands out: the core OnboardingClient built from the
// current client settings (timestamp unit, proxy, concurrency, timeout) with
// every request logged. Refused credentials are reported by the events cache,
// the one caller of the client (workbench/registerEventsCache.ts).
import { definedOnly } from '../../core/common/definedOnly';
import type { Credentials } from '../../core/client/auth/tokenClient';
import type { RequestLogEntry } from '../../core/client/http/httpClient';
import type { VerifiedGrant } from '../../core/client/auth/tokenClient';
import { OnboardingClient, type ClientOptions } from '../../core/client/onboardingClient';
import type { ClientFactory, Endpoints } from '../../core/domain/session/sessionMachine';
import type { ClientSettings } from '../../core/domain/settings/clientSettings';

export interface ClientFactoryOptions {
  /** Read at each client's creation: a settings change rebuilds the client (SessionMachine.rebuildClient). */
  readonly settings: () => ClientSettings;
  readonly onRequest: (entry: RequestLogEntry) => void;
  /** Each access token as it arrives (for the log redactor). */
  readonly onToken?: (value: string) => void;
}

/** Clients for the active environment; throwaway ones to verify a sign-in, whose token starts the next client. */
export function onboardingClients(options: ClientFactoryOptions): ClientFactory<OnboardingClient, VerifiedGrant> {
  const clientOptions = (endpoints: Endpoints, credentials: () => Promise<Credentials>): ClientOptions => {
    const settings = options.settings();
    return {
      apiBaseUrl: endpoints.apiBaseUrl,
      authUrl: endpoints.authUrl,
      credentials,
      timestampUnit: settings.timestampUnit,
      // In the extension host requests take VS Code's network stack (core/http/networkPath.ts).
      http: { ...settings.http, engine: 'vscode' },
      onRequest: options.onRequest,
      ...definedOnly({ onToken: options.onToken }),
    };
  };
  return {
    create: (endpoints, credentials, _onRejected, verified) =>
      new OnboardingClient({ ...clientOptions(endpoints, credentials), ...definedOnly({ verifiedGrant: verified }) }),
    verify: async (endpoints, credentials, signal) => {
      const client = new OnboardingClient(clientOptions(endpoints, () => Promise.resolve(credentials)));
      try {
        return await client.verifyCredentials(signal);
      } finally {
        client.dispose();
      }
    },
  };
}
