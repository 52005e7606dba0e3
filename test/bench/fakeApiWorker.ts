// Runs the fake service in a worker thread for the benchmark. In production the
// server is another machine; sharing the client's thread would charge the
// server's CPU time to the client and blur the ratios on a busy machine.

import { parentPort, workerData } from 'node:worker_threads';
import { startFakeApi } from '../support/fakeApi';
import type { RemoteFakeApiOptions, WorkerReply, WorkerRequest } from './remoteFakeApi';

async function serve(): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error('fakeApiWorker must run in a worker thread');
  const api = await startFakeApi((workerData ?? {}) as RemoteFakeApiOptions);
  port.postMessage({ id: 0, baseUrl: api.baseUrl, authUrl: api.authUrl } satisfies WorkerReply);
  port.on('message', (request: WorkerRequest) => {
    void (async () => {
      switch (request.command) {
        case 'setLatency':
          api.setLatency(request.ms);
          break;
        case 'configure':
          api.configure(request.patch);
          break;
        case 'reset':
          api.clearRequests();
          api.resetLoadStats();
          break;
        case 'close':
          await api.close();
          break;
        case 'counts':
          break;
      }
      port.postMessage({
        id: request.id,
        tokenRequests: api.tokenRequests().length,
        requests: api.requests.length,
        eventRequests: api.eventRequests().length,
        load: api.loadStats(),
      } satisfies WorkerReply);
    })();
  });
}

void serve();
