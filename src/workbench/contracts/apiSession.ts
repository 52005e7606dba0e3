// The contract between sign-in (which owns credentials and environments) and
// every view that reads data (tree, details, hover, look-up). Views never see
// secrets: they read the state, and ask for a client only to make a request.
// Its events and dispose are the vscode-free ones of src/common, so the
// vscode-free session machine (domain/session/sessionMachine.ts) is the
// session itself; a vscode.Event fits them too.
import type { Event } from '../../common/emitter';
import type { IDisposable } from '../../common/lifecycle';
import type { OnboardingClient } from '../../core/onboardingClient';
import type { Environment, SessionState } from '../../domain/session/sessionState';

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
   * 'signed-in'. The client renews tokens silently. When it reports invalid
   * credentials, callers hand the error to `reportCredentialsRejected` (or
   * just rethrow: the session watches for it), and the state says so.
   */
  client(): OnboardingClient | undefined;
  /** Called by any view that saw ApiError('invalid-credentials') from the client; notifies the user once. */
  reportCredentialsRejected(): void;
  /** Every environment signed in to, active or not (no secrets). */
  environments(): Environment[];
  /** Environments were added, changed or signed out of (also in another window). */
  readonly onDidChangeEnvironments: Event<void>;
}
