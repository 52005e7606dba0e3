// Language Model Tools for agents (Copilot's agent mode, or any extension
// through vscode.lm.invokeTool): read-only answers about machines' onboarding.
// The manifest declares them (contributes.languageModelTools, hidden by
// onboardingEvents.agentTools.enabled = false); this defines and registers
// them. Everything they read goes through the views' own services; the wording
// of results lives in domain/agentTools (pure).
import * as vscode from 'vscode';
import { definedOnly } from '../common/definedOnly';
import type { EventsCache } from '../eventsCache/eventsCache';
import { parseMachineEventsInput, parseSerialScopeInput, parseSummaryInput, type Parsed } from '../domain/agentTools/toolInput';
import { invalidInputText, machineEventsText, scopeText, summaryText, type ScopeEntry } from '../domain/agentTools/toolResults';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { MachinesApi } from '../workbench/contracts/features';
import { LANGUAGE_MODEL_TOOLS, type LanguageModelToolName } from '../workbench/constants';
import type { Log } from '../workbench/log';
import type { SettingsReader } from '../workbench/settings';
import type { SerialSettings } from '../workbench/serialSettings';
import { serialsInScope, type WorkspaceScanner } from './serialSources';
import { environmentName, gate, prepareReading, readMachines } from './toolSupport';

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
}

export type AgentTools = Readonly<Record<LanguageModelToolName, vscode.LanguageModelTool<unknown>>>;

/** What makes one tool: everything else (the gate, the input check, the result's form) is the same for all. */
interface ToolDefinition<Input> {
  /** Tools that ask the API answer "sign in first" without a request; finding serial numbers needs no sign-in. */
  readonly needsSignIn: boolean;
  readonly parse: (input: unknown) => Parsed<Input>;
  /** The progress message (and confirmation); `input` is undefined when it does not parse. */
  prepare(input: Input | undefined): vscode.PreparedToolInvocation;
  answer(input: Input, token: vscode.CancellationToken): Promise<string>;
}

function languageModelTool<Input>(deps: AgentToolsDeps, definition: ToolDefinition<Input>): vscode.LanguageModelTool<unknown> {
  const textResult = (text: string): vscode.LanguageModelToolResult =>
    new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
  return {
    prepareInvocation: (options) => {
      const input = definition.parse(options.input);
      return definition.prepare(input.ok ? input.value : undefined);
    },
    invoke: async (options, token) => {
      const closed = gate(deps, definition.needsSignIn);
      if (closed !== undefined) return textResult(closed);
      const input = definition.parse(options.input);
      if (!input.ok) return textResult(invalidInputText(input.problem));
      return textResult(await definition.answer(input.value, token));
    },
  };
}

/** Registers the tools with VS Code; returns them by name. */
export function registerAgentTools(context: vscode.ExtensionContext, deps: AgentToolsDeps): AgentTools {
  const resultContext = () => ({ now: Date.now(), environment: environmentName(deps.session), rules: deps.settings.value.eventStates });
  const tools: AgentTools = {
    // One or more serial numbers → each machine's newest events, read through the views' cache.
    [LANGUAGE_MODEL_TOOLS.machineEvents]: languageModelTool(deps, {
      needsSignIn: true,
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
      answer: async ({ serialNumbers, maxEvents, refused }, token) => {
        const reports = await readMachines(deps, serialNumbers, token);
        deps.log.info(`Agent tool: events of ${serialNumbers.length} machines read.`);
        return machineEventsText(reports, { maxEvents, refused }, resultContext());
      },
    }),
    // The serial numbers in the active editor, a file or the workspace, with what
    // this window already knows of each (pinned, looked up recently, the cached
    // newest event). It sends no request, so it needs no sign-in and no confirmation.
    [LANGUAGE_MODEL_TOOLS.serialNumbers]: languageModelTool(deps, {
      needsSignIn: false,
      parse: parseSerialScopeInput,
      prepare: (input) => ({
        invocationMessage:
          input?.source === 'workspace'
            ? vscode.l10n.t('Finding serial numbers in the workspace')
            : input?.source === 'file'
              ? vscode.l10n.t('Finding serial numbers in a file')
              : vscode.l10n.t('Finding serial numbers in the active editor'),
      }),
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
    [LANGUAGE_MODEL_TOOLS.summary]: languageModelTool(deps, {
      needsSignIn: true,
      parse: parseSummaryInput,
      prepare: (input) => {
        const serials = input?.serialNumbers ?? [];
        return prepareReading(deps, serials, vscode.l10n.t('Summarizing the onboarding of {0} machines', serials.length));
      },
      answer: async ({ serialNumbers, refused }, token) => {
        const reports = await readMachines(deps, serialNumbers, token);
        deps.log.info(`Agent tool: onboarding summary of ${reports.length} machines.`);
        return summaryText(reports, refused, resultContext());
      },
    }),
  };
  for (const [name, tool] of Object.entries(tools)) context.subscriptions.push(vscode.lm.registerTool(name, tool));
  return tools;
}
