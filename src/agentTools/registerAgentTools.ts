// Language Model Tools for agents (Copilot's agent mode, or any extension
// through vscode.lm.invokeTool): read-only answers about machines' onboarding.
// The manifest declares them (contributes.languageModelTools, hidden by
// onboardingEvents.agentTools.enabled = false); this registers their
// implementations. Everything they read goes through the views' own services.
import * as vscode from 'vscode';
import type { EventsCache } from '../eventsCache/eventsCache';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { MachinesApi } from '../workbench/contracts/machinesApi';
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

/**
 * What integration tests may do with the registered tools beyond
 * vscode.lm.invokeTool: run prepareInvocation, which VS Code calls before
 * invoking and whose confirmation it shows as a modal dialog that a test
 * cannot answer when there is no chat.
 */
export interface AgentToolsTestHook {
  prepare(name: LanguageModelToolName, input: unknown): Promise<vscode.PreparedToolInvocation | null | undefined>;
}

export function registerAgentTools(context: vscode.ExtensionContext, deps: AgentToolsDeps): AgentToolsTestHook {
  const tools: Record<LanguageModelToolName, vscode.LanguageModelTool<unknown>> = {
    [LANGUAGE_MODEL_TOOLS.machineEvents]: new MachineEventsTool(deps),
    [LANGUAGE_MODEL_TOOLS.serialNumbers]: new SerialNumbersTool(deps),
    [LANGUAGE_MODEL_TOOLS.summary]: new OnboardingSummaryTool(deps),
  };
  for (const [name, tool] of Object.entries(tools)) context.subscriptions.push(vscode.lm.registerTool(name, tool));
  return {
    prepare: async (name, input) => {
      const source = new vscode.CancellationTokenSource();
      try {
        return await tools[name].prepareInvocation?.({ input }, source.token);
      } finally {
        source.dispose();
      }
    },
  };
}
