// Every id the extension shares with VS Code: commands, views, the webview
// type, context keys, state keys. One typed table, so no id is a string
// literal twice and a renamed command fails to compile instead of failing to
// run. package.json names the same ids; a unit test holds the two together.

export const COMMANDS = {
  signIn: 'onboardingEvents.signIn',
  signInAgain: 'onboardingEvents.signInAgain',
  signOut: 'onboardingEvents.signOut',
  switchEnvironment: 'onboardingEvents.switchEnvironment',
  sessionMenu: 'onboardingEvents.sessionMenu',
  showLog: 'onboardingEvents.showLog',
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
  lookUpMachine: 'onboardingEvents.lookUpMachine',
  lookUpSerialAtCursor: 'onboardingEvents.lookUpSerialAtCursor',
  revealMachine: 'onboardingEvents.revealMachine',
  clearLookupHistory: 'onboardingEvents.clearLookupHistory',
  /** Targets of the serial-number hover's command links; not in the palette. */
  hoverShowDetails: 'onboardingEvents.serialHover.showDetails',
  hoverReveal: 'onboardingEvents.serialHover.reveal',
  hoverPin: 'onboardingEvents.serialHover.pin',
  hoverCopy: 'onboardingEvents.serialHover.copy',
  /** A link (vscode://…/machine?serial=…) that opens the machine in VS Code: tree items, hovers, the details panel, quick fixes. */
  copyLinkToMachine: 'onboardingEvents.copyLinkToMachine',
  /** Target of the "Not a serial number" quick fix: adds it to the deny list in a scope the user picks; not in the palette. */
  notASerialNumber: 'onboardingEvents.glance.notASerialNumber',
} as const;

export type CommandName = keyof typeof COMMANDS;
export type CommandId = (typeof COMMANDS)[CommandName];

/** VS Code's own commands the extension runs. */
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
} as const;

/** Context keys the manifest's `when` clauses read. */
export const CONTEXT_KEYS = {
  signedIn: 'onboardingEvents.signedIn',
  hasEnvironments: 'onboardingEvents.hasEnvironments',
  hasMachines: 'onboardingEvents.hasMachines',
  filtered: 'onboardingEvents.filtered',
  serialAtCursor: 'onboardingEvents.serialAtCursor',
} as const;

export type ContextKey = (typeof CONTEXT_KEYS)[keyof typeof CONTEXT_KEYS];
