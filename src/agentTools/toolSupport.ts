// What the three tools share: the gate (setting, sign-in) that answers without
// a request, reading many machines through the shared EventsCache (so the
// cache, the concurrency limit and the error types are the views' own), the
// cancellation bridge, and the confirmation when a call would send many
// requests. The wording of results lives in domain/agentTools (pure).
import * as vscode from 'vscode';
import { abortSignalFor } from '../common/cancellation';
import { errorMessage } from '../common/errors';
import { isApiError } from '../core/errors';
import { NotSignedInError, type EventsCache } from '../eventsCache/eventsCache';
import { needsConfirmation, requestsNeeded } from '../domain/agentTools/toolInput';
import { signInNeededText, turnedOffText, type MachineReport } from '../domain/agentTools/toolResults';
import { settingId } from '../domain/settings/settingsRules';
import type { ApiSession } from '../workbench/contracts/apiSession';
import { COMMANDS } from '../workbench/constants';
import type { SettingsReader } from '../workbench/settings';

export interface ToolDeps {
  readonly session: ApiSession;
  readonly events: EventsCache;
  readonly settings: SettingsReader;
}

/** The answer when the tools are off or nobody is signed in: no request is made. */
export function gate(deps: ToolDeps, needsSignIn: boolean): string | undefined {
  if (!deps.settings.value['agentTools.enabled']) return turnedOffText(settingId('agentTools.enabled'));
  if (!needsSignIn) return undefined;
  const state = deps.session.state;
  return state.kind === 'signed-in' ? undefined : signInNeededText(state.kind, COMMANDS.signIn);
}

/** The signed-in environment's name, for results and confirmations. */
export function environmentName(session: ApiSession): string {
  return session.state.kind === 'signed-out' ? '' : session.state.environment.name;
}

/** Rejects with a CancellationError as soon as `signal` aborts; a request shared with a view keeps running for it. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new vscode.CancellationError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      reject(new vscode.CancellationError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(errorMessage(error)));
      },
    );
  });
}

function isCancellation(error: unknown): boolean {
  return error instanceof vscode.CancellationError || (isApiError(error) && error.kind === 'cancelled');
}

/**
 * Each machine's events through the cache (one request per machine that is
 * not fresh; the client's limiter bounds how many run at once). A failure is
 * reported per machine, with the last good result when there is one;
 * cancelling the token aborts the requests and rejects with CancellationError.
 */
export async function readMachines(
  deps: ToolDeps,
  serialNumbers: readonly string[],
  token: vscode.CancellationToken,
): Promise<MachineReport[]> {
  const abort = abortSignalFor(token);
  try {
    const reports = await Promise.all(
      serialNumbers.map(async (serialNumber): Promise<MachineReport> => {
        try {
          const result = await untilAborted(deps.events.get(serialNumber, { signal: abort.signal }), abort.signal);
          return { serialNumber, outcome: { kind: 'events', result, stale: false } };
        } catch (error) {
          if (isCancellation(error) || token.isCancellationRequested) throw new vscode.CancellationError();
          const message = error instanceof NotSignedInError ? signInNeededText('signed-out', COMMANDS.signIn) : errorMessage(error);
          // The service keeps the last good result when a refresh fails: show it, marked.
          const previous = error instanceof NotSignedInError ? undefined : deps.events.peek(serialNumber);
          return previous === undefined
            ? { serialNumber, outcome: { kind: 'error', message, ...(isApiError(error) ? { errorKind: error.kind } : {}) } }
            : { serialNumber, outcome: { kind: 'events', result: previous.result, stale: true, refreshError: message } };
        }
      }),
    );
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    return reports;
  } finally {
    // Refused credentials were reported to the session by the cache (once per refused request).
    abort.dispose();
  }
}

/** prepareInvocation for the tools that read events: a progress message, and a confirmation when many requests would go out. */
export function prepareReading(deps: ToolDeps, serialNumbers: readonly string[], invocationMessage: string): vscode.PreparedToolInvocation {
  if (gate(deps, true) !== undefined) return { invocationMessage };
  const requests = requestsNeeded(serialNumbers, (serial) => deps.events.isFresh(serial));
  if (!needsConfirmation(requests)) return { invocationMessage };
  return {
    invocationMessage,
    confirmationMessages: {
      title: vscode.l10n.t('Ask the Onboarding Events API about {0} machines?', requests),
      message: vscode.l10n.t(
        'The agent asks for the onboarding events of {0} machines. {1} of them are not in the cache, so {1} requests will go to the API of the environment "{2}", at most {3} at a time. Nothing is changed on the server.',
        serialNumbers.length,
        requests,
        environmentName(deps.session),
        deps.settings.value.maxConcurrentRequests,
      ),
    },
  };
}
