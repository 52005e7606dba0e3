// What activate() returns. Any other extension can read it, so it is built of
// closures over the services rather than the services themselves: nothing in
// it reaches the session, the API client or the credential store, however
// deep someone walks the object graph.
import type { DetailsTestHook } from './details/testHook';
import type { CacheEntry, EventsCache, GetOptions } from './eventsCache/eventsCache';
import type { EventsResult } from './core/model';
import type { MachinesApi } from './workbench/contracts/machinesApi';
import type { EditorInspector } from './editor/registerEditor';
import type { SessionDiagnostics } from './session/testHook';
import type { TestHooks } from './testHooks';
import type { AgentToolsTestHook } from './agentTools/registerAgentTools';
import type { LinksTestHook } from './links/registerLinks';
import type { ArgumentTrust } from './workbench/argumentTrust';
import type { IDisposable } from './common/lifecycle';

/**
 * What other extensions may do with the events cache: read what the user's
 * own views already fetched. Asking the API under the user's sign-in
 * (`get`) is offered to our integration tests only (ExtensionMode.Test), so
 * another extension can't make authenticated reads in the user's name.
 */
export interface PublicEvents {
  peek(serialNumber: string): CacheEntry | undefined;
  clear(): void;
  readonly get?: (serialNumber: string, options?: GetOptions) => Promise<EventsResult>;
}

export interface OnboardingEventsExtensionApi {
  /** Milliseconds activate() took, measured by the extension itself. */
  readonly activationMs: number;
  readonly machines: MachinesApi;
  readonly events: PublicEvents;
  /** Sign-in observations for integration tests (no credentials); undefined outside ExtensionMode.Test. */
  readonly sessionTestHook: SessionDiagnostics | undefined;
  /** Event-details observations for integration tests; undefined outside ExtensionMode.Test. */
  readonly detailsTestHook: DetailsTestHook | undefined;
  /** How the last serial-number hover was answered and timed in the host; undefined outside ExtensionMode.Test. */
  readonly serialNumbersTestHook: EditorInspector | undefined;
  /** Runs the agent tools' prepareInvocation (their confirmations); undefined outside ExtensionMode.Test. */
  readonly agentToolsTestHook: AgentToolsTestHook | undefined;
  /** Runs the URI handler for integration tests; undefined outside ExtensionMode.Test. */
  readonly linksTestHook: LinksTestHook | undefined;
  /** Integration tests only: behave as outside test mode until disposed; undefined outside ExtensionMode.Test. */
  readonly actAsUser: (() => IDisposable) | undefined;
}

export interface PublicApiParts {
  readonly activationMs: number;
  readonly machines: MachinesApi;
  readonly events: EventsCache;
  /** Outside tests, reveal only selects a listed machine and never loads one (no request for another extension). */
  readonly trust: ArgumentTrust;
  /** Asks the user whether another extension may add a machine (whose events the tree then loads). */
  readonly confirmForExtension: (serialNumber: string, what: 'pin' | 'recent') => Promise<boolean>;
  /** Present only in ExtensionMode.Test (src/testHooks.ts decides). */
  readonly testHooks: TestHooks | undefined;
}

export function publicApi(parts: PublicApiParts): OnboardingEventsExtensionApi {
  const { machines, events, testHooks, trust } = parts;
  return {
    activationMs: parts.activationMs,
    machines: {
      // Another extension may select a machine the user listed, but never make the tree load one: no authenticated request in the user's name.
      reveal: async (serialNumber) => {
        if (trust.silent || machines.revealListed === undefined) return machines.reveal(serialNumber);
        await machines.revealListed(serialNumber);
      },
      // A listed machine is loaded by the tree: outside tests the user agrees first, in VS Code's own modal.
      pin: async (serialNumber) => {
        if (trust.silent || (await parts.confirmForExtension(serialNumber, 'pin'))) await machines.pin(serialNumber);
      },
      addRecent: (serialNumber) => {
        if (trust.silent) machines.addRecent(serialNumber);
        else
          void parts.confirmForExtension(serialNumber, 'recent').then((yes) => {
            if (yes) machines.addRecent(serialNumber);
          });
      },
      pinned: () => machines.pinned(),
      recent: () => machines.recent(),
      clearRecent: () => {
        machines.clearRecent();
      },
      ...(testHooks?.machines ? { inspector: testHooks.machines } : {}),
    },
    events: {
      peek: (serialNumber) => events.peek(serialNumber),
      clear: () => {
        events.clear();
      },
      ...(testHooks ? { get: testHooks.getEvents } : {}),
    },
    sessionTestHook: testHooks?.session,
    detailsTestHook: testHooks?.details,
    serialNumbersTestHook: testHooks?.editor,
    agentToolsTestHook: testHooks?.agentTools,
    linksTestHook: testHooks?.links,
    actAsUser: testHooks?.actAsUser,
  };
}
