// The extension's log: a LogOutputChannel ("Onboarding Events") for requests
// and errors. Every line passes through the redactor first.
import * as vscode from 'vscode';
import { requestLogLine, type RequestLogEntry } from '../../core/client/http/httpClient';
import { Redactor } from '../../core/common/redact';
import { errorMessage } from '../../core/common/errors';

/** Failures of a request that are not about the network: no Test Connection hint for them. */
const NOT_NETWORK = new Set(['aborted', 'too-large', 'invalid-url']);
/** A refresh burst fails many requests at once: one hint per this long is enough. */
const HINT_INTERVAL_MS = 60_000;

export class Log implements vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;
  readonly redactor = new Redactor();
  private lastHintAt = Number.NEGATIVE_INFINITY;

  constructor(name = 'Onboarding Events') {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  info(message: string): void {
    this.channel.info(this.redactor.redact(message));
  }

  warn(message: string): void {
    this.channel.warn(this.redactor.redact(message));
  }

  error(message: string, error?: unknown): void {
    const detail = error instanceof Error || typeof error === 'string' ? `: ${errorMessage(error)}` : '';
    this.channel.error(this.redactor.redact(`${message}${detail}`));
  }

  /** One line per HTTP request: method, URL, status, duration. */
  request(entry: RequestLogEntry): void {
    const line = requestLogLine(entry);
    if (entry.status !== undefined && entry.status < 400 && entry.certificateChecksOff !== true) this.info(line);
    else this.warn(line);
    const failure = entry.error?.split(' ')[0];
    if (
      entry.status === undefined &&
      failure !== undefined &&
      !NOT_NETWORK.has(failure) &&
      Date.now() - this.lastHintAt >= HINT_INTERVAL_MS
    ) {
      this.lastHintAt = Date.now();
      this.info(vscode.l10n.t("Run 'Onboarding Events: Test Connection' to see step by step where the connection to the API fails."));
    }
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
