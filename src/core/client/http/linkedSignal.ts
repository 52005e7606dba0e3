// One AbortController that follows other signals and, optionally, a deadline; dispose() lets go of both.
// Per request it is cheaper than AbortSignal.any and AbortSignal.timeout, whose weak references and
// timers stay behind until a garbage collection (a long-lived source signal gathers one per request).

export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** The deadline passed (not a source's abort). */
  readonly timedOut: boolean;
  /** Aborts it as a source would, with this reason. */
  abort(reason: unknown): void;
  dispose(): void;
}

export function linkedSignal(sources: readonly (AbortSignal | undefined)[], timeoutMs?: number): LinkedSignal {
  const controller = new AbortController();
  const listening: AbortSignal[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const dispose = (): void => {
    for (const source of listening) source.removeEventListener('abort', onAbort);
    listening.length = 0;
    clearTimeout(timer);
  };
  const abort = (reason: unknown): void => {
    dispose();
    controller.abort(reason);
  };
  function onAbort(this: AbortSignal): void {
    abort(this.reason);
  }
  for (const source of sources) {
    if (source === undefined) continue;
    if (source.aborted) {
      dispose();
      controller.abort(source.reason);
      break;
    }
    source.addEventListener('abort', onAbort);
    listening.push(source);
  }
  if (timeoutMs !== undefined && !controller.signal.aborted) {
    timer = setTimeout(() => {
      timedOut = true;
      dispose();
      // The reason AbortSignal.timeout gives, so whoever classifies the abort reads a deadline.
      controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    }, timeoutMs);
    // As AbortSignal.timeout's: a deadline alone does not keep a process alive.
    timer.unref();
  }
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    abort,
    dispose,
  };
}
