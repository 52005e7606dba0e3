// The contract between sign-in (which owns credentials and environments) and
// every view that reads data (tree, details, hover, look-up). Views never see
// secrets: they ask for a client, and get none while signed out. Its events
// and dispose are the vscode-free ones of src/common, so the session can be
// built on the vscode-free session machine; a vscode.Event fits them too.
import type { Event } from '../../common/emitter';
import type { IDisposable } from '../../common/lifecycle';
import type { OnboardingClient } from '../../core/onboardingClient';
import type { Environment, SessionState } from '../../domain/session/sessionState';

export interface ApiSession extends IDisposable {
  readonly state: SessionState;
  readonly onDidChangeState: Event<SessionState>;
  /**
   * The client for the active environment, or undefined while signed out or
   * while its credentials are rejected. The client renews tokens silently.
   * Only the events cache asks for it (workbench/registerEventsCache.ts):
   * views read through the cache.
   */
  client(): OnboardingClient | undefined;
  /** Called by the events cache when the API refused the credentials (ApiError 'invalid-credentials'); notifies the user once. */
  reportCredentialsRejected(): void;
  /** Every environment signed in to, active or not (no secrets). */
  environments(): Environment[];
  /** Environments were added, changed or signed out of (also in another window). */
  readonly onDidChangeEnvironments: Event<void>;
}
