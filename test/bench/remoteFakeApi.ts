// The benchmark's handle on a fake service running in a worker thread: only
// the few operations the benchmark needs, sent as messages. The server gets its
// own thread (and event loop) so its work is not charged to the client.

import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FakeApiConfig, FakeApiOptions, LoadStats } from '../support/fakeApi';
import { benchTls, closeBareDispatcher, type BenchTrust, type FakeEndpoints } from './benchSupport';

export type WorkerCommand =
  | { readonly command: 'setLatency'; readonly ms: number }
  | { readonly command: 'configure'; readonly patch: Partial<FakeApiConfig> }
  | { readonly command: 'counts' }
  | { readonly command: 'reset' }
  | { readonly command: 'close' };

export type WorkerRequest = { readonly id: number } & WorkerCommand;

export interface Counts {
  readonly tokenRequests: number;
  readonly requests: number;
  readonly eventRequests: number;
  readonly load: LoadStats;
}

export type WorkerReply = { readonly id: 0; readonly baseUrl: string; readonly authUrl: string } | ({ readonly id: number } & Counts);

/** Options for the worker's fake; `data` must be structured-cloneable (it is: plain JSON). */
export type RemoteFakeApiOptions = Omit<FakeApiOptions, 'foreignOrigin'>;

export class RemoteFakeApi implements FakeEndpoints {
  #nextId = 1;
  readonly #pending = new Map<number, (counts: Counts) => void>();

  private constructor(
    private readonly worker: Worker,
    readonly baseUrl: string,
    readonly authUrl: string,
    readonly trust: BenchTrust | undefined,
  ) {
    worker.on('message', (reply: WorkerReply) => {
      if (!('tokenRequests' in reply)) return;
      this.#pending.get(reply.id)?.(reply);
      this.#pending.delete(reply.id);
    });
  }

  static start(options: RemoteFakeApiOptions = {}): Promise<RemoteFakeApi> {
    return RemoteFakeApi.#start(options, undefined);
  }

  /** The fake over HTTPS, as the real API is: its certificate from the bench's test CA, which `trust` names. */
  static startHttps(options: Omit<RemoteFakeApiOptions, 'tls'> = {}): Promise<RemoteFakeApi> {
    const { tls, trust } = benchTls();
    return RemoteFakeApi.#start({ ...options, tls }, trust);
  }

  static #start(options: RemoteFakeApiOptions, trust: BenchTrust | undefined): Promise<RemoteFakeApi> {
    const worker = new Worker(join(__dirname, 'fakeApiWorker.js'), { workerData: options });
    return new Promise((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', (reply: WorkerReply) => {
        if ('baseUrl' in reply) resolve(new RemoteFakeApi(worker, reply.baseUrl, reply.authUrl, trust));
      });
    });
  }

  setLatency(ms: number): Promise<Counts> {
    return this.#send({ command: 'setLatency', ms });
  }

  configure(patch: Partial<FakeApiConfig>): Promise<Counts> {
    return this.#send({ command: 'configure', patch });
  }

  counts(): Promise<Counts> {
    return this.#send({ command: 'counts' });
  }

  /** Forgets recorded requests and load statistics. */
  reset(): Promise<Counts> {
    return this.#send({ command: 'reset' });
  }

  async close(): Promise<void> {
    await closeBareDispatcher(this);
    await this.#send({ command: 'close' });
    await this.worker.terminate();
  }

  #send(command: WorkerCommand): Promise<Counts> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.worker.postMessage({ id, ...command });
    });
  }
}
