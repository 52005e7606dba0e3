// oe test-connection against the fake API: the step-by-step report of Test
// Connection in VS Code, as terminal text, with its exit codes.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeApi, TEST_CREDENTIALS, type FakeApi } from '../../support/fakeApi';
import { signedInEnv } from '../../support/cli/runOe';
import { runOeInProcess } from '../../support/cli/testIo';

describe('oe test-connection', function () {
  this.timeout(60_000);
  let api: FakeApi | undefined;
  before(async () => {
    api = await startFakeApi();
  });
  after(async () => {
    await api?.close();
  });
  const env = (): Record<string, string> => {
    assert.ok(api !== undefined);
    return signedInEnv(api);
  };

  it('works: the report with every step OK on stdout, exit 0, no secret in it', async () => {
    const run = await runOeInProcess(['test-connection', '--serial', 'MX-4711-A0023'], { env: env() });
    assert.equal(run.code, 0, run.stderr);
    const report = run.stdout;
    assert.match(report, /^Onboarding Events: connection test\n\n/);
    assert.match(
      report,
      /\nVerdict: the connection works\n\nEverything works: the authorization server issued a token and the API answered\./,
    );
    assert.match(report, /^1\. OK Proxy for the API and the authorization server/m);
    assert.match(report, /^\d\. OK Token request POST http:\/\/127\.0\.0\.1:\d+\/oauth\/token/m);
    assert.match(report, /^\d\. OK Events request GET .* for serial number MX-4711-A0023 .*HTTP 200: 3 events\./m);
    assert.match(report, /^- oe: \d+\.\d+\.\d+$/m);
    assert.ok(!/^#/m.test(report) && !report.includes('**OK**') && !report.includes('`'), 'terminal text, not Markdown');
    assert.ok(!/^[=-]{3,}$/m.test(report.replace(/\n---\n/, '\n')), 'no underlined headings');
    assert.match(report, /attach this report and the command's output to a ticket\./);
    assert.doesNotMatch(
      report,
      /http\.proxy|onboardingEvents\.|Onboarding Events: [A-Z]/,
      'only what oe has: no VS Code setting or command',
    );
    for (const secret of [TEST_CREDENTIALS.password, TEST_CREDENTIALS.clientSecret]) assert.ok(!report.includes(secret));
  });

  it('refused credentials: the report says so at the token step, exit 1', async () => {
    const run = await runOeInProcess(['test-connection'], { env: { ...env(), OE_PASSWORD: 'not-the-password' } });
    assert.equal(run.code, 1);
    assert.match(run.stdout, /Verdict: the connection fails/);
    assert.match(run.stdout, /^\d\. FAILED Token request/m);
    assert.ok(!run.stdout.includes('not-the-password'));
  });

  it('without credentials: the network steps only, the sign-in steps skipped with the reason, exit 0', async () => {
    const run = await runOeInProcess(['test-connection'], { env: { ...env(), OE_PASSWORD: undefined, OE_CLIENT_SECRET: undefined } });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /The network path works; the sign-in was not tested\./);
    assert.match(run.stdout, /skipped Token request .*no credentials are stored/);
    assert.match(run.stdout, /Set OE_CLIENT_ID, OE_CLIENT_SECRET, OE_USERNAME and OE_PASSWORD, then run oe test-connection again/);
  });

  it("no API URL: exit 64 naming the variable; an http URL off this computer: the sign-in form's refusal", async () => {
    const none = await runOeInProcess(['test-connection'], { env: { ...env(), OE_API_URL: undefined } });
    assert.equal(none.code, 64);
    assert.match(none.stderr, /Set OE_API_URL \(or --api-url\) to the URL your administrator gave you\./);
    const plain = await runOeInProcess(['test-connection', '--api-url', 'http://api.example.invalid'], { env: env() });
    assert.equal(plain.code, 64);
    assert.match(plain.stderr, /OE_API_URL: Use https:\/\/\. Plain http:\/\/ is allowed only for this computer/);
  });

  it('a wrong OE_API_URL (every path 404) is "the API was not found at this address", exit 1, never "the connection works"', async () => {
    assert.ok(api !== undefined);
    const run = await runOeInProcess(['test-connection'], { env: { ...env(), OE_API_URL: `${api.baseUrl}/wrong` } });
    assert.equal(run.code, 1, run.stdout);
    assert.doesNotMatch(run.stdout, /the connection works/);
    assert.match(run.stdout, /\nVerdict: the connection fails\n\nThe API was not found at this address\./);
    assert.match(
      run.stdout,
      /^\d\. FAILED Events request GET http:\/\/127\.0\.0\.1:\d+\/wrong\/public\/api\/onboarding-events\/events .*HTTP 404: not the API\./m,
    );
    assert.match(run.stdout, /^\d\. OK Comparison request GET .*without the token .*: HTTP 404\./m);
  });

  it('an OE_API_URL at a web server that answers an HTML page 404 for every path: the API was not found, exit 1', async () => {
    const web: Server = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<html><body>Not Found</body></html>');
    });
    await new Promise<void>((done) => web.listen(0, '127.0.0.1', done));
    try {
      const base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
      const run = await runOeInProcess(['test-connection', '--serial', 'MX-4711-A0023'], { env: { ...env(), OE_API_URL: base } });
      assert.equal(run.code, 1, run.stdout);
      assert.match(run.stdout, /The API was not found at this address\./);
      assert.match(run.stdout, /FAILED Events request GET .*HTTP 404 with a web page: not the API\./);
    } finally {
      web.closeAllConnections();
      await new Promise<void>((done) => {
        web.close(() => {
          done();
        });
      });
    }
  });
});
