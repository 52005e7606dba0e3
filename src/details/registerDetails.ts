// SCAFFOLD (replaced by the event-details work).
import type * as vscode from 'vscode';
import type { Log } from '../log/log';
import type { ApiSession } from '../session/apiSession';
import type { DetailsApi } from './detailsApi';

export function registerDetails(_context: vscode.ExtensionContext, _deps: { session: ApiSession; log: Log }): DetailsApi {
  return { show: () => Promise.resolve() };
}
