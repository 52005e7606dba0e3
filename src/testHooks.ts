// The one place the test hooks are put together: read-only observations (and
// a few steering handles) that the integration tests reach through the
// extension's exports. Each feature builds its own hook object (cheap
// closures, no credentials, no client); whether they are exported at all is
// decided here, from isTestMode(), and nowhere else.
import type { AgentToolsTestHook } from './agentTools/registerAgentTools';
import type { DetailsTestHook } from './details/testHook';
import type { EditorInspector } from './editor/registerEditor';
import type { EventsResult } from './core/model';
import type { EventsCache, GetOptions } from './eventsCache/eventsCache';
import type { LinksTestHook } from './links/registerLinks';
import type { SessionDiagnostics } from './session/testHook';
import type { MachinesTreeInspector } from './workbench/contracts/machinesApi';
import type { ArgumentTrust } from './workbench/argumentTrust';
import type { IDisposable } from './common/lifecycle';

export interface TestHooks {
  readonly session: SessionDiagnostics;
  readonly details: DetailsTestHook | undefined;
  readonly editor: EditorInspector;
  readonly machines: MachinesTreeInspector | undefined;
  readonly agentTools: AgentToolsTestHook;
  readonly links: LinksTestHook;
  /** Authenticated reads through the cache: for our tests only, never for other extensions. */
  readonly getEvents: (serialNumber: string, options?: GetOptions) => Promise<EventsResult>;
  /** Until disposed, command arguments and the exported API behave as outside test mode (ask, never act unseen). */
  readonly actAsUser: () => IDisposable;
}

export interface TestHookParts {
  readonly testMode: boolean;
  readonly session: SessionDiagnostics;
  readonly details: DetailsTestHook | undefined;
  readonly editor: EditorInspector;
  readonly machines: MachinesTreeInspector | undefined;
  readonly agentTools: AgentToolsTestHook;
  readonly events: EventsCache;
  readonly links: LinksTestHook;
  readonly trust: ArgumentTrust;
}

/** The hooks, or undefined outside ExtensionMode.Test. */
export function testHooks(parts: TestHookParts): TestHooks | undefined {
  if (!parts.testMode) return undefined;
  return {
    session: parts.session,
    details: parts.details,
    editor: parts.editor,
    machines: parts.machines,
    agentTools: parts.agentTools,
    links: parts.links,
    getEvents: (serialNumber, options) => parts.events.get(serialNumber, options),
    actAsUser: () => parts.trust.actAsUser(),
  };
}
