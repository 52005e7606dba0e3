// The URLs the user last confirmed for each environment: by going through the
// URL steps of Sign In, or by confirming the modal of the argument form.
// "Sign In Again" starts at the client-id step only for these; when an
// environment's URLs changed since (another extension, a command link, an
// older version), it starts at the URL steps so the user sees where the
// secret will go. No vscode import: the backend is a Memento slice.
import { isRecord } from '../common/guards';
import { endpointsKey } from '../domain/session/argumentSignIn';
import type { Environment } from '../domain/session/sessionState';
import type { StateBackend } from './credentialStore';
import { STATE_KEYS } from '../workbench/constants';

export const CONFIRMED_ENDPOINTS_KEY = STATE_KEYS.confirmedEndpoints;

export class ConfirmedEndpoints {
  constructor(private readonly state: StateBackend) {}

  /** The confirmed URLs of one environment, as endpointsKey() spells them. */
  of(id: string): string | undefined {
    const all = this.state.get(CONFIRMED_ENDPOINTS_KEY);
    const value = isRecord(all) ? all[id] : undefined;
    return typeof value === 'string' ? value : undefined;
  }

  isConfirmed(env: Environment): boolean {
    return this.of(env.id) === endpointsKey(env);
  }

  async confirm(env: Environment): Promise<void> {
    const all = this.state.get(CONFIRMED_ENDPOINTS_KEY);
    await this.state.update(CONFIRMED_ENDPOINTS_KEY, { ...(isRecord(all) ? all : {}), [env.id]: endpointsKey(env) });
  }
}
