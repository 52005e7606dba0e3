// The agent tools in VS Code: Language Model Tools (Copilot's agent mode, or any
// extension through vscode.lm.invokeTool) and the MCP channel (mcpChannelHost.ts),
// both answered by the core's one answerer (core/agents/toolAnswerer.ts). Here is
// only what VS Code adds: the scope and watch list of this window, the progress
// messages and confirmations, and the questions asked in VS Code's modal.
import * as vscode from 'vscode';
import { abortSignalFor } from '../../core/common/cancellation';
import type { EventsCache } from '../../core/eventsCache/eventsCache';
import type { CachedLineHistory } from '../../core/eventsCache/cachedLineHistory';
import {
  needsConfirmation,
  parseMachineEventsInput,
  parseSerialScopeInput,
  parseSummaryInput,
  parseWatchInput,
  requestsNeeded,
  type Parsed,
  type SerialList,
} from '../../core/domain/agentTools/toolInput';
import { ToolAnswerer, ToolCancelledError, type AskUser, type ToolQuestion } from '../../core/agents/toolAnswerer';
import type { ArgumentTrust, ExtensionRequest } from '../workbench/argumentTrust';
import type { ApiSession } from '../workbench/contracts/apiSession';
import { escapeMarkdown } from '../../core/common/markdownText';
import { inertNotificationText } from '../../core/common/notificationText';
import type { MachinesApi, WatchesApi } from '../workbench/contracts/features';
import { LANGUAGE_MODEL_TOOLS, type LanguageModelToolName } from '../workbench/constants';
import type { Log } from '../workbench/log';
import type { SettingsReader } from '../workbench/settings';
import type { SerialSettings } from '../workbench/serialSettings';
import { registerConnectAgent } from './connectAgent';
import { environmentName, windowProgram } from './windowProgram';
import { pairedAsk } from '../../core/agents/pairings';
import type { ToolAnswer } from '../../core/agents/channel';
import { registerMcpChannelHost, type McpAnswer } from './mcpChannelHost';
import { prepareFileScope, workspaceScope, type WorkspaceScanner } from './serialSources';

export type { WorkspaceScanner } from './serialSources';

export interface AgentToolsDeps {
  readonly session: ApiSession;
  readonly events: EventsCache;
  readonly machines: Pick<MachinesApi, 'pinned' | 'recent'>;
  readonly settings: SettingsReader;
  readonly log: Log;
  /** The Machines view's workspace scan, for the "workspace" source. */
  readonly scanWorkspace: WorkspaceScanner;
  /** The one serial-number matcher. */
  readonly serialSettings: SerialSettings;
  /** Asks the user when another extension, not a chat, invokes a tool that would send requests (workbench/argumentTrust.ts). */
  readonly trust: Pick<ArgumentTrust, 'confirm'>;
  /** The watch feature: the summary marks watched machines, and the watch tool lists and starts watches (after asking the user). */
  readonly watches: WatchesApi;
  /** The line's usual steps: machines in progress say their step, time to go and whether they are stalled. */
  readonly lineHistory: Pick<CachedLineHistory, 'steps'>;
}

export type AgentTools = Readonly<Record<LanguageModelToolName, vscode.LanguageModelTool<unknown>>>;

/** Runs the answerer under VS Code's token: its cancellation is VS Code's CancellationError. */
async function answerUnder(
  answerer: ToolAnswerer,
  name: string,
  input: unknown,
  token: vscode.CancellationToken,
  ask: AskUser | undefined,
): Promise<ToolAnswer> {
  const abort = abortSignalFor(token);
  try {
    return await answerer.answer(name, input, abort.signal, ask);
  } catch (error) {
    if (error instanceof ToolCancelledError) throw new vscode.CancellationError();
    throw error;
  } finally {
    abort.dispose();
  }
}

/** Registers the tools with VS Code; returns them by name. */
export function registerAgentTools(context: vscode.ExtensionContext, deps: AgentToolsDeps): AgentTools {
  const answerer = new ToolAnswerer(windowProgram(deps, workspaceScope(deps)));
  const prepare: Readonly<Record<LanguageModelToolName, (input: unknown) => vscode.PreparedToolInvocation>> = {
    [LANGUAGE_MODEL_TOOLS.machineEvents]: (input) => {
      // Counts only: the serial numbers were written by a model and need not reach the chat's Markdown.
      const serials = serialsOf(parseMachineEventsInput(input));
      const count = serials.length;
      return prepareReading(
        deps,
        serials,
        count === 1
          ? vscode.l10n.t('Reading the onboarding events of one machine')
          : vscode.l10n.t('Reading the onboarding events of {0} machines', count),
      );
    },
    [LANGUAGE_MODEL_TOOLS.serialNumbers]: (given) => {
      const input = parseSerialScopeInput(given);
      if (input.ok && input.value.source === 'file' && input.value.file !== undefined) return prepareFileScope(input.value.file);
      return {
        invocationMessage:
          input.ok && input.value.source === 'workspace'
            ? vscode.l10n.t('Finding serial numbers in the workspace')
            : vscode.l10n.t('Finding serial numbers in the active editor'),
      };
    },
    [LANGUAGE_MODEL_TOOLS.summary]: (input) => {
      const serials = serialsOf(parseSummaryInput(input));
      const count = serials.length;
      return prepareReading(
        deps,
        serials,
        count === 1
          ? vscode.l10n.t('Summarizing the onboarding of one machine')
          : vscode.l10n.t('Summarizing the onboarding of {0} machines', count),
      );
    },
    [LANGUAGE_MODEL_TOOLS.watch]: (input) => prepareWatching(deps, serialsOf(parseWatchInput(input))),
  };
  const tools = Object.fromEntries(
    Object.values(LANGUAGE_MODEL_TOOLS).map((name): [LanguageModelToolName, vscode.LanguageModelTool<unknown>] => [
      name,
      {
        prepareInvocation: (options) => prepare[name](options.input),
        invoke: async (options, token) => {
          // No toolInvocationToken: not a chat the user is in, but another extension (vscode.lm.invokeTool). VS Code asks only
          // when prepareInvocation says so; the one rule asks whenever a request would go out in the user's name.
          // (The token's type is `never` in the API: opaque, so it is read as unknown.)
          const fromChat = (options as { readonly toolInvocationToken?: unknown }).toolInvocationToken !== undefined;
          const ask: AskUser | undefined = fromChat
            ? undefined
            : async (question) => {
                const request = requestOf(deps, question, undefined);
                if (request !== undefined && !(await deps.trust.confirm(request))) throw new vscode.CancellationError();
                return undefined;
              };
          return new vscode.LanguageModelToolResult([
            new vscode.LanguageModelTextPart((await answerUnder(answerer, name, options.input, token, ask)).text),
          ]);
        },
      },
    ]),
  ) as Record<LanguageModelToolName, vscode.LanguageModelTool<unknown>>;
  for (const [name, tool] of Object.entries(tools)) context.subscriptions.push(vscode.lm.registerTool(name, tool));
  // Whatever the input says ("userAgreed" included): agreement is given in VS Code, and only a paired agent is asked
  // about; the channel's key alone is readable by any program of the user (mcpChannelHost.ts).
  const answerMcp: McpAnswer = (tool, input, caller, token) => {
    const agent = caller.kind === 'paired' ? caller.agent : '';
    const ask = pairedAsk(
      tool,
      caller,
      (question: ToolQuestion) => requestOf(deps, question, agent),
      (request: ExtensionRequest) => deps.trust.confirm(request),
    );
    return answerUnder(answerer, tool, input, token, ask);
  };
  const channelHost = registerMcpChannelHost(context, { session: deps.session, log: deps.log, answer: answerMcp, trust: deps.trust });
  registerConnectAgent({
    context,
    log: deps.log,
    onConnect: () => {
      channelHost.expectAgent();
    },
    trust: deps.trust,
  });
  return tools;
}

/** The question VS Code's modal asks: another extension (`agent` undefined) or an agent over MCP (its name; '' unpaired). */
function requestOf(deps: AgentToolsDeps, question: ToolQuestion, agent: string | undefined): ExtensionRequest | undefined {
  switch (question.kind) {
    case 'read':
      return askToRead(deps, question.serialNumbers, question.requests, agent);
    case 'watch':
      return askToWatch(deps, question.serialNumbers, agent);
    case 'unusual-file':
      // Another extension can read any file itself; an agent's path was written by a model, which a hostile file may steer.
      return agent === undefined ? undefined : askToReadFile(question.file, agent);
  }
}

/** The serial numbers of a parsed input; none when it does not parse. */
function serialsOf(input: Parsed<SerialList>): readonly string[] {
  return input.ok ? input.value.serialNumbers : [];
}

/** True when a tool that sends requests would answer without one: turned off, or nobody signed in. */
function closed(deps: AgentToolsDeps): boolean {
  return !deps.settings.value['agentTools.enabled'] || deps.session.state.kind !== 'signed-in';
}

/** prepareInvocation for the tools that read events: a progress message, and a confirmation when many requests would go out. */
function prepareReading(deps: AgentToolsDeps, serialNumbers: readonly string[], invocationMessage: string): vscode.PreparedToolInvocation {
  if (closed(deps)) return { invocationMessage };
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

/**
 * The question when another extension invokes a reading tool outside a chat:
 * what the views already fetched is readable through the exported API
 * anyway (events.peek), so only a request in the user's name is asked about.
 */
function askToRead(deps: AgentToolsDeps, serialNumbers: readonly string[], requests: number, agent: string | undefined): ExtensionRequest {
  const environment = environmentName(deps.session);
  // Bounded: the summary tool takes many more; the count above says how many.
  const machines = serialNumbers.length > 10 ? `${serialNumbers.slice(0, 10).join(', ')}, …` : serialNumbers.join(', ');
  const title =
    agent === undefined
      ? serialNumbers.length === 1
        ? vscode.l10n.t('Another extension asks for the onboarding events of one machine.')
        : vscode.l10n.t('Another extension asks for the onboarding events of {0} machines.', serialNumbers.length)
      : serialNumbers.length === 1
        ? vscode.l10n.t('The paired agent "{0}" asks for the onboarding events of one machine.', agentName(agent))
        : vscode.l10n.t('The paired agent "{0}" asks for the onboarding events of {1} machines.', agentName(agent), serialNumbers.length);
  return {
    title,
    detail:
      requests === 1
        ? vscode.l10n.t(
            'One request will go to the API of the environment "{0}" with your sign-in, and the events are handed to that extension: {1}',
            environment,
            machines,
          )
        : vscode.l10n.t(
            '{0} requests will go to the API of the environment "{1}" with your sign-in, and the events are handed to that extension: {2}',
            requests,
            environment,
            machines,
          ),
    action: vscode.l10n.t('Allow'),
  };
}

/** The watch tool's prepareInvocation: a progress message, and always a confirmation when it would start watches. */
function prepareWatching(deps: AgentToolsDeps, serialNumbers: readonly string[]): vscode.PreparedToolInvocation {
  if (serialNumbers.length === 0) return { invocationMessage: vscode.l10n.t('Listing the watched machines') };
  const invocationMessage =
    serialNumbers.length === 1
      ? vscode.l10n.t('Watching the onboarding of one machine')
      : vscode.l10n.t('Watching the onboarding of {0} machines', serialNumbers.length);
  if (closed(deps)) return { invocationMessage };
  // The serial numbers were written by a model: escaped, so none can become a link or a command in the chat's Markdown.
  const machines = serialNumbers.map((serial) => escapeMarkdown(serial)).join(', ');
  return {
    invocationMessage,
    confirmationMessages: {
      title:
        serialNumbers.length === 1
          ? vscode.l10n.t('Watch the onboarding of one machine?')
          : vscode.l10n.t('Watch the onboarding of {0} machines?', serialNumbers.length),
      message: new vscode.MarkdownString(
        vscode.l10n.t(
          'The agent asks to watch {0}. Each is polled with your sign-in to the environment "{1}" until it is onboarded or fails, and you are notified of the outcome. Only this window\'s watch list changes; nothing is changed on the server.',
          machines,
          escapeMarkdown(environmentName(deps.session)),
        ),
      ),
    },
  };
}

/** The question when another extension, not a chat, asks the watch tool to start watches. */
function askToWatch(deps: AgentToolsDeps, serialNumbers: readonly string[], agent: string | undefined): ExtensionRequest {
  const environment = environmentName(deps.session);
  const machines = serialNumbers.join(', ');
  const title =
    agent === undefined
      ? serialNumbers.length === 1
        ? vscode.l10n.t('Another extension asks to watch the onboarding of one machine.')
        : vscode.l10n.t('Another extension asks to watch the onboarding of {0} machines.', serialNumbers.length)
      : serialNumbers.length === 1
        ? vscode.l10n.t('The paired agent "{0}" asks to watch the onboarding of one machine.', agentName(agent))
        : vscode.l10n.t('The paired agent "{0}" asks to watch the onboarding of {1} machines.', agentName(agent), serialNumbers.length);
  return {
    title,
    detail:
      serialNumbers.length === 1
        ? vscode.l10n.t(
            'It is polled with your sign-in to the environment "{0}" until it is onboarded or fails, and you are notified of the outcome: {1}',
            environment,
            machines,
          )
        : vscode.l10n.t(
            'They are polled with your sign-in to the environment "{0}" until each is onboarded or fails, and you are notified of each outcome: {1}',
            environment,
            machines,
          ),
    action: vscode.l10n.t('Watch'),
  };
}

/** The question when a paired agent names a file by a path that leaves the plain relative form. */
function askToReadFile(file: string, agent: string): ExtensionRequest {
  return {
    title: vscode.l10n.t('The paired agent "{0}" asks for the serial numbers in a file named by an unusual path.', agentName(agent)),
    detail: vscode.l10n.t(
      'The path is absolute, a URI, or contains "..", which is where a hostile file would point an agent: {0}. Only files inside the open workspace folders are read; the serial numbers found, with what this window knows of each, are handed to the agent.',
      inertNotificationText(file),
    ),
    action: vscode.l10n.t('Allow'),
  };
}

/** An agent's name as its MCP client gave it, shown in a modal: inert, like any text from outside. */
function agentName(agent: string): string {
  return inertNotificationText(agent);
}
