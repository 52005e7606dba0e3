// What every stage of Test Connection shares: the deadlines, the stages so far and the first
// failure's verdict, worded by the program's own wording of the client's errors, so the report
// and that program's messages never give different advice. The stages live by kind in connection*.ts.

import { once } from 'node:events';
import type { Socket } from 'node:net';
import type { Localize } from '../common/localize';
import { cancelledError, errorForTransportFailure, type ErrorWording } from './errors';
import { redactUrl } from './http/httpClient';
import { TransportError, type NetworkFailureContext } from './http/transport';
import { verdictOf, type CheckStage, type Verdict } from './connectionReport';

/** Every stage's deadline: a report that never arrives helps nobody. */
export const CHECK_LIMITS = {
  lookupMs: 5_000,
  /** The connect timeout setting, but never longer than this. */
  connectMs: 10_000,
  proxyAnswerMs: 10_000,
  tlsMs: 10_000,
  /** Each of the token and events requests (no retries: the report is about one attempt). */
  requestMs: 15_000,
  /** A proxy's answer to CONNECT is a status line and a few headers. */
  maxProxyAnswerBytes: 16 * 1024,
} as const;

/** The deadlines one check runs with: CHECK_LIMITS, or shorter ones a caller passes (never longer: see runConnectionCheck). */
export type CheckLimits = { readonly [K in Exclude<keyof typeof CHECK_LIMITS, 'maxProxyAnswerBytes'>]: number };

/**
 * The events request needs a serial number; without one from the caller it
 * asks for one nobody owns: an empty answer (or a 404) proves the path as well
 * as a machine's events, and reads no one's data.
 */
export const PROBE_SERIAL_NUMBER = 'CONNECTION-TEST-0000';

/** Test Connection's own verdicts whose advice names something of the program. */
export type CheckAdvice = 'fix-urls' | 'sign-in-then-test' | 'report-with-log';

/** How a program says what to do: about an error, and after Test Connection. */
export interface ProgramWording {
  readonly error: ErrorWording;
  readonly checkAdvice: (advice: CheckAdvice, t: Localize) => string;
  /** Where the program takes a CA file and a proxy from, as the report's facts name them (no proxy setting: only the environment). */
  readonly names: { readonly caFile: string; readonly proxySetting?: string };
}

/** The stages so far and the first failure's verdict. */
export class Check {
  readonly stages: CheckStage[] = [];
  verdict: Verdict | undefined;

  constructor(
    readonly t: Localize,
    readonly wording: ProgramWording,
    readonly signal: AbortSignal | undefined,
    readonly limits: CheckLimits,
  ) {}

  get failed(): boolean {
    return this.verdict !== undefined || this.signal?.aborted === true;
  }

  record(stage: CheckStage, verdict?: Verdict): void {
    this.stages.push(stage);
    if (verdict !== undefined) this.verdict ??= verdict;
  }

  skip(title: string, why: string): void {
    this.stages.push({ title, status: 'skipped', summary: why, details: [] });
  }
}

/** A stage's failure in the client's own terms, worded as the program words that error. */
export function verdictFor(
  check: Check,
  failure: TransportError['failure'],
  code: string,
  url: string,
  context: NetworkFailureContext = {},
): Verdict {
  const error = errorForTransportFailure(new TransportError(failure, code, context), 'GET', url, CHECK_LIMITS.requestMs);
  return verdictOf(check.wording.error(error, check.t));
}

class StepTimeout extends Error {
  readonly code = 'ETIMEDOUT';

  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

export function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'UNKNOWN';
}

/**
 * Runs `work` with a deadline of `ms` that the caller's signal may bring
 * forward; when it passes, `giveUp` tears down what the work holds (its
 * socket), so nothing lingers, and the stage reads ETIMEDOUT (or cancelled).
 */
export async function withDeadline<T>(
  ms: number,
  signal: AbortSignal | undefined,
  work: (deadline: AbortSignal) => Promise<T>,
  giveUp: () => void = () => undefined,
): Promise<T> {
  const timeout = AbortSignal.timeout(ms);
  const deadline = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
  try {
    return await work(deadline);
  } catch (error) {
    if (!deadline.aborted) throw error;
    giveUp();
    throw signal?.aborted === true ? cancelledError() : new StepTimeout(ms);
  }
}

/** Waits for a socket to be ready ('connect', 'secureConnect') within `ms`; past it, or cancelled, the socket is destroyed. */
export function socketReady<S extends Socket>(
  socket: S,
  event: 'connect' | 'secureConnect',
  ms: number,
  signal: AbortSignal | undefined,
): Promise<S> {
  return withDeadline(
    ms,
    signal,
    async (deadline) => {
      await once(socket, event, { signal: deadline });
      return socket;
    },
    () => socket.destroy(),
  );
}

export async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number } | { error: unknown; ms: number }> {
  const started = performance.now();
  try {
    const value = await run();
    return { value, ms: performance.now() - started };
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
}

export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

export function portOf(url: URL): number {
  return url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

export function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** A URL for the report, its credentials removed; a value that is not a URL is said so in `t`'s language. */
export function shownUrl(url: string, t: Localize): string {
  return parseUrl(url) === undefined ? t('(not a valid URL)') : redactUrl(url);
}
