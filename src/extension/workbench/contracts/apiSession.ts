// The contract between sign-in (which owns credentials and environments) and
// every view that reads data (tree, details, hover, look-up). Views never see
// secrets: they read the state, and ask for a client only to make a request.
// Its events and dispose are the vscode-free ones of src/core/common, so the
// vscode-free session machine (domain/session/sessionMachine.ts) is the
// session itself; a vscode.Event fits them too.
import type { Event } from '../../../core/common/emitter';
import type { IDisposable } from '../../../core/common/lifecycle';
import type { OnboardingClient } from '../../../core/client/onboardingClient';
import type { Environment, SessionState } from '../../../core/domain/session/sessionState';

export interface ApiSession extends IDisposable {
  /**
   * The one source of "signed in or not" for every view: anything but
   * 'signed-in' (signed out, or the stored credentials rejected) shows the
   * view's signed-out state. Views ask this, not whether `client()` is defined.
   */
  readonly state: SessionState;
  readonly onDidChangeState: Event<SessionState>;
  /**
   * The client to make requests with: defined exactly while `state.kind` is
   * 'signed-in'. The client renews tokens silently. Only the events cache
   * asks for it (workbench/registerEventsCache.ts): views read through the
   * cache, which reports refused credentials to `reportCredentialsRejected`.
   */
  client(): OnboardingClient | undefined;
  /** Called by the events cache when the API refused the credentials (ApiError 'invalid-credentials'); notifies the user once. */
  reportCredentialsRejected(): void;
  /** Every environment signed in to, active or not (no secrets). */
  environments(): Environment[];
  /** Environments were added, changed or signed out of (also in another window). */
  readonly onDidChangeEnvironments: Event<void>;
}
