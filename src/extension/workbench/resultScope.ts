// Which stored results belong to the session now. The scope is the
// environment id together with its API and user: an environment renamed or
// re-pointed at another API keeps its id, and its old results must not show
// under the new API. Signing out deletes the environment's stored results,
// whether or not it is the active one.
import { DisposableStore, type IDisposable } from '../../core/common/lifecycle';
import type { ApiSession } from './contracts/apiSession';
import type { Environment, SessionState } from '../../core/domain/session/sessionState';
import type { FileResultStore } from '../../core/eventsCache/fileResultStore';

export function resultScope(state: SessionState): string | undefined {
  if (state.kind !== 'signed-in') return undefined;
  const { id, apiBaseUrl, username } = state.environment;
  return JSON.stringify([id, apiBaseUrl, username]);
}

function scopeOf(environment: Environment): string {
  return resultScope({ kind: 'signed-in', environment }) ?? '';
}

/**
 * Deletes an environment's stored results when the user signs out of it,
 * active or not, in this window or another (not when its credentials are
 * rejected), and the old API's results when an environment is re-pointed.
 */
export function forgetResultsOnSignOut(
  session: Pick<ApiSession, 'state' | 'onDidChangeState' | 'environments' | 'onDidChangeEnvironments'>,
  store: Pick<FileResultStore, 'clearScope' | 'flush'>,
): IDisposable {
  const forget = (scope: string): void => {
    void store.flush().then(() => {
      store.clearScope(scope);
    });
  };
  let last = resultScope(session.state);
  const scopes = (): Map<string, string> => new Map(session.environments().map((env) => [env.id, scopeOf(env)]));
  let known = scopes();
  const subscriptions = new DisposableStore();
  subscriptions.add(
    session.onDidChangeState((state) => {
      const scope = resultScope(state);
      if (state.kind === 'signed-out' && last !== undefined) forget(last);
      if (scope !== undefined || state.kind === 'signed-out') last = scope;
    }),
  );
  subscriptions.add(
    session.onDidChangeEnvironments(() => {
      const now = scopes();
      for (const [id, scope] of known) if (now.get(id) !== scope) forget(scope);
      known = now;
    }),
  );
  return subscriptions;
}
