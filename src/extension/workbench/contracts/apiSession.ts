// Between sign-in and every view: views read the state and never see secrets. The vscode-free session
// machine is the session itself.
import type { Event } from '../../../core/common/emitter';
import type { IDisposable } from '../../../core/common/lifecycle';
import type { OnboardingClient } from '../../../core/client/onboardingClient';
import type { Environment, SessionState } from '../../../core/domain/session/sessionState';

export interface ApiSession extends IDisposable {
  /** Anything but 'signed-in' shows the signed-out view; views ask this, not whether `client()` is defined. */
  readonly state: SessionState;
  readonly onDidChangeState: Event<SessionState>;
  /** Defined exactly while signed in; only the events cache asks for it. */
  client(): OnboardingClient | undefined;
  /** Called by the events cache when the API refused the credentials (ApiError 'invalid-credentials'); notifies the user once. */
  reportCredentialsRejected(): void;
  environments(): Environment[];
  /** Environments were added, changed or signed out of (also in another window). */
  readonly onDidChangeEnvironments: Event<void>;
}
