// Hostile corpus: what must never reach the log. Each row is a line the
// extension could log (a proxy URL, a JSON body, a form, a header) and the
// secret in it; after redaction none of the secret is left. Add a row.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redactor } from '../../../src/core/common/redact';
import { OnboardingClient } from '../../../src/core/client/onboardingClient';

interface Row {
  readonly name: string;
  /** Registered with addSecret before the line is redacted (none: the line's shape alone must give it away). */
  readonly secret?: string;
  readonly line: string;
  /** Text that must be gone. */
  readonly leaked: string;
}

const rows: readonly Row[] = [
  { name: 'user:password in a proxy URL', line: 'proxy http://alice:hunter2@proxy.corp.local:8080 failed', leaked: 'hunter2' },
  { name: 'user:password in an https URL', line: 'GET https://bob:s3cr3t@api.example.com/x', leaked: 's3cr3t' },
  {
    name: 'a JSON-escaped secret (quote and backslash)',
    secret: 'p4ss"w\\rd',
    line: '{"password":"p4ss\\"w\\\\rd","username":"u"}',
    leaked: 'w\\\\rd',
  },
  { name: 'a JSON-escaped secret in an unnamed field', secret: 'p4ss"w\\rd', line: '{"note":"p4ss\\"w\\\\rd"}', leaked: 'w\\\\rd' },
  { name: 'a non-ASCII secret as \\u escape', secret: 'S3cr€t!', line: '{"x":"S3cr\\u20act!"}', leaked: 'S3cr' },
  { name: 'a secret with spaces in a JSON credential field', line: '"client_secret": "correct horse battery staple"', leaked: 'horse' },
  { name: 'a secret with spaces in a form field', line: 'grant_type=password&password=correct horse battery&scope=api', leaked: 'horse' },
  { name: 'a secret with spaces, registered', secret: 'correct horse battery', line: 'value: correct horse battery.', leaked: 'horse' },
  { name: 'a secret under 4 characters, standing alone', secret: 'x9', line: 'password was x9 then', leaked: ' x9 ' },
  { name: 'a one-character secret in a form', secret: 'q', line: 'username=u&password=q&scope=api', leaked: '=q&' },
  { name: 'an opaque token after lower-case bearer', line: 'authorization: bearer 8f1c2d3e4f5a6b7c', leaked: '8f1c2d3e4f5a6b7c' },
  { name: 'an opaque token after BEARER', line: 'Authorization: BEARER abc~def+ghi/jkl=', leaked: 'abc~def' },
  {
    name: 'an opaque token registered on arrival, logged bare',
    secret: 'opaque.Token-value_123',
    line: 'token opaque.Token-value_123 expired',
    leaked: 'opaque.Token',
  },
];

describe('hostile input: log redaction', () => {
  for (const row of rows) {
    it(`${row.name}: nothing of it is left`, () => {
      const redactor = new Redactor();
      if (row.secret !== undefined) redactor.addSecret(row.secret);
      const out = redactor.redact(row.line);
      assert.ok(!out.includes(row.leaked), `${JSON.stringify(row.line)} → ${JSON.stringify(out)}`);
      assert.match(out, /\[redacted\]/);
    });
  }

  it('a short secret does not shred the words that contain it', () => {
    const redactor = new Redactor();
    redactor.addSecret('ab');
    assert.equal(redactor.redact('about tabs: ab'), 'about tabs: [redacted]');
  });

  describe('an opaque access token is registered the moment it arrives', () => {
    const OPAQUE = 'Zq7-opaque.token~value';
    let server: Server;
    let authUrl: string;
    before(async () => {
      server = createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ access_token: OPAQUE, token_type: 'bearer', expires_in: 3600 }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      authUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(
      () =>
        new Promise<void>((resolve) =>
          server.close(() => {
            resolve();
          }),
        ),
    );

    it('the client hands it to onToken before any request uses it, and the redactor removes it', async () => {
      const redactor = new Redactor();
      const seen: string[] = [];
      const client = new OnboardingClient({
        apiBaseUrl: authUrl,
        authUrl,
        credentials: () => Promise.resolve({ clientId: 'c', clientSecret: 's-secret', username: 'u', password: 'p-secret' }),
        onToken: (value) => {
          seen.push(value);
          redactor.addToken(value);
        },
        http: { env: {} },
      });
      try {
        await client.verifyCredentials();
      } finally {
        client.dispose();
      }
      assert.deepEqual(seen, [OPAQUE]);
      assert.equal(redactor.redact(`GET /x with ${OPAQUE}`), 'GET /x with [redacted]');
    });
  });
});
