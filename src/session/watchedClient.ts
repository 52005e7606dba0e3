// The clients the session hands out: the core OnboardingClient, watched for
// credentials the server refused, and built from the current client settings
// (timestamp unit, proxy, concurrency, timeout) with every request logged.
import { isApiError } from '../core/errors';
import { OnboardingClient, type ClientOptions, type Credentials, type RequestLogEntry } from '../core/onboardingClient';
import type { ClientFactory, Endpoints } from '../domain/session/sessionMachine';
import type { ClientSettings } from '../domain/settings/clientSettings';

/**
 * The core client, watched: an ApiError of kind 'invalid-credentials' from
 * any call means the stored secrets stopped working (the core already tried
 * one fresh grant), so the session flips to 'credentials-rejected'.
 */
export class WatchedClient extends OnboardingClient {
  constructor(
    options: ClientOptions,
    private readonly onRejected: () => void,
  ) {
    super(options);
  }

  override getEvents(...args: Parameters<OnboardingClient['getEvents']>): ReturnType<OnboardingClient['getEvents']> {
    return this.watch(super.getEvents(...args));
  }

  override fetchLink(...args: Parameters<OnboardingClient['fetchLink']>): ReturnType<OnboardingClient['fetchLink']> {
    return this.watch(super.fetchLink(...args));
  }

  override verifyCredentials(
    ...args: Parameters<OnboardingClient['verifyCredentials']>
  ): ReturnType<OnboardingClient['verifyCredentials']> {
    return this.watch(super.verifyCredentials(...args));
  }

  private async watch<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      if (isApiError(error) && error.kind === 'invalid-credentials') this.onRejected();
      throw error;
    }
  }
}

export interface ClientFactoryOptions {
  /** Read at each client's creation: a settings change rebuilds the client (SessionMachine.rebuildClient). */
  readonly settings: () => ClientSettings;
  readonly onRequest: (entry: RequestLogEntry) => void;
  /** Each access token as it arrives (for the log redactor). */
  readonly onToken?: (value: string) => void;
}

/** Watched clients for the active environment; plain throwaway ones to verify a sign-in. */
export function watchedClients(options: ClientFactoryOptions): ClientFactory<WatchedClient> {
  const clientOptions = (endpoints: Endpoints, credentials: () => Promise<Credentials>): ClientOptions => {
    const settings = options.settings();
    return {
      apiBaseUrl: endpoints.apiBaseUrl,
      authUrl: endpoints.authUrl,
      credentials,
      timestampUnit: settings.timestampUnit,
      http: settings.http,
      onRequest: options.onRequest,
      ...(options.onToken !== undefined ? { onToken: options.onToken } : {}),
    };
  };
  return {
    create: (endpoints, credentials, onRejected) => new WatchedClient(clientOptions(endpoints, credentials), onRejected),
    verify: async (endpoints, credentials, signal) => {
      const client = new OnboardingClient(clientOptions(endpoints, () => Promise.resolve(credentials)));
      try {
        await client.verifyCredentials(signal);
      } finally {
        client.dispose();
      }
    },
  };
}
