// Refreshes many machines with a fixed number of workers, so a refresh of
// 1,000 pinned machines keeps at most `concurrency` requests in the client's
// queue at a time and leaves room for hovers and look-ups in between. Pure
// TypeScript, unit-tested and measured by the bench.

export interface RefreshManyOptions {
  /** Workers; the core client's limit (the maxConcurrentRequests setting). */
  readonly concurrency: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface RefreshManyResult {
  readonly done: number;
  readonly failures: ReadonlyMap<string, unknown>;
  readonly cancelled: boolean;
}

export async function refreshMany(
  serialNumbers: readonly string[],
  refreshOne: (serialNumber: string) => Promise<unknown>,
  options: RefreshManyOptions,
): Promise<RefreshManyResult> {
  const unique = [...new Set(serialNumbers)];
  const failures = new Map<string, unknown>();
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < unique.length && options.signal?.aborted !== true) {
      const serial = unique[next++];
      if (serial === undefined) break;
      try {
        await refreshOne(serial);
      } catch (error) {
        failures.set(serial, error);
      }
      done++;
      options.onProgress?.(done, unique.length);
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(options.concurrency), unique.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return { done, failures, cancelled: options.signal?.aborted === true };
}
