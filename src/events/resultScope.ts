// Which stored results belong to the session now. The scope is the
// environment id together with its API and user: an environment renamed or
// re-pointed at another API keeps its id, and its old results must not show
// under the new API. Signing out deletes the environment's stored results.
import type { ApiSession, SessionState } from '../session/apiSession';
import type { FileResultStore } from './fileResultStore';

export function resultScope(state: SessionState): string | undefined {
  if (state.kind !== 'signed-in') return undefined;
  const { id, apiBaseUrl, username } = state.environment;
  return JSON.stringify([id, apiBaseUrl, username]);
}

/** Deletes the stored results of an environment when the user signs out of it (not when its credentials are rejected). */
export function forgetResultsOnSignOut(session: Pick<ApiSession, 'state' | 'onDidChangeState'>, store: Pick<FileResultStore, 'clearScope' | 'flush'>): { dispose(): unknown } {
  let last = resultScope(session.state);
  return session.onDidChangeState((state) => {
    const scope = resultScope(state);
    if (state.kind === 'signed-out' && last !== undefined) {
      const leaving = last;
      void store.flush().then(() => {
        store.clearScope(leaving);
      });
    }
    if (scope !== undefined || state.kind === 'signed-out') last = scope;
  });
}
