// The benchmark's handle on a fake service running in a worker thread: only
// the few operations the benchmark needs, sent as messages.

import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

export type WorkerRequest = { readonly id: number } & ({ readonly command: 'setLatency'; readonly ms: number } | { readonly command: 'counts' } | { readonly command: 'close' });

export type WorkerReply =
  | { readonly id: 0; readonly baseUrl: string; readonly authUrl: string }
  | { readonly id: number; readonly tokenRequests: number; readonly requests: number };

export interface Counts {
  readonly tokenRequests: number;
  readonly requests: number;
}

export class RemoteFakeApi {
  #nextId = 1;
  readonly #pending = new Map<number, (counts: Counts) => void>();

  private constructor(
    private readonly worker: Worker,
    readonly baseUrl: string,
    readonly authUrl: string,
  ) {
    worker.on('message', (reply: WorkerReply) => {
      if (!('tokenRequests' in reply)) return;
      this.#pending.get(reply.id)?.({ tokenRequests: reply.tokenRequests, requests: reply.requests });
      this.#pending.delete(reply.id);
    });
  }

  static start(): Promise<RemoteFakeApi> {
    const worker = new Worker(join(__dirname, 'fakeApiWorker.js'));
    return new Promise((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', (reply: WorkerReply) => {
        if ('baseUrl' in reply) resolve(new RemoteFakeApi(worker, reply.baseUrl, reply.authUrl));
      });
    });
  }

  setLatency(ms: number): Promise<Counts> {
    return this.#send({ command: 'setLatency', ms });
  }

  counts(): Promise<Counts> {
    return this.#send({ command: 'counts' });
  }

  async close(): Promise<void> {
    await this.#send({ command: 'close' });
    await this.worker.terminate();
  }

  #send(request: { command: 'setLatency'; ms: number } | { command: 'counts' } | { command: 'close' }): Promise<Counts> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.worker.postMessage({ id, ...request });
    });
  }
}
