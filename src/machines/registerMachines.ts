// SCAFFOLD (replaced by the Machines tree work).
import type * as vscode from 'vscode';
import type { DetailsApi } from '../details/detailsApi';
import type { EventsService } from '../events/eventsService';
import type { Log } from '../log/log';
import type { ApiSession } from '../session/apiSession';
import type { MachinesApi } from './machinesApi';

export interface MachinesDeps {
  readonly session: ApiSession;
  readonly events: EventsService;
  readonly details: DetailsApi;
  readonly log: Log;
}

export function registerMachines(_context: vscode.ExtensionContext, _deps: MachinesDeps): MachinesApi {
  return {
    reveal: () => Promise.resolve(),
    pin: () => Promise.resolve(),
    addRecent: () => undefined,
    pinned: () => [],
    recent: () => [],
    clearRecent: () => undefined,
  };
}
