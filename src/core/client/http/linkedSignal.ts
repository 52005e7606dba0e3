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

/**
 * One listener per source while anything follows it, none after: a check of 10,000 machines under one
 * Ctrl-C signal would otherwise hang 10,000 listeners on it, each removal a walk of the list.
 */
interface Followers {
  readonly waiting: Set<(reason: unknown) => void>;
  readonly listener: () => void;
}

const followed = new WeakMap<AbortSignal, Followers>();

function follow(source: AbortSignal, onAbort: (reason: unknown) => void): () => void {
  let followers = followed.get(source);
  if (followers === undefined) {
    const waiting = new Set<(reason: unknown) => void>();
    const listener = (): void => {
      followed.delete(source);
      const all = [...waiting];
      waiting.clear();
      for (const follower of all) follower(source.reason);
    };
    followers = { waiting, listener };
    followed.set(source, followers);
    source.addEventListener('abort', listener, { once: true });
  }
  const own = followers;
  own.waiting.add(onAbort);
  return () => {
    if (!own.waiting.delete(onAbort) || own.waiting.size > 0) return;
    source.removeEventListener('abort', own.listener);
    if (followed.get(source) === own) followed.delete(source);
  };
}

export function linkedSignal(sources: readonly (AbortSignal | undefined)[], timeoutMs?: number): LinkedSignal {
  const controller = new AbortController();
  const unfollow: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const dispose = (): void => {
    for (const stop of unfollow) stop();
    unfollow.length = 0;
    clearTimeout(timer);
  };
  const abort = (reason: unknown): void => {
    dispose();
    controller.abort(reason);
  };
  for (const source of sources) {
    if (source === undefined) continue;
    if (source.aborted) {
      abort(source.reason);
      break;
    }
    unfollow.push(follow(source, abort));
  }
  if (timeoutMs !== undefined && !controller.signal.aborted) {
    timer = setTimeout(() => {
      timedOut = true;
      // The reason AbortSignal.timeout gives, so whoever classifies the abort reads a deadline.
      abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
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
