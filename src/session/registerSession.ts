// SCAFFOLD (replaced by the sign-in work): a session that is always signed out.
import * as vscode from 'vscode';
import type { Log } from '../log/log';
import type { ApiSession, SessionState } from './apiSession';

export function registerSession(_context: vscode.ExtensionContext, _log: Log): ApiSession {
  const emitter = new vscode.EventEmitter<SessionState>();
  return {
    state: { kind: 'signed-out' },
    onDidChangeState: emitter.event,
    client: () => undefined,
    reportCredentialsRejected: () => undefined,
    dispose: () => emitter.dispose(),
  };
}
