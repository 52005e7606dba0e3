// What activate() returns. Any other extension can read it, so it is built of
// closures over the services rather than the services themselves: nothing in
// it reaches the session, the API client or the credential store, however
// deep someone walks the object graph.
import * as vscode from 'vscode';
import type { CacheEntry, EventsCache } from '../core/eventsCache/eventsCache';
import type { MachinesApi } from './workbench/contracts/features';
import type { ArgumentTrust, ExtensionRequest } from './workbench/argumentTrust';

/**
 * What other extensions may do with the events cache: read what the user's
 * own views already fetched. Nothing here asks the API under the user's
 * sign-in, so another extension can't make authenticated reads in the user's name.
 */
export interface PublicEvents {
  peek(serialNumber: string): CacheEntry | undefined;
  clear(): void;
}

export interface OnboardingEventsExtensionApi {
  /** Milliseconds activate() took, measured by the extension itself. */
  readonly activationMs: number;
  readonly machines: MachinesApi;
  readonly events: PublicEvents;
}

export interface PublicApiParts {
  readonly activationMs: number;
  readonly machines: MachinesApi;
  readonly events: EventsCache;
  /** Asks the user before another extension lists a machine (reveal only selects a listed machine and never loads one). */
  readonly trust: ArgumentTrust;
}

export function publicApi(parts: PublicApiParts): OnboardingEventsExtensionApi {
  const { machines, events, trust } = parts;
  return {
    activationMs: parts.activationMs,
    machines: {
      // Another extension may select a machine the user listed, but never make the tree load one: no authenticated request in the user's name.
      reveal: async (serialNumber) => {
        if (machines.revealListed === undefined) return machines.reveal(serialNumber);
        await machines.revealListed(serialNumber);
      },
      // A listed machine is loaded by the tree: the user agrees first (the one rule, workbench/argumentTrust.ts).
      pin: async (serialNumber) => {
        if (await trust.confirm(askToList(serialNumber, 'pin'))) await machines.pin(serialNumber);
      },
      addRecent: (serialNumber) => {
        // The contract returns void: the machine is added once the user agreed.
        void trust.confirm(askToList(serialNumber, 'recent')).then((yes) => {
          if (yes) machines.addRecent(serialNumber);
        });
      },
      pinned: () => machines.pinned(),
      recent: () => machines.recent(),
      clearRecent: () => {
        machines.clearRecent();
      },
    },
    events: {
      peek: (serialNumber) => events.peek(serialNumber),
      clear: () => {
        events.clear();
      },
    },
  };
}

/** What another extension asks when it lists a machine, whose events the Machines view then loads with the user's sign-in. */
function askToList(serialNumber: string, what: 'pin' | 'recent'): ExtensionRequest {
  return {
    // The modal makes it inert (inertNotificationText, extension.ts).
    title:
      what === 'pin'
        ? vscode.l10n.t('Another extension asks to pin {0} in the Machines view.', serialNumber)
        : vscode.l10n.t('Another extension asks to add {0} to the recent machines.', serialNumber),
    detail: vscode.l10n.t('The Machines view then loads its onboarding events with your sign-in.'),
    action: what === 'pin' ? vscode.l10n.t('Pin') : vscode.l10n.t('Add'),
  };
}
