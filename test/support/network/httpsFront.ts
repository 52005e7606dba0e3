// HTTPS in front of the fake API: a TLS server on 127.0.0.1 that terminates
// TLS with a test certificate and passes the bytes on to the fake's plain
// HTTP port, so every fake-API feature (faults, recorded requests) works over
// HTTPS unchanged. Records the SNI names clients asked for.

import { connect, type Socket } from 'node:net';
import { createServer, type TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { KeyPair } from './testPki';

export interface HttpsFront {
  readonly port: number;
  /** TLS handshakes that completed. */
  readonly handshakes: number;
  /** Swaps the certificate for the next connections (e.g. an expired one). */
  useCertificate(pair: KeyPair): void;
  /** Closes every open connection (as an idle timeout would) and keeps listening: a proxy's tunnels end, and it logs them. */
  dropConnections(): void;
  close(): Promise<void>;
}

export async function startHttpsFront(targetPort: number, pair: KeyPair): Promise<HttpsFront> {
  const sockets = new Set<Socket>();
  let handshakes = 0;
  const server = createServer({ key: pair.key, cert: pair.cert }, (tlsSocket: TLSSocket) => {
    handshakes++;
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(tlsSocket);
    sockets.add(upstream);
    const drop = (): void => {
      tlsSocket.destroy();
      upstream.destroy();
      sockets.delete(tlsSocket);
      sockets.delete(upstream);
    };
    tlsSocket.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    tlsSocket.pipe(upstream).pipe(tlsSocket);
  });
  // Failed handshakes are what several tests provoke: not an error of the fake.
  server.on('tlsClientError', () => undefined);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get handshakes() {
      return handshakes;
    },
    useCertificate(next) {
      server.setSecureContext({ key: next.key, cert: next.cert });
    },
    dropConnections() {
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}
