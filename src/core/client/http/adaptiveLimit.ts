// How many requests may be in flight, learnt from the answers (the spec names no capacity): AIMD with a
// latency signal after Netflix's concurrency-limits and TCP slow start. Queued answers cut the limit to
// what the server served (Little's law), 429/503 mildly; a round is `limit` answers, so one round never cuts twice.

export type SampleOutcome = 'ok' | 'overload' | 'ignore';

export interface AdaptiveLimitOptions {
  readonly ceiling: number;
  readonly initial?: number;
  /** An answer slower than minLatency × this (+ latencySlackMs) counts as queued. */
  readonly latencyTolerance?: number;
  readonly latencySlackMs?: number;
  readonly latencyBackoff?: number;
  readonly overloadBackoff?: number;
  /** The minimum latency is forgotten after this long, so a slower network or server is learnt again. */
  readonly minLatencyWindowMs?: number;
}

export interface LimitSnapshot {
  readonly limit: number;
  readonly minLatencyMs: number | undefined;
  readonly slowStart: boolean;
  readonly increases: number;
  readonly decreases: number;
}

/**
 * Half the default ceiling: a healthy server sees the ceiling after one round trip; one that takes
 * fewer queues the rest or answers 429, whose Retry-After holds the whole queue.
 */
export const DEFAULT_INITIAL_LIMIT = 32;

/** At or below this limit, answers that stay slow mean a slower network or server, not our queue. */
export const RELEARN_AT_LIMIT = 4;
/** Rounds in a row, every answer slow, at or below RELEARN_AT_LIMIT before the minimum is learnt again. */
export const RELEARN_AFTER_ROUNDS = 3;

/** Allowance for the client's own handling of each answer in a burst (parse, validate, cache). */
const CLIENT_MS_PER_REQUEST = 0.5;

function emptyRound(): { samples: number; latencySum: number; min: number; queued: number; good: number } {
  return { samples: 0, latencySum: 0, min: Number.POSITIVE_INFINITY, queued: 0, good: 0 };
}

export interface SentRequest {
  readonly seq: number;
  /** Whether enough of the limit was in use for the answer to say the limit is too low. */
  readonly probing: boolean;
  readonly inFlight: number;
}

export class AdaptiveLimit {
  readonly ceiling: number;
  readonly #tolerance: number;
  readonly #slackMs: number;
  readonly #latencyBackoff: number;
  readonly #overloadBackoff: number;
  readonly #windowMs: number;
  #limit: number;
  #slowStart = true;
  #nextSeq = 0;
  #roundStart = 0;
  #round = emptyRound();
  #minCurrent = Number.POSITIVE_INFINITY;
  #minPrevious = Number.POSITIVE_INFINITY;
  #windowStartedAt: number | undefined;
  #increases = 0;
  #decreases = 0;
  /** Rounds in a row at or below RELEARN_AT_LIMIT in which every answer was slow. */
  #slowRoundsWhenLow = 0;

  constructor(options: AdaptiveLimitOptions) {
    if (!Number.isInteger(options.ceiling) || options.ceiling < 1)
      throw new RangeError(`The concurrency ceiling must be a positive integer, not ${options.ceiling}.`);
    this.ceiling = options.ceiling;
    this.#limit = Math.min(options.ceiling, Math.max(1, options.initial ?? DEFAULT_INITIAL_LIMIT));
    this.#tolerance = options.latencyTolerance ?? 1.5;
    this.#slackMs = options.latencySlackMs ?? 5;
    this.#latencyBackoff = options.latencyBackoff ?? 0.9;
    this.#overloadBackoff = options.overloadBackoff ?? 0.9;
    this.#windowMs = options.minLatencyWindowMs ?? 30_000;
  }

  get limit(): number {
    return Math.max(1, Math.floor(this.#limit));
  }

  get minLatencyMs(): number | undefined {
    const min = Math.min(this.#minCurrent, this.#minPrevious);
    return Number.isFinite(min) ? min : undefined;
  }

  snapshot(): LimitSnapshot {
    return {
      limit: this.limit,
      minLatencyMs: this.minLatencyMs,
      slowStart: this.#slowStart,
      increases: this.#increases,
      decreases: this.#decreases,
    };
  }

  /**
   * A request sent while under half the limit was in use says nothing of whether the limit is too low:
   * its answer will not grow it.
   */
  onSend(inFlight: number): SentRequest {
    return { seq: this.#nextSeq++, probing: inFlight * 2 >= this.limit, inFlight };
  }

  onSample(sent: SentRequest, latencyMs: number, outcome: SampleOutcome, now: number): void {
    if (outcome === 'ignore') return;
    const current = sent.seq >= this.#roundStart;
    if (outcome === 'overload') {
      if (current) this.#setLimit(Math.max(1, this.#limit * this.#overloadBackoff), 'down');
      return;
    }
    this.#recordLatency(latencyMs, now);
    const min = this.minLatencyMs ?? latencyMs;
    // Answers that arrive together are handled one after the other: the last of a burst of n
    // looks later by n × the client's own work. That is not the server queueing our requests.
    const queued = latencyMs > min * this.#tolerance + this.#slackMs + CLIENT_MS_PER_REQUEST * sent.inFlight;
    if (current) {
      this.#round.samples++;
      this.#round.latencySum += latencyMs;
      this.#round.min = Math.min(this.#round.min, latencyMs);
      if (queued) this.#round.queued++;
    }
    // Every good answer since the last change counts, or slow start would double only every other round trip.
    if (!queued && sent.probing && this.#round.queued === 0) this.#round.good++;
    if (this.#round.queued > 0) {
      // Cut once enough of the round has answered (Little's law), or at once when a quarter of it queued.
      const limit = this.limit;
      // One late answer may be a pause of this process (GC, a busy machine); a tenth of a round is a queue.
      const enough = this.#round.queued >= Math.max(2, Math.ceil(this.#round.samples / 10));
      if (!enough && this.#round.samples >= limit) {
        this.#slowRoundsWhenLow = 0;
        this.#round = { ...emptyRound(), good: this.#round.good };
        this.#roundStart = this.#nextSeq;
        return;
      }
      const allSlow = this.#round.queued === this.#round.samples;
      if (enough && allSlow && limit <= RELEARN_AT_LIMIT) {
        // No answer came near the minimum with too few requests out to queue: everything got slower. After a
        // few such rounds, learn the new minimum instead of cutting to one.
        if (this.#round.samples < limit) return;
        if (++this.#slowRoundsWhenLow >= RELEARN_AFTER_ROUNDS) {
          this.#minCurrent = this.#round.min;
          this.#minPrevious = this.#round.min;
          this.#slowRoundsWhenLow = 0;
          this.#slowStart = true;
        }
        this.#roundStart = this.#nextSeq;
        this.#round = emptyRound();
        return;
      }
      if (enough && (this.#round.samples >= limit || this.#round.queued * 4 >= limit)) {
        const mean = this.#round.latencySum / this.#round.samples;
        const factor = Math.min(this.#latencyBackoff, Math.max(0.5, min / mean));
        this.#setLimit(Math.max(1, this.#limit * factor), 'down');
      }
      return;
    }
    if (this.#round.good < this.limit) return;
    this.#setLimit(Math.min(this.ceiling, this.#slowStart ? this.#limit * 2 : this.#limit + 1), 'up');
  }

  #setLimit(limit: number, direction: 'up' | 'down'): void {
    this.#slowRoundsWhenLow = 0;
    if (direction === 'down') {
      this.#slowStart = false;
      this.#decreases++;
    } else {
      this.#increases++;
    }
    this.#limit = limit;
    this.#roundStart = this.#nextSeq;
    this.#round = emptyRound();
  }

  #recordLatency(latencyMs: number, now: number): void {
    this.#windowStartedAt ??= now;
    if (now - this.#windowStartedAt >= this.#windowMs) {
      this.#minPrevious = this.#minCurrent;
      this.#minCurrent = Number.POSITIVE_INFINITY;
      this.#windowStartedAt = now;
    }
    this.#minCurrent = Math.min(this.#minCurrent, latencyMs);
  }
}
