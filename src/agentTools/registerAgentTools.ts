// Language Model Tools for agents (Copilot's agent mode, or any extension
// through vscode.lm.invokeTool): read-only answers about machines' onboarding.
// The manifest declares them (contributes.languageModelTools, hidden by
// onboardingEvents.agentTools.enabled = false); this registers their
// implementations. Everything they read goes through the views' own services.
import * as vscode from 'vscode';
import type { EventsCache } from '../eventsCache/eventsCache';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { MachinesApi } from '../workbench/contracts/features';
import { LANGUAGE_MODEL_TOOLS, type LanguageModelToolName } from '../workbench/constants';
import type { Log } from '../workbench/log';
import type { SettingsReader } from '../workbench/settings';
import { MachineEventsTool } from './machineEventsTool';
import { OnboardingSummaryTool } from './onboardingSummaryTool';
import { SerialNumbersTool } from './serialNumbersTool';
import type { WorkspaceScanner } from './serialSources';
import type { SerialSettings } from '../workbench/serialSettings';

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

/** Registers the tools with VS Code; returns them by name. */
export function registerAgentTools(context: vscode.ExtensionContext, deps: AgentToolsDeps): AgentTools {
  const tools: AgentTools = {
    [LANGUAGE_MODEL_TOOLS.machineEvents]: new MachineEventsTool(deps),
    [LANGUAGE_MODEL_TOOLS.serialNumbers]: new SerialNumbersTool(deps),
    [LANGUAGE_MODEL_TOOLS.summary]: new OnboardingSummaryTool(deps),
  };
  for (const [name, tool] of Object.entries(tools)) context.subscriptions.push(vscode.lm.registerTool(name, tool));
  return tools;
}
