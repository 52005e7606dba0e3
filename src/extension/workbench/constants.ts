// Every id shared with VS Code in one typed table, so a renamed command fails to compile instead of
// failing to run; a unit test holds it to package.json.
import type * as vscode from 'vscode';
import { AGENT_TOOL_NAMES, type AgentToolName } from '../../core/domain/agentTools/toolDefinitions';

export const COMMANDS = {
  signIn: 'onboardingEvents.signIn',
  addEnvironment: 'onboardingEvents.addEnvironment',
  signInAgain: 'onboardingEvents.signInAgain',
  signOut: 'onboardingEvents.signOut',
  switchEnvironment: 'onboardingEvents.switchEnvironment',
  sessionMenu: 'onboardingEvents.sessionMenu',
  showLog: 'onboardingEvents.showLog',
  testConnection: 'onboardingEvents.testConnection',
  connectAgent: 'onboardingEvents.connectAgent',
  revokeAgentAccess: 'onboardingEvents.revokeAgentAccess',
  refresh: 'onboardingEvents.refresh',
  refreshMachine: 'onboardingEvents.refreshMachine',
  retryMachine: 'onboardingEvents.retryMachine',
  addMachine: 'onboardingEvents.addMachine',
  removeMachine: 'onboardingEvents.removeMachine',
  pinMachine: 'onboardingEvents.pinMachine',
  scanWorkspace: 'onboardingEvents.scanWorkspace',
  filterEvents: 'onboardingEvents.filterEvents',
  clearFilter: 'onboardingEvents.clearFilter',
  loadMore: 'onboardingEvents.loadMore',
  copySerialNumber: 'onboardingEvents.copySerialNumber',
  copyAssetId: 'onboardingEvents.copyAssetId',
  copyMessage: 'onboardingEvents.copyMessage',
  copyEventJson: 'onboardingEvents.copyEventJson',
  showEventDetails: 'onboardingEvents.showEventDetails',
  showRawJson: 'onboardingEvents.showRawJson',
  exportEvents: 'onboardingEvents.exportEvents',
  openBoard: 'onboardingEvents.openBoard',
  lookUpMachine: 'onboardingEvents.lookUpMachine',
  lookUpSerialAtCursor: 'onboardingEvents.lookUpSerialAtCursor',
  revealMachine: 'onboardingEvents.revealMachine',
  clearLookupHistory: 'onboardingEvents.clearLookupHistory',
  copyLinkToMachine: 'onboardingEvents.copyLinkToMachine',
  copyAsCurl: 'onboardingEvents.copyAsCurl',
  watchMachine: 'onboardingEvents.watchMachine',
  stopWatching: 'onboardingEvents.stopWatching',
  showWatches: 'onboardingEvents.showWatches',
  /** Target of the "Not a serial number" quick fix: adds it to the deny list in a scope the user picks; not in the palette. */
  notASerialNumber: 'onboardingEvents.notASerialNumber',
} as const;

export type CommandName = keyof typeof COMMANDS;
export type CommandId = (typeof COMMANDS)[CommandName];

/**
 * Retired command ids a user may have bound to a key, registered beside their command, never
 * contributed; the glossary test lets a retired word stand only here.
 */
export const COMMAND_ALIASES: Readonly<Record<string, CommandId>> = {
  'onboardingEvents.glance.notASerialNumber': COMMANDS.notASerialNumber,
};

export const BUILTIN_COMMANDS = {
  setContext: 'setContext',
  openSettings: 'workbench.action.openSettings',
} as const;

export const VIEWS = {
  container: 'onboardingEvents',
  machines: 'onboardingEvents.machines',
} as const;

export const WEBVIEWS = {
  details: 'onboardingEvents.details',
  board: 'onboardingEvents.board',
} as const;

export const LANGUAGE_MODEL_TOOLS = AGENT_TOOL_NAMES;

export type LanguageModelToolName = AgentToolName;

export const MCP_SERVER_PROVIDER = 'onboardingEvents.mcpServer';

export const CONTEXT_KEYS = {
  signedIn: 'onboardingEvents.signedIn',
  hasEnvironments: 'onboardingEvents.hasEnvironments',
  hasMachines: 'onboardingEvents.hasMachines',
  filtered: 'onboardingEvents.filtered',
  serialAtCursor: 'onboardingEvents.serialAtCursor',
} as const;

export type ContextKey = (typeof CONTEXT_KEYS)[keyof typeof CONTEXT_KEYS];

/** A unit test holds them to the features' strings and makes a new key choose whether it syncs. */
export const STATE_KEYS = {
  pinnedMachines: 'onboardingEvents.pinnedMachines',
  recentMachines: 'onboardingEvents.recentMachines',
  seenEvents: 'onboardingEvents.seenEvents',
  /** Environments (URLs, client id, user name): per machine; their secrets sit in SecretStorage, which does not sync. */
  environments: 'onboardingEvents.environments',
  lastEnvironment: 'onboardingEvents.lastEnvironment',
  /** The sign-in URLs the user confirmed per environment: a security decision of this machine, never synced. */
  confirmedEndpoints: 'onboardingEvents.confirmedEndpoints',
  /** Watched machines per environment, their newest event and outcome: this machine's work in progress, never synced. */
  watches: 'onboardingEvents.watches',
  /** Per agent kind, the agent key Connect an Agent writes into that agent's configuration on this machine: never synced. */
  agentKeys: 'onboardingEvents.agentKeys',
} as const;

/** Only the lists the user curates: never a secret, an environment or anything derived from results. */
export const SYNCED_STATE_KEYS: readonly string[] = [STATE_KEYS.pinnedMachines, STATE_KEYS.recentMachines];

export function registerSettingsSync(context: {
  readonly globalState: Pick<vscode.ExtensionContext['globalState'], 'setKeysForSync'>;
}): void {
  context.globalState.setKeysForSync(SYNCED_STATE_KEYS);
}
