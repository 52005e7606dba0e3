// The agent tools: read-only answers about machines' onboarding, behind two
// entry points. Language Model Tools (Copilot's agent mode, or any extension through
// vscode.lm.invokeTool), which the manifest declares (hidden by
// onboardingEvents.agentTools.enabled = false), and the MCP server (dist/mcp.js,
// through mcpChannelHost.ts) for every other agent. The name, description and schema
// are domain/agentTools/toolDefinitions.ts; this answers each tool once, for
// both entry points, so the same input gives the same text. What the tools share: the gate (setting, sign-in) that answers without
// a request, reading many machines through the shared EventsCache (so the
// cache, the concurrency limit and the error types are the views' own), the
// cancellation bridge, and the confirmation when a call would send many
// requests. The wording of results lives in domain/agentTools (pure).
import * as vscode from 'vscode';
import { abortSignalFor } from '../../core/common/cancellation';
import { definedOnly } from '../../core/common/definedOnly';
import { errorMessage } from '../../core/common/errors';
import { isApiError } from '../../core/client/errors';
import { NotSignedInError, type EventsCache } from '../../core/eventsCache/eventsCache';
import type { CachedLineHistory } from '../../core/eventsCache/cachedLineHistory';
import {
  needsConfirmation,
  parseMachineEventsInput,
  parseSerialScopeInput,
  parseSummaryInput,
  parseWatchInput,
  requestsNeeded,
  type Parsed,
} from '../../core/domain/agentTools/toolInput';
import {
  invalidInputText,
  machineEventsText,
  scopeText,
  signInNeededText,
  summaryText,
  turnedOffText,
  watchText,
  type MachineReport,
  type ScopeEntry,
  type WatchStartReport,
} from '../../core/domain/agentTools/toolResults';
import { AGENT_TOOLS, type AgentToolName } from '../../core/domain/agentTools/toolDefinitions';
import { settingId } from '../../core/domain/settings/settingsRules';
import type { ArgumentTrust, ExtensionRequest } from '../workbench/argumentTrust';
import type { ApiSession } from '../workbench/contracts/apiSession';
import { escapeMarkdown } from '../../core/common/markdownText';
import { inertNotificationText } from '../../core/common/notificationText';
import type { MachinesApi, WatchesApi } from '../workbench/contracts/features';
import { COMMANDS, LANGUAGE_MODEL_TOOLS, type LanguageModelToolName } from '../workbench/constants';
import type { Log } from '../workbench/log';
import type { SettingsReader } from '../workbench/settings';
import type { SerialSettings } from '../workbench/serialSettings';
import { registerConnectAgent } from './connectAgent';
import type { ToolAnswer } from '../../core/agents/channel';
import { gatedAnswer } from '../../core/agents/pairings';
import { registerMcpChannelHost, type McpAnswer, type McpCaller } from './mcpChannelHost';
import { isPlainPath, prepareFileScope, serialsInScope, type WorkspaceScanner } from './serialSources';

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

/** What makes one tool: everything else (the gate, the input check, the result's form) is the same for all. */
interface ToolDefinition<Input> {
  readonly parse: (input: unknown) => Parsed<Input>;
  /** The progress message (and confirmation); `input` is undefined when it does not parse. */
  prepare(input: Input | undefined): vscode.PreparedToolInvocation;
  /**
   * What to ask the user when a caller outside a chat invokes the tool: another extension (`agent` undefined)
   * or an agent paired through the MCP server (`agent` is its name); undefined when nothing needs asking.
   */
  askOutsideChat?(input: Input, agent: string | undefined): ExtensionRequest | undefined;
  answer(input: Input, token: vscode.CancellationToken): Promise<string>;
}

/** A tool as both entry points use it: the shared definition (name, schema, sign-in) and how this extension answers it. */
interface AnsweredTool {
  readonly languageModelTool: vscode.LanguageModelTool<unknown>;
  /** The MCP server: the same gate, input check, question and answer; the caller is an outside one, paired or not. */
  answerMcp(input: unknown, caller: McpCaller, token: vscode.CancellationToken): Promise<ToolAnswer>;
}

function answeredTool<Input>(deps: AgentToolsDeps, name: AgentToolName, definition: ToolDefinition<Input>): AnsweredTool {
  const { needsSignIn } = AGENT_TOOLS[name];
  const textResult = (text: string): vscode.LanguageModelToolResult =>
    new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
  return {
    languageModelTool: {
      prepareInvocation: (options) => {
        const input = definition.parse(options.input);
        return definition.prepare(input.ok ? input.value : undefined);
      },
      invoke: async (options, token) => {
        const closed = gate(deps, needsSignIn);
        if (closed !== undefined) return textResult(closed);
        const input = definition.parse(options.input);
        if (!input.ok) return textResult(invalidInputText(input.problem));
        // No toolInvocationToken: not a chat the user is in, but another extension (vscode.lm.invokeTool). VS Code asks only
        // when prepareInvocation says so; the one rule asks whenever a request would go out in the user's name.
        // (The token's type is `never` in the API: opaque, so it is read as unknown.)
        const fromChat = (options as { readonly toolInvocationToken?: unknown }).toolInvocationToken !== undefined;
        const asked = fromChat ? undefined : definition.askOutsideChat?.(input.value, undefined);
        if (asked !== undefined && !(await deps.trust.confirm(asked))) throw new vscode.CancellationError();
        return textResult(await definition.answer(input.value, token));
      },
    },
    answerMcp: async (given, caller, token) => {
      const closed = gate(deps, needsSignIn);
      if (closed !== undefined) return { text: closed };
      const input = definition.parse(given);
      if (!input.ok) return { text: invalidInputText(input.problem) };
      // Whatever the input says ("userAgreed" included): agreement is given in VS Code. Anything beyond what the
      // views already loaded is asked about through the one gate, and only for an agent the user paired; the
      // channel's key alone is readable by any program of the user (mcpChannelHost.ts).
      // An unpaired caller is never asked about: the question only tells whether the call needs more.
      const asked = definition.askOutsideChat?.(input.value, caller.kind === 'paired' ? caller.agent : '');
      return gatedAnswer(
        name,
        caller,
        asked,
        (question) => deps.trust.confirm(question),
        () => definition.answer(input.value, token),
      );
    },
  };
}

/** Registers the tools with VS Code; returns them by name. */
export function registerAgentTools(context: vscode.ExtensionContext, deps: AgentToolsDeps): AgentTools {
  const resultContext = () => ({
    now: Date.now(),
    environment: environmentName(deps.session),
    rules: deps.settings.value.eventStates,
    learned: deps.lineHistory.steps(),
  });
  const answered: Readonly<Record<LanguageModelToolName, AnsweredTool>> = {
    // One or more serial numbers → each machine's newest events, read through the views' cache.
    [LANGUAGE_MODEL_TOOLS.machineEvents]: answeredTool(deps, LANGUAGE_MODEL_TOOLS.machineEvents, {
      parse: parseMachineEventsInput,
      prepare: (input) => {
        const serials = input?.serialNumbers ?? [];
        // Counts only: the serial numbers were written by a model and need not reach the chat's Markdown.
        const message =
          serials.length === 1
            ? vscode.l10n.t('Reading the onboarding events of one machine')
            : vscode.l10n.t('Reading the onboarding events of {0} machines', serials.length);
        return prepareReading(deps, serials, message);
      },
      askOutsideChat: ({ serialNumbers }, agent) => askToRead(deps, serialNumbers, agent),
      answer: async ({ serialNumbers, maxEvents, refused }, token) => {
        const reports = await readMachines(deps, serialNumbers, token);
        deps.log.info(`Agent tool: events of ${serialNumbers.length} machines read.`);
        return machineEventsText(reports, { maxEvents, refused }, resultContext());
      },
    }),
    // The serial numbers in the active editor, a file or the workspace, with what
    // this window already knows of each (pinned, looked up recently, the cached
    // newest event). It sends no request, so it needs no sign-in and no confirmation.
    [LANGUAGE_MODEL_TOOLS.serialNumbers]: answeredTool(deps, LANGUAGE_MODEL_TOOLS.serialNumbers, {
      parse: parseSerialScopeInput,
      prepare: (input) =>
        input?.source === 'file' && input.file !== undefined
          ? prepareFileScope(input.file)
          : {
              invocationMessage:
                input?.source === 'workspace'
                  ? vscode.l10n.t('Finding serial numbers in the workspace')
                  : vscode.l10n.t('Finding serial numbers in the active editor'),
            },
      // Another extension can read any file itself; an agent's path was written by a model, which a hostile file
      // may steer, so an unusual one is asked about, as VS Code's chat asks (prepareFileScope).
      askOutsideChat: (input, agent) =>
        agent !== undefined && input.source === 'file' && input.file !== undefined && !isPlainPath(input.file)
          ? askToReadFile(input.file, agent)
          : undefined,
      answer: async (input, token) => {
        // The one serial-number matcher the views use (a refused pattern is reported to the user there; the result tells the agent too).
        const matcher = deps.serialSettings.value.matcher;
        const found = await serialsInScope(input, matcher, deps, token);
        if (token.isCancellationRequested) throw new vscode.CancellationError();
        if (!found.ok) return invalidInputText(found.problem);
        const pinned = new Set(deps.machines.pinned());
        const recent = new Set(deps.machines.recent());
        const entries = found.found.map((serial): ScopeEntry => {
          // peek() makes no request: what the views fetched before (or the stored copy).
          const cached = deps.events.peek(serial.serialNumber);
          return {
            serialNumber: serial.serialNumber,
            locations: serial.locations,
            occurrences: serial.occurrences,
            pinned: pinned.has(serial.serialNumber),
            recent: recent.has(serial.serialNumber),
            ...definedOnly({ known: cached && { result: cached.result, stale: cached.stale || cached.error !== undefined } }),
          };
        });
        deps.log.info(`Agent tool: ${entries.length} serial numbers found in ${found.where}.`);
        return scopeText(
          entries,
          {
            where: found.where,
            capped: found.capped,
            signedIn: deps.session.state.kind === 'signed-in',
            ...definedOnly({ file: found.file, filesScanned: found.filesScanned, patternProblem: matcher.problem }),
          },
          { now: Date.now(), rules: deps.settings.value.eventStates },
          { events: LANGUAGE_MODEL_TOOLS.machineEvents, summary: LANGUAGE_MODEL_TOOLS.summary },
        );
      },
    }),
    // A set of serial numbers → counts by state, the failed machines with their
    // newest event, and the rest by state. It earns its place beside the events
    // tool: "which of these 40 failed, and why?" needs one line per machine, not
    // forty event lists.
    [LANGUAGE_MODEL_TOOLS.summary]: answeredTool(deps, LANGUAGE_MODEL_TOOLS.summary, {
      parse: parseSummaryInput,
      prepare: (input) => {
        const serials = input?.serialNumbers ?? [];
        const message =
          serials.length === 1
            ? vscode.l10n.t('Summarizing the onboarding of one machine')
            : vscode.l10n.t('Summarizing the onboarding of {0} machines', serials.length);
        return prepareReading(deps, serials, message);
      },
      askOutsideChat: ({ serialNumbers }, agent) => askToRead(deps, serialNumbers, agent),
      answer: async ({ serialNumbers, refused }, token) => {
        const reports = await readMachines(deps, serialNumbers, token);
        deps.log.info(`Agent tool: onboarding summary of ${reports.length} machines.`);
        return summaryText(reports, refused, resultContext(), deps.watches.watches());
      },
    }),
    // The one tool that changes something, and only in this window's watch list: with no serial numbers it
    // lists the watches; with some it starts them, always after the user agreed (the chat's confirmation, the
    // trust rule's modal outside a chat and for a paired agent), since each polls in their name for as long
    // as the onboarding runs and ends in a notification.
    [LANGUAGE_MODEL_TOOLS.watch]: answeredTool(deps, LANGUAGE_MODEL_TOOLS.watch, {
      parse: parseWatchInput,
      prepare: (input) => prepareWatching(deps, input?.serialNumbers ?? []),
      askOutsideChat: ({ serialNumbers }, agent) => (serialNumbers.length === 0 ? undefined : askToWatch(deps, serialNumbers, agent)),
      answer: async ({ serialNumbers, refused }, token) => {
        const started: WatchStartReport[] = [];
        // One after another: the watch limit and "already watched" are then answered against the list as it grows.
        for (const serialNumber of serialNumbers) {
          if (token.isCancellationRequested) throw new vscode.CancellationError();
          try {
            started.push({ serialNumber, answer: await deps.watches.startWatch(serialNumber) });
          } catch (error) {
            deps.log.error(`Agent tool: watch ${serialNumber}`, error);
            started.push({ serialNumber, answer: { kind: 'error', message: errorMessage(error) } });
          }
        }
        if (serialNumbers.length > 0) deps.log.info(`Agent tool: asked to watch ${serialNumbers.length} machines.`);
        return watchText(started, deps.watches.watches(), refused, resultContext());
      },
    }),
  };
  const tools = Object.fromEntries(Object.entries(answered).map(([name, tool]) => [name, tool.languageModelTool])) as Record<
    LanguageModelToolName,
    vscode.LanguageModelTool<unknown>
  >;
  for (const [name, tool] of Object.entries(tools)) context.subscriptions.push(vscode.lm.registerTool(name, tool));
  const answerMcp: McpAnswer = (tool, input, caller, token) =>
    Object.hasOwn(answered, tool)
      ? answered[tool as LanguageModelToolName].answerMcp(input, caller, token)
      : Promise.resolve({ text: invalidInputText(`there is no tool ${JSON.stringify(tool.slice(0, 100))}.`) });
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

/** The answer when the tools are off or nobody is signed in: no request is made. */
function gate(deps: AgentToolsDeps, needsSignIn: boolean): string | undefined {
  if (!deps.settings.value['agentTools.enabled']) return turnedOffText(settingId('agentTools.enabled'));
  if (!needsSignIn) return undefined;
  const state = deps.session.state;
  return state.kind === 'signed-in' ? undefined : signInNeededText(state.kind, COMMANDS.signIn);
}

/** The signed-in environment's name, for results and confirmations. */
function environmentName(session: ApiSession): string {
  return session.state.kind === 'signed-out' ? '' : session.state.environment.name;
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
async function readMachines(
  deps: AgentToolsDeps,
  serialNumbers: readonly string[],
  token: vscode.CancellationToken,
): Promise<MachineReport[]> {
  const abort = abortSignalFor(token);
  try {
    const reports = await Promise.all(
      serialNumbers.map(async (serialNumber): Promise<MachineReport> => {
        try {
          const result = await deps.events.get(serialNumber, { signal: abort.signal });
          return { serialNumber, outcome: { kind: 'events', result, stale: false } };
        } catch (error) {
          if (isCancellation(error) || token.isCancellationRequested) throw new vscode.CancellationError();
          // English (errorMessage's default), like every tool result: a model reads it (domain/agentTools/toolResults.ts).
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
function prepareReading(deps: AgentToolsDeps, serialNumbers: readonly string[], invocationMessage: string): vscode.PreparedToolInvocation {
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

/**
 * The question when another extension invokes a reading tool outside a chat:
 * what the views already fetched is readable through the exported API
 * anyway (events.peek), so only a request in the user's name is asked about.
 */
function askToRead(deps: AgentToolsDeps, serialNumbers: readonly string[], agent: string | undefined): ExtensionRequest | undefined {
  const requests = requestsNeeded(serialNumbers, (serial) => deps.events.isFresh(serial));
  if (requests === 0) return undefined;
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
  if (gate(deps, true) !== undefined) return { invocationMessage };
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
