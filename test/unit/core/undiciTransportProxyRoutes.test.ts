// The proxy routes of the undici transport beyond the common case: a proxy
// URL undici cannot use, a password without a user, and close() ending every
// request still waiting behind a proxy.

import * as assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createUndiciTransport } from '../../../src/core/client/http/undiciTransport';
import { getRequest, transportFailureOf, transportOptions } from './transportRequests';
import { startRecordingProxy } from '../../support/network/recordingProxy';
import { PLANT_HOST } from '../../support/network/testPki';

describe('undici transport: proxy routes', function () {
  this.timeout(15_000);

  it('refuses a proxy URL with a scheme undici cannot use as a proxy', async () => {
    const transport = createUndiciTransport(transportOptions({ proxy: 'ftp://proxy.corp:21' }));
    try {
      const error = await transportFailureOf(transport.request(getRequest(`https://${PLANT_HOST}/`)));
      assert.deepEqual([error.failure, error.code], ['proxy-invalid', 'ERR_INVALID_PROXY']);
    } finally {
      await transport.close();
    }
  });

  it('a password without a user is not sent, so a 407 says credentials are required, not rejected', async () => {
    const proxy = await startRecordingProxy({ hosts: [PLANT_HOST], credentials: { user: 'plant', password: 'secret' } });
    const transport = createUndiciTransport(transportOptions({ proxy: `http://:secret@127.0.0.1:${proxy.port}` }));
    try {
      const error = await transportFailureOf(transport.request(getRequest(`https://${PLANT_HOST}:1/`)));
      assert.equal(error.failure, 'proxy-auth-required');
      assert.equal(error.context.proxyCredentialsSent, false);
      assert.ok(proxy.visits.every((visit) => !visit.headerNames.includes('proxy-authorization')));
    } finally {
      await transport.close();
      await proxy.close();
    }
  });

  it('close() ends every request waiting behind the proxy, however many there are', async () => {
    const arrived: IncomingMessage[] = [];
    const sockets = new Set<Socket>();
    const silent = createServer((req) => arrived.push(req));
    silent.on('connection', (socket: Socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const proxy = await startRecordingProxy({ hosts: [PLANT_HOST] });
    const transport = createUndiciTransport(transportOptions({ proxy: proxy.url }));
    try {
      const pending = [1, 2, 3].map((n) => transportFailureOf(transport.request(getRequest(`http://${PLANT_HOST}:${port}/${n}`))));
      while (arrived.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
      await transport.close();
      for (const error of await Promise.all(pending)) assert.deepEqual([error.failure, error.code], ['connection', 'UND_ERR_DESTROYED']);
    } finally {
      await proxy.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
