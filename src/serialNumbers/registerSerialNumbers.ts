// SCAFFOLD (replaced by the serial-numbers work: hovers, links, look-up).
import type * as vscode from 'vscode';
import type { DetailsApi } from '../details/detailsApi';
import type { EventsService } from '../events/eventsService';
import type { Log } from '../log/log';
import type { MachinesApi } from '../machines/machinesApi';
import type { ApiSession } from '../session/apiSession';

export interface SerialNumbersDeps {
  readonly session: ApiSession;
  readonly events: EventsService;
  readonly machines: MachinesApi;
  readonly details: DetailsApi;
  readonly log: Log;
}

export function registerSerialNumbers(_context: vscode.ExtensionContext, _deps: SerialNumbersDeps): void {
  // Nothing yet.
}
