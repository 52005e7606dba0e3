// The one answerer of the agent tools: the extension's Language Model tools,
// its MCP channel and `oe mcp` all call it with a tool's name and raw input, so
// the same machines give the same text. What differs by program comes in
// through ToolProgram: who is signed in, where serial numbers are found, the
// watch list, asking the user, and the wording of what to do.
import { isApiError } from '../client/errors';
import { definedOnly } from '../common/definedOnly';
import { AGENT_TOOL_NAMES, AGENT_TOOLS, type AgentToolName } from '../domain/agentTools/toolDefinitions';
import {
  parseMachineEventsInput,
  parseSerialScopeInput,
  parseSummaryInput,
  parseWatchInput,
  requestsNeeded,
  type Parsed,
} from '../domain/agentTools/toolInput';
import {
  invalidInputText,
  machineEventsText,
  scopeText,
  summaryText,
  watchText,
  type MachineReport,
  type ResultContext,
  type ScopeEntry,
  type WatchStartReport,
} from '../domain/agentTools/toolResults';
import type { EventStateRules } from '../domain/events/eventState';
import type { LearnedSteps } from '../domain/progress/lineHistory';
import type { WatchStartAnswer, WatchSummary } from '../domain/watch/watchRules';
import type { EventsResult } from '../client/model';
import type { ToolAnswer } from './channel';
import { isPlainPath, type ToolScope } from './toolScope';

/** A program's watch list: VS Code keeps one and can start watches; oe mcp keeps none and says what to do instead. */
export type ToolWatches =
  | {
      readonly kept: true;
      list(): readonly WatchSummary[];
      start(serialNumber: string): Promise<WatchStartAnswer>;
    }
  | {
      readonly kept: false;
      /** The watch tool's whole answer here, `asked` the number of serial numbers it was given. */
      noneText(asked: number): string;
    };

/** The program's events cache (core/eventsCache): one request per machine that is not fresh. */
export interface ToolEvents {
  get(serialNumber: string, options: { readonly signal: AbortSignal }): Promise<EventsResult>;
  /** What is known without a request. */
  peek(serialNumber: string): { readonly result: EventsResult; readonly stale: boolean; readonly error?: unknown } | undefined;
  isFresh(serialNumber: string): boolean;
}

export interface ToolProgram {
  /** Why the tools answer nothing at all now (a setting turned them off); undefined when they answer. */
  turnedOff(): string | undefined;
  /** Why no request can go out (nobody signed in), in the program's words; undefined when signed in. Sends nothing. */
  signInProblem(): Promise<string | undefined>;
  /** The signed-in environment's name. */
  environment(): string;
  readonly events: ToolEvents;
  /** The line's usual steps: a machine in progress says its step and time to go. */
  learned(): LearnedSteps;
  rules(): EventStateRules;
  readonly scope: ToolScope;
  readonly watches: ToolWatches;
  /** One machine's failed read, in the program's words. */
  failureText(error: unknown): string;
  log(message: string): void;
}

/** What a call would do beyond reading what is loaded: the program may ask the user first. */
export type ToolQuestion =
  | { readonly kind: 'read'; readonly serialNumbers: readonly string[]; readonly requests: number }
  | { readonly kind: 'watch'; readonly serialNumbers: readonly string[] }
  | { readonly kind: 'unusual-file'; readonly file: string };

/** Asks the user about a call; an answer ends the call with it, undefined lets the call run. */
export type AskUser = (question: ToolQuestion) => Promise<ToolAnswer | undefined>;

/** Thrown when the caller's signal aborted: the program turns it into its own cancellation. */
export class ToolCancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'ToolCancelledError';
  }
}

/** How one tool reads its input, what it may ask, and how it answers. */
interface Tool<Input> {
  readonly parse: (input: unknown) => Parsed<Input>;
  question(input: Input): ToolQuestion | undefined;
  answer(input: Input, signal: AbortSignal): Promise<string>;
}

export class ToolAnswerer {
  private readonly tools: { readonly [Name in AgentToolName]: Tool<never> };

  constructor(private readonly program: ToolProgram) {
    const readQuestion = (serialNumbers: readonly string[]): ToolQuestion | undefined => {
      const requests = requestsNeeded(serialNumbers, (serial) => program.events.isFresh(serial));
      return requests === 0 ? undefined : { kind: 'read', serialNumbers, requests };
    };
    this.tools = {
      [AGENT_TOOL_NAMES.machineEvents]: tool({
        parse: parseMachineEventsInput,
        question: ({ serialNumbers }) => readQuestion(serialNumbers),
        answer: async ({ serialNumbers, maxEvents, refused }, signal) => {
          const reports = await this.readMachines(serialNumbers, signal);
          program.log(`Agent tool: events of ${serialNumbers.length} machines read.`);
          return machineEventsText(reports, { maxEvents, refused }, this.resultContext());
        },
      }),
      [AGENT_TOOL_NAMES.summary]: tool({
        parse: parseSummaryInput,
        question: ({ serialNumbers }) => readQuestion(serialNumbers),
        answer: async ({ serialNumbers, refused }, signal) => {
          const reports = await this.readMachines(serialNumbers, signal);
          program.log(`Agent tool: onboarding summary of ${reports.length} machines.`);
          const watches = program.watches.kept ? program.watches.list() : undefined;
          return summaryText(reports, refused, this.resultContext(), watches);
        },
      }),
      [AGENT_TOOL_NAMES.serialNumbers]: tool({
        parse: parseSerialScopeInput,
        // A path written by a model, which a hostile file may steer: an unusual one may be asked about.
        question: (input) =>
          input.source === 'file' && input.file !== undefined && !isPlainPath(input.file)
            ? { kind: 'unusual-file', file: input.file }
            : undefined,
        answer: async (input, signal) => {
          const found = await program.scope.find(input, signal);
          if (signal.aborted) throw new ToolCancelledError();
          if (!found.ok) return invalidInputText(found.problem);
          const pinned = program.scope.pinned();
          const recent = program.scope.recent();
          const entries = found.found.map((serial): ScopeEntry => {
            // peek() makes no request: what was fetched before (or the stored copy).
            const cached = program.events.peek(serial.serialNumber);
            return {
              serialNumber: serial.serialNumber,
              locations: serial.locations,
              occurrences: serial.occurrences,
              pinned: pinned.has(serial.serialNumber),
              recent: recent.has(serial.serialNumber),
              ...definedOnly({ known: cached && { result: cached.result, stale: cached.stale || cached.error !== undefined } }),
            };
          });
          program.log(`Agent tool: ${entries.length} serial numbers found in ${found.where}.`);
          return scopeText(
            entries,
            {
              where: found.where,
              capped: found.capped,
              signedIn: (await program.signInProblem()) === undefined,
              knownFrom: program.scope.knownFrom,
              ...definedOnly({ file: found.file, filesScanned: found.filesScanned, patternProblem: found.patternProblem }),
            },
            { now: Date.now(), rules: program.rules() },
            { events: AGENT_TOOL_NAMES.machineEvents, summary: AGENT_TOOL_NAMES.summary },
          );
        },
      }),
      [AGENT_TOOL_NAMES.watch]: tool({
        parse: parseWatchInput,
        question: ({ serialNumbers }) =>
          serialNumbers.length === 0 || !program.watches.kept ? undefined : { kind: 'watch', serialNumbers },
        answer: async ({ serialNumbers, refused }, signal) => {
          const watches = program.watches;
          if (!watches.kept) return watches.noneText(serialNumbers.length);
          const started: WatchStartReport[] = [];
          // One after another: the watch limit and "already watched" are answered against the list as it grows.
          for (const serialNumber of serialNumbers) {
            if (signal.aborted) throw new ToolCancelledError();
            try {
              started.push({ serialNumber, answer: await watches.start(serialNumber) });
            } catch (error) {
              started.push({ serialNumber, answer: { kind: 'error', message: program.failureText(error) } });
            }
          }
          if (serialNumbers.length > 0) program.log(`Agent tool: asked to watch ${serialNumbers.length} machines.`);
          return watchText(started, watches.list(), refused, this.resultContext());
        },
      }),
    };
  }

  /**
   * The tool's answer: turned off, then sign-in, then the input, then the user's agreement. Sign-in before the
   * input: whatever the input, the user must act first, and the agent learns that without a round of fixing input.
   */
  async answer(name: string, given: unknown, signal: AbortSignal, ask?: AskUser): Promise<ToolAnswer> {
    if (!Object.hasOwn(this.tools, name)) return { text: invalidInputText(`there is no tool ${JSON.stringify(name.slice(0, 100))}.`) };
    const toolName = name as AgentToolName;
    const off = this.program.turnedOff();
    if (off !== undefined) return { text: off };
    if (AGENT_TOOLS[toolName].needsSignIn) {
      const problem = await this.program.signInProblem();
      if (problem !== undefined) return { text: problem };
    }
    const definition = this.tools[toolName] as Tool<unknown>;
    const input = definition.parse(given);
    if (!input.ok) return { text: invalidInputText(input.problem) };
    const question = ask === undefined ? undefined : definition.question(input.value);
    const stopped = question === undefined ? undefined : await ask?.(question);
    if (stopped !== undefined) return stopped;
    return { text: await definition.answer(input.value, signal) };
  }

  /** The question a call with this input would raise, for a program that asks before the call (VS Code's chat). */
  questionOf(name: AgentToolName, given: unknown): ToolQuestion | undefined {
    const definition = this.tools[name] as Tool<unknown>;
    const input = definition.parse(given);
    return input.ok ? definition.question(input.value) : undefined;
  }

  private resultContext(): ResultContext {
    return { now: Date.now(), environment: this.program.environment(), rules: this.program.rules(), learned: this.program.learned() };
  }

  /** Each machine's events through the cache; a failure is reported per machine, with the last good result when there is one. */
  private async readMachines(serialNumbers: readonly string[], signal: AbortSignal): Promise<MachineReport[]> {
    const { events } = this.program;
    const reports = await Promise.all(
      serialNumbers.map(async (serialNumber): Promise<MachineReport> => {
        try {
          return { serialNumber, outcome: { kind: 'events', result: await events.get(serialNumber, { signal }), stale: false } };
        } catch (error) {
          if (signal.aborted || (isApiError(error) && error.kind === 'cancelled')) throw new ToolCancelledError();
          const message = this.program.failureText(error);
          // The cache keeps the last good result when a refresh fails: shown, marked.
          const previous = events.peek(serialNumber);
          return previous === undefined
            ? { serialNumber, outcome: { kind: 'error', message, ...(isApiError(error) ? { errorKind: error.kind } : {}) } }
            : { serialNumber, outcome: { kind: 'events', result: previous.result, stale: true, refreshError: message } };
        }
      }),
    );
    if (signal.aborted) throw new ToolCancelledError();
    return reports;
  }
}

function tool<Input>(definition: Tool<Input>): Tool<never> {
  return definition as Tool<never>;
}
