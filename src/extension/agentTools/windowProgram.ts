// This window as the agent-tool answerer's program: its sign-in and setting,
// the views' cache and line history, its watch list, and the wording that
// names VS Code's command. No vscode import: the comparison with oe's program runs under plain mocha.
import type { ToolProgram } from '../../core/agents/toolAnswerer';
import type { ToolScope } from '../../core/agents/toolScope';
import { signInNeededText, turnedOffText } from '../../core/domain/agentTools/toolResults';
import { settingId, type Settings } from '../../core/domain/settings/settingsRules';
import type { CachedLineHistory } from '../../core/eventsCache/cachedLineHistory';
import { NotSignedInError, type EventsCache } from '../../core/eventsCache/eventsCache';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { WatchesApi } from '../workbench/contracts/features';
import { COMMANDS } from '../workbench/constants';
import { agentWording } from '../../core/client/agentRemedies';
import { EXTENSION_AGENT_ASKS } from '../workbench/remedies';

const agentFailureText = agentWording(EXTENSION_AGENT_ASKS);

export interface WindowProgramDeps {
  readonly session: Pick<ApiSession, 'state'>;
  readonly events: EventsCache;
  readonly settings: { readonly value: Pick<Settings, 'agentTools.enabled' | 'eventStates'> };
  readonly lineHistory: Pick<CachedLineHistory, 'steps'>;
  readonly watches: Pick<WatchesApi, 'watches' | 'startWatch'>;
  readonly log: { info(message: string): void };
}

/** The signed-in environment's name, for results and confirmations. */
export function environmentName(session: Pick<ApiSession, 'state'>): string {
  return session.state.kind === 'signed-out' ? '' : session.state.environment.name;
}

export function windowProgram(deps: WindowProgramDeps, scope: ToolScope): ToolProgram {
  return {
    turnedOff: () => (deps.settings.value['agentTools.enabled'] ? undefined : turnedOffText(settingId('agentTools.enabled'))),
    signInProblem: () => {
      const state = deps.session.state;
      return Promise.resolve(state.kind === 'signed-in' ? undefined : signInNeededText(state.kind, COMMANDS.signIn));
    },
    environment: () => environmentName(deps.session),
    events: deps.events,
    learned: () => deps.lineHistory.steps(),
    rules: () => deps.settings.value.eventStates,
    scope,
    watches: { kept: true, list: () => deps.watches.watches(), start: (serialNumber) => deps.watches.startWatch(serialNumber) },
    // English, like every tool result: a model reads it; the remedy in VS Code's terms.
    failureText: (error) => (error instanceof NotSignedInError ? signInNeededText('signed-out', COMMANDS.signIn) : agentFailureText(error)),
    log: (message) => {
      deps.log.info(message);
    },
  };
}
