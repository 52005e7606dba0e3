import * as assert from 'node:assert/strict';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer, type AddressInfo, type LookupFunction } from 'node:net';
import { plainLocalize } from '../../../src/core/common/localize';
import { runConnectionCheck, type ConnectionCheckInput } from '../../../src/core/client/connectionCheck';
import { createUndiciTransport } from '../../../src/core/client/http/undiciTransport';
import { literal, renderConnectionReport, verdictOf, type ConnectionReport } from '../../../src/core/client/connectionReport';
import { startFakeApi, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { startHttpsFront, type HttpsFront } from '../../support/network/httpsFront';
import { loopbackLookup } from '../../support/network/loopbackLookup';
import { startRecordingProxy, type RecordingProxy } from '../../support/network/recordingProxy';
import { PLANT_HOST, testPki } from '../../support/network/testPki';
import { CREDENTIALS, SECRETS } from './testClient';
import { EXTENSION_WORDING } from '../../../src/extension/workbench/remedies';

/** A t that marks every message it words: ⟦…⟧ around the whole sentence, its values inside. */
const marking = (message: string, ...args: (string | number | boolean)[]): string => `⟦${plainLocalize(message, ...args)}⟧`;

/**
 * The English a report shows outside `marking`'s ⟦…⟧: what is left once every
 * marked message (nested ones first), code span and version label is removed.
 * A verdict is a message split after its first sentence, so a headline line
 * opens ⟦ and its advice line closes ⟧: both count as marked.
 */
function unmarkedEnglish(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    let rest = line;
    for (let before = ''; before !== rest;) {
      before = rest;
      rest = rest.replace(/⟦[^⟦⟧]*⟧/g, '');
    }
    rest = rest
      .replace(/⟦.*$/, '')
      .replace(/^.*⟧/, '')
      .replace(/`[^`]*`/g, '')
      .replace(/Node\.js/g, '');
    // Codes (ECONNREFUSED, HTTP), numbers and Markdown stay; a lower-case word is English prose that bypassed t.
    return /[a-z]{3,}/.test(rest) ? [line] : [];
  });
}

const PROXY_USER = 'plant-user';
const PROXY_PASSWORD = 'proxy-pa55word';
const WRONG_PROXY_PASSWORD = 'not-the-proxy-pa55word';

/** A port nothing listens on: bound once, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) =>
    server.close(() => {
      done();
    }),
  );
  return port;
}

describe('Test Connection: the report over real sockets to a fake API on 127.0.0.1', function () {
  this.timeout(20_000);
  const pki = testPki();
  let api: FakeApi;
  let front: HttpsFront;
  let proxy: RecordingProxy | undefined;
  const tokens: string[] = [];

  beforeEach(async () => {
    api = await startFakeApi();
    front = await startHttpsFront(api.port, pki.server);
    tokens.length = 0;
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
    await front.close();
    await api.close();
  });

  const httpsBase = (): string => `https://${PLANT_HOST}:${front.port}`;

  async function check(
    overrides: Partial<ConnectionCheckInput>,
    { signedOut = false, engine }: { signedOut?: boolean; engine?: 'vscode' } = {},
  ): Promise<{ report: ConnectionReport; text: string }> {
    const report = await runConnectionCheck({
      t: plainLocalize,
      wording: EXTENSION_WORDING,
      environment: 'Plant',
      apiBaseUrl: httpsBase(),
      authUrl: `${httpsBase()}/oauth`,
      ...(signedOut ? {} : { credentials: () => Promise.resolve(CREDENTIALS) }),
      serialNumber: TEST_SERIALS.onboarded,
      onToken: (value) => tokens.push(value),
      ...overrides,
      http: {
        env: {},
        systemCertificates: false,
        lookup: loopbackLookup([PLANT_HOST]),
        ...(engine !== undefined ? { engine } : {}),
        ...overrides.http,
      },
    });
    const text = renderConnectionReport(report, overrides.t ?? plainLocalize);
    for (const secret of [...SECRETS, ...tokens, PROXY_PASSWORD, WRONG_PROXY_PASSWORD]) {
      assert.ok(!text.includes(secret), `a secret leaked into the report: ${secret.slice(0, 3)}…`);
      assert.ok(!JSON.stringify(report).includes(secret), 'a secret leaked into the report object');
    }
    return { report, text };
  }

  const statuses = (report: ConnectionReport): string[] =>
    report.stages.map((stage) => `${stage.status} ${stage.title.split(' ')[0] ?? ''}`);

  it('a healthy HTTPS environment: every step OK, the certificate and the store that vouched for it, the token facts and the events count', async () => {
    const { report, text } = await check({ http: { caCertificatesFile: pki.caFile } });
    assert.equal(report.verdict.ok, true, text);
    assert.deepEqual(statuses(report), ['ok Proxy', 'ok Name', 'ok TCP', 'ok TLS', 'ok Token', 'ok Events']);
    assert.match(text, /Proxy for the API and the authorization server .*: none: no http\.proxy setting/);
    assert.match(text, new RegExp(`Name resolution of ${PLANT_HOST}:${front.port} \\(\\d+ ms\\): \`${PLANT_HOST}\` → \`127\\.0\\.0\\.1\``));
    assert.match(text, /Certificate: `CN=server`, issued by `CN=Onboarding Events Test Plant CA`/);
    assert.match(
      text,
      /Accepted: vouched for by `CN=Onboarding Events Test Plant CA`, found in the file in onboardingEvents\.caCertificatesFile/,
    );
    assert.match(
      text,
      /Token request POST .*\/oauth\/token \(\d+ ms\): HTTP 200: `Bearer` token, expires_in \d+ s, scope `api`\. The token itself is not shown\./,
    );
    assert.match(text, /Events request GET .*\/events for serial number `MX-4711-A0023` \(\d+ ms\): HTTP 200: 3 events\./);
    assert.equal(tokens.length, 1, 'the token request ran, and its token did not reach the report');
    assert.equal(api.tokenRequests().length, 1);
    assert.equal(api.eventRequests().length, 1);
  });

  it('a healthy plain-HTTP loopback environment: no proxy (loopback), no TLS step', async () => {
    const { report, text } = await check({ apiBaseUrl: api.baseUrl, authUrl: api.authUrl });
    assert.equal(report.verdict.ok, true, text);
    assert.deepEqual(statuses(report), ['ok Proxy', 'ok Name', 'ok TCP', 'ok Token', 'ok Events']);
    assert.match(text, /none: a loopback address never goes through a proxy/);
    assert.match(text, /not needed: `127\.0\.0\.1` is an address/);
  });

  it('an unknown CA: the TLS step fails, names what was trusted, and the verdict names the CA setting; nothing reached the API', async () => {
    const { report, text } = await check({});
    assert.equal(report.verdict.ok, false);
    assert.deepEqual(statuses(report), ['ok Proxy', 'ok Name', 'ok TCP', 'failed TLS', 'skipped Token', 'skipped Events']);
    assert.match(report.verdict.headline, /presented a certificate from a certificate authority this computer does not trust/);
    assert.match(report.verdict.advice, /onboardingEvents\.caCertificatesFile/);
    assert.match(text, /certificate refused \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/);
    assert.match(text, /Certificate: `CN=server`, issued by `CN=Onboarding Events Test Plant CA`/);
    assert.match(
      text,
      /Not accepted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\).*operating system store: off \(http\.systemCertificates is false\); onboardingEvents\.caCertificatesFile: not set/,
    );
    assert.deepEqual(api.requests, []);
  });

  it('a proxy wanting authentication: the tunnel step shows the 407 and the scheme offered, the proxy shown without its password', async () => {
    proxy = await startRecordingProxy({ credentials: { user: PROXY_USER, password: PROXY_PASSWORD }, hosts: [PLANT_HOST] });
    const { report, text } = await check({
      http: { caCertificatesFile: pki.caFile, proxy: proxy.urlWithCredentials(PROXY_USER, WRONG_PROXY_PASSWORD) },
    });
    assert.equal(report.verdict.ok, false);
    assert.deepEqual(statuses(report), ['ok Proxy', 'ok Name', 'ok TCP', 'failed Tunnel', 'skipped Token', 'skipped Events']);
    assert.match(text, new RegExp(`\`http://\\*\\*\\*:\\*\\*\\*@127\\.0\\.0\\.1:${proxy.port}\`, from the http\\.proxy setting`));
    assert.match(text, /Proxy credentials: the user and password in the proxy URL \(sent as Basic, not shown\)/);
    assert.match(text, /the proxy wants authentication \(HTTP 407\) and refused the credentials sent/);
    assert.match(text, /The proxy asks for: `Basic`/);
    assert.match(report.verdict.headline, /rejected the proxy credentials \(HTTP 407\)/);
    assert.match(report.verdict.advice, /^Correct the user and password in the proxy URL/);
    assert.ok(!text.includes(PROXY_USER), 'the proxy user name is redacted too');
    assert.deepEqual(api.requests, []);
  });

  it('through a proxy with the right credentials, every step passes and the API sees the requests', async () => {
    proxy = await startRecordingProxy({ credentials: { user: PROXY_USER, password: PROXY_PASSWORD }, hosts: [PLANT_HOST] });
    const { report, text } = await check({
      http: { caCertificatesFile: pki.caFile, proxy: proxy.urlWithCredentials(PROXY_USER, PROXY_PASSWORD) },
    });
    assert.equal(report.verdict.ok, true, text);
    assert.deepEqual(statuses(report), ['ok Proxy', 'ok Name', 'ok TCP', 'ok Tunnel', 'ok TLS', 'ok Token', 'ok Events']);
    assert.match(text, /The proxy resolves the server name itself/);
    assert.ok(proxy.visits.every((visit) => visit.method === 'CONNECT'));
  });

  it('a refused connection: the TCP step fails with ECONNREFUSED and the verdict says to check the port', async () => {
    const port = await closedPort();
    const { report, text } = await check({ apiBaseUrl: `http://127.0.0.1:${port}`, authUrl: `http://127.0.0.1:${port}/oauth` });
    assert.equal(report.verdict.ok, false);
    assert.deepEqual(statuses(report), ['ok Proxy', 'ok Name', 'failed TCP', 'skipped Token', 'skipped Events']);
    assert.match(text, new RegExp(`TCP connection to 127\\.0\\.0\\.1:${port} \\(\\d+ ms\\): \`127\\.0\\.0\\.1:${port}\`: ECONNREFUSED\\.`));
    assert.match(report.verdict.headline, new RegExp(`127\\.0\\.0\\.1:${port} refused the connection \\(ECONNREFUSED\\)`));
    assert.match(report.verdict.advice, /Check the port/);
  });

  it('an unknown host name: the name resolution step fails and stops there', async () => {
    const { report } = await check({ apiBaseUrl: 'https://nowhere.plant.test', authUrl: 'https://nowhere.plant.test/oauth' });
    assert.deepEqual(statuses(report), ['ok Proxy', 'failed Name', 'skipped Token', 'skipped Events']);
    assert.match(report.verdict.headline, /The host name nowhere\.plant\.test could not be found \(ENOTFOUND\)/);
  });

  it('wrong credentials: the network is fine, the token step fails with the sign-in advice', async () => {
    const { report } = await check({
      apiBaseUrl: api.baseUrl,
      authUrl: api.authUrl,
      credentials: () => Promise.resolve({ ...CREDENTIALS, password: 'wrong' }),
    });
    assert.deepEqual(statuses(report), ['ok Proxy', 'ok Name', 'ok TCP', 'failed Token', 'skipped Events']);
    assert.equal(report.verdict.ok, false);
    assert.match(report.stages[3]?.summary ?? '', /HTTP 400|HTTP 401/);
  });

  it('without stored credentials, the network steps run and the token and events steps say why they were skipped', async () => {
    const { report } = await check({ apiBaseUrl: api.baseUrl, authUrl: api.authUrl }, { signedOut: true });
    assert.equal(report.verdict.ok, true);
    assert.match(report.verdict.headline, /the sign-in was not tested/);
    assert.deepEqual(statuses(report), ['ok Proxy', 'ok Name', 'ok TCP', 'skipped Token', 'skipped Events']);
  });

  it('cancelling ends the check at once, even while the server never answers the TLS handshake', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const { port } = silent.address() as AddressInfo;
    const started = Date.now();
    try {
      const controller = new AbortController();
      const timer = setTimeout(() => {
        controller.abort();
      }, 300);
      await assert.rejects(
        runConnectionCheck({
          t: plainLocalize,
          wording: EXTENSION_WORDING,
          environment: 'Plant',
          apiBaseUrl: `https://127.0.0.1:${port}`,
          authUrl: `https://127.0.0.1:${port}/oauth`,
          http: { env: {}, systemCertificates: false },
          signal: controller.signal,
        }),
        (error: unknown) => (error as { kind?: string }).kind === 'cancelled',
      );
      clearTimeout(timer);
      assert.ok(Date.now() - started < 2_000, 'cancelling ends the check at once');
    } finally {
      silent.close();
    }
  });

  it('quotes a value from outside as one bounded code span: a certificate name can neither close the span nor add lines', () => {
    assert.equal(literal('CN=evil`**bold**`\n# heading'), "`CN=evil'**bold**' # heading`");
    assert.equal(literal(''), '` `');
    assert.equal(Array.from(literal('x'.repeat(5_000))).length, 202);
  });

  it('words every line of the report through the t it is given: no English bypasses it', async () => {
    proxy = await startRecordingProxy({ credentials: { user: PROXY_USER, password: PROXY_PASSWORD }, hosts: [PLANT_HOST] });
    const reports = [
      // Every stage OK, the certificate, its store, the token facts, the events count.
      await check({ t: marking, http: { caCertificatesFile: pki.caFile } }),
      // A refused certificate (the verdict is the client's error, split) and skipped stages.
      await check({ t: marking }),
      // A proxy with credentials in its URL, its 407 and the scheme asked for.
      await check({
        t: marking,
        http: { caCertificatesFile: pki.caFile, proxy: proxy.urlWithCredentials(PROXY_USER, WRONG_PROXY_PASSWORD) },
      }),
      // VS Code's path, signed out: the engine's words and the sign-in advice naming the commands.
      await check({ t: marking, apiBaseUrl: api.baseUrl, authUrl: api.authUrl }, { signedOut: true, engine: 'vscode' }),
    ];
    for (const { text } of reports) {
      assert.match(text, /^# ⟦Onboarding Events: connection test⟧\n/);
      assert.deepEqual(unmarkedEnglish(text), [], text);
    }
    const [healthy] = reports;
    assert.match(healthy?.text ?? '', /\*\*⟦OK⟧\*\* ⟦⟦TLS handshake with /, 'a step, its title and its status each come through t');
  });

  it("splits a verdict after its first sentence, also where Chinese ends it with '。' and no space, and not inside German 'z. B.'", () => {
    assert.deepEqual(verdictOf('Could not connect. Check the proxy.'), {
      ok: false,
      headline: 'Could not connect.',
      advice: 'Check the proxy.',
    });
    assert.deepEqual(verdictOf('无法连接到 api:443。请检查代理设置。'), {
      ok: false,
      headline: '无法连接到 api:443。',
      advice: '请检查代理设置。',
    });
    assert.deepEqual(verdictOf('No sentence end'), { ok: false, headline: 'No sentence end', advice: '' });
    assert.deepEqual(verdictOf('Der Proxy, z.\u00a0B. squid, lehnt ab. Prüfen Sie ihn.'), {
      ok: false,
      headline: 'Der Proxy, z.\u00a0B. squid, lehnt ab.',
      advice: 'Prüfen Sie ihn.',
    });
  });

  describe('every step has a deadline', () => {
    const shortLimits = { lookupMs: 200, connectMs: 200, proxyAnswerMs: 200, tlsMs: 200, requestMs: 500 };

    it('name resolution that never answers fails the step in time', async () => {
      const started = Date.now();
      const neverAnswers = (() => undefined) as unknown as LookupFunction;
      const { report } = await check({ limits: shortLimits, http: { lookup: neverAnswers } });
      assert.ok(Date.now() - started < 2_000);
      assert.deepEqual(statuses(report), ['ok Proxy', 'failed Name', 'skipped Token', 'skipped Events']);
      assert.match(report.stages[1]?.summary ?? '', /could not be resolved \(ETIMEDOUT\)/);
    });

    it('a server that accepts the connection but never answers the TLS handshake fails the TLS step in time', async () => {
      const silent = createServer(() => undefined);
      await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
      const { port } = silent.address() as AddressInfo;
      try {
        const started = Date.now();
        const { report } = await check({
          limits: shortLimits,
          apiBaseUrl: `https://127.0.0.1:${port}`,
          authUrl: `https://127.0.0.1:${port}/oauth`,
        });
        assert.ok(Date.now() - started < 2_000);
        assert.deepEqual(statuses(report), ['ok Proxy', 'ok Name', 'ok TCP', 'failed TLS', 'skipped Token', 'skipped Events']);
        assert.match(report.stages[3]?.summary ?? '', /no TLS session \(ETIMEDOUT\)/);
        assert.match(report.verdict.headline, /Could not connect to 127\.0\.0\.1:\d+ in time/);
      } finally {
        silent.close();
      }
    });

    it('a proxy that never answers CONNECT fails the tunnel step in time', async () => {
      const mute = createServer(() => undefined);
      await new Promise<void>((done) => mute.listen(0, '127.0.0.1', done));
      const { port } = mute.address() as AddressInfo;
      try {
        const { report } = await check({
          limits: shortLimits,
          http: { caCertificatesFile: pki.caFile, proxy: `http://127.0.0.1:${port}` },
        });
        assert.deepEqual(statuses(report), ['ok Proxy', 'ok Name', 'ok TCP', 'failed Tunnel', 'skipped Token', 'skipped Events']);
        assert.match(report.stages[3]?.summary ?? '', /no answer to CONNECT \(ETIMEDOUT\)/);
      } finally {
        mute.close();
      }
    });

    it('a caller cannot lengthen a deadline past CHECK_LIMITS', async () => {
      const neverAnswers = (() => undefined) as unknown as LookupFunction;
      const controller = new AbortController();
      const timer = setTimeout(() => {
        controller.abort();
      }, 6_000);
      const started = Date.now();
      try {
        const { report } = await check({ limits: { lookupMs: 60_000 }, signal: controller.signal, http: { lookup: neverAnswers } });
        assert.match(report.stages[1]?.summary ?? '', /ETIMEDOUT/);
        assert.ok(Date.now() - started < 5_800, 'capped at 5 s');
      } finally {
        clearTimeout(timer);
      }
    });
  });

  it("on VS Code's network path, the proxy step says what extensions cannot know (system proxy, PAC)", async () => {
    // Signed out: no request is sent, since outside an extension host no VS Code stack is there to carry it.
    const { text } = await check({}, { signedOut: true, engine: 'vscode' });
    assert.match(text, /take VS Code's network path, which also applies the operating system's proxy settings and PAC files/);
    assert.match(text, /the token and events requests go as VS Code resolves it/);
    const { text: loopback } = await check({ apiBaseUrl: api.baseUrl, authUrl: api.authUrl }, { signedOut: true, engine: 'vscode' });
    assert.match(loopback, /go straight to this computer with its own HTTP stack \(undici\), never through a proxy/);
    const { text: own } = await check({ apiBaseUrl: api.baseUrl, authUrl: api.authUrl });
    assert.doesNotMatch(own, /VS Code's network path/);
    assert.match(own, /this process is not a VS Code extension host/);
  });

  it("on VS Code's network path, a proxy wanting authentication: the verdict names the scheme asked for and what VS Code does with it", async () => {
    proxy = await startRecordingProxy({ credentials: { user: PROXY_USER, password: PROXY_PASSWORD }, hosts: [PLANT_HOST] });
    // Signed out: no request is sent, since outside an extension host no VS Code stack is there to carry it.
    const { report } = await check(
      { http: { caCertificatesFile: pki.caFile, proxy: `http://127.0.0.1:${proxy.port}` } },
      { signedOut: true, engine: 'vscode' },
    );
    assert.equal(report.verdict.ok, false);
    assert.equal(report.verdict.headline, `The proxy 127.0.0.1:${proxy.port} requires authentication (HTTP 407) and asks for Basic.`);
    assert.match(
      report.verdict.advice,
      /^For Basic, VS Code asks for the proxy's user and password in a dialog; or put them in the proxy URL/,
    );
    assert.deepEqual(api.requests, []);
  });

  it("on VS Code's network path, http.proxyAuthorization without a named proxy is reported as not used; with one, the extension's own stack carries it", async () => {
    const header = `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`;
    const { text: unused } = await check({ http: { proxyAuthorization: header } }, { signedOut: true, engine: 'vscode' });
    assert.match(unused, /http\.proxyAuthorization is set but not used: VS Code's network path does not send it/);
    proxy = await startRecordingProxy({ credentials: { user: PROXY_USER, password: PROXY_PASSWORD }, hosts: [PLANT_HOST] });
    const { report, text } = await check(
      { http: { caCertificatesFile: pki.caFile, proxy: `http://127.0.0.1:${proxy.port}`, proxyAuthorization: header } },
      { signedOut: true, engine: 'vscode' },
    );
    assert.match(text, /take its own HTTP stack \(undici\) to the proxy named here, because http\.proxyAuthorization is set/);
    assert.doesNotMatch(text, /set but not used/);
    assert.equal(report.verdict.ok, true, text);
  });

  it("on VS Code's network path, a direct way that fails does not fail the verdict when the client's own requests get through", async () => {
    // VS Code's stack stands in as a real transport that reaches the host (as a system proxy or PAC file
    // would), while the direct stages cannot resolve its name.
    const { report, text } = await check(
      {
        http: { lookup: loopbackLookup([]), caCertificatesFile: pki.caFile },
        createTransport: (options) => createUndiciTransport({ ...options, engine: 'undici', lookup: loopbackLookup([PLANT_HOST]) }),
      },
      { engine: 'vscode' },
    );
    assert.deepEqual(statuses(report), ['ok Proxy', 'failed Name', 'ok Token', 'ok Events']);
    assert.equal(report.verdict.ok, true, text);
    assert.match(report.verdict.headline, /VS Code's network path reaches the API; the direct way tested above does not/);
  });
});

describe('Test Connection: a 404 to the events request is the API only when a wrong address could not have sent it', function () {
  this.timeout(20_000);
  let api: FakeApi;
  let other: Server | undefined;
  beforeEach(async () => {
    api = await startFakeApi();
  });
  afterEach(async () => {
    const server = other;
    other = undefined;
    if (server !== undefined) {
      server.closeAllConnections();
      await new Promise<void>((done) => {
        server.close(() => {
          done();
        });
      });
    }
    await api.close();
  });

  /** Another HTTP server on 127.0.0.1 (not the API), answering every request with `answer`; its base URL. */
  async function otherServer(answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
    other = createHttpServer(answer);
    await new Promise<void>((done) => other?.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  }

  const run = async (apiBaseUrl: string, serialNumber?: string): Promise<{ report: ConnectionReport; text: string }> => {
    const report = await runConnectionCheck({
      t: plainLocalize,
      wording: EXTENSION_WORDING,
      environment: 'Plant',
      apiBaseUrl,
      authUrl: api.authUrl,
      credentials: () => Promise.resolve(CREDENTIALS),
      ...(serialNumber === undefined ? {} : { serialNumber }),
      http: { env: {}, systemCertificates: false },
    });
    return { report, text: renderConnectionReport(report, plainLocalize) };
  };

  /** Every URL the report's stages name (the list below "Stages"), without its query. */
  const stepUrls = (text: string): string[] =>
    [...(text.split('\n## Steps\n')[1] ?? '').matchAll(/https?:\/\/[^\s`]+/g)].map((match) => match[0].replace(/[?].*$/, ''));

  function assertNotTheApi(report: ConnectionReport, text: string, why: RegExp): void {
    assert.equal(report.verdict.ok, false, text);
    assert.notEqual(report.verdict.unclear, true, text);
    assert.doesNotMatch(text, /the connection works/);
    assert.equal(report.verdict.headline, 'The API was not found at this address.', text);
    assert.match(report.verdict.advice, why);
    assert.match(report.verdict.advice, /Check the API base URL/);
    assert.match(text, /\*\*FAILED\*\* Events request GET /, text);
  }

  it('the API itself (an unknown serial number answered 404): the connection works, the comparisons shown as requested', async () => {
    api.configure({ unknownSerial: '404' });
    const { report, text } = await run(api.baseUrl);
    assert.equal(report.verdict.ok, true, text);
    assert.match(text, /\*\*OK\*\* Events request GET .*: HTTP 404: the API answered \(no machine with this serial number\)\./);
    assert.match(
      text,
      /\*\*OK\*\* Comparison request GET .*\/events for serial number `CONNECTION-TEST-0000` without the token .*: HTTP 401\./,
    );
    assert.match(
      text,
      /\*\*OK\*\* Comparison request GET .*\/connection-test-[0-9a-f]{12} for serial number .*, a path the API does not have .*: HTTP 404\./,
    );
  });

  it('a wrong base URL on the API server (every path 404, with and without the token): the API was not found', async () => {
    const { report, text } = await run(`${api.baseUrl}/wrong`);
    assertNotTheApi(report, text, /Every path tried answers HTTP 404 alike, with the token and without it/);
  });

  it('a plain HTTP server answering an HTML page 404 for every path: the API was not found', async () => {
    const base = await otherServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><body><h1>Not Found</h1></body></html>');
    });
    const { report, text } = await run(base);
    assertNotTheApi(report, text, /answered with a web page/);
  });

  for (const [kind, headers, body] of [
    ['JSON', { 'content-type': 'application/json' }, '{"code":"NOT_FOUND","message":"no route"}'],
    ['text', { 'content-type': 'text/plain' }, '404 page not found'],
    ['JSON without a content type', {}, '{"status":404}'],
  ] as const) {
    it(`another server's ${kind} 404 for every path: the API was not found`, async () => {
      const base = await otherServer((_request, response) => {
        response.writeHead(404, headers).end(body);
      });
      const { report, text } = await run(base, TEST_SERIALS.onboarded);
      assertNotTheApi(report, text, /Every path tried answers HTTP 404 alike/);
    });
  }

  it('a server that wants a token on every path and answers 404 alike to all: the report says it cannot tell', async () => {
    const base = await otherServer((request, response) => {
      if (request.headers.authorization === undefined) response.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      else
        response
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ status: 404, error: 'Not Found', path: request.url?.split('?')[0] }));
    });
    const { report, text } = await run(base);
    assert.equal(report.verdict.ok, false, text);
    assert.equal(report.verdict.unclear, true, text);
    assert.match(text, /## Verdict: cannot tell whether the connection works/);
    assert.match(text, /\*\*UNCLEAR\*\* Events request GET .*: HTTP 404: cannot tell whether the API answered\./);
    assert.match(report.verdict.advice, /Look up a machine you know is onboarded/);
  });

  it('the report names only the URLs it requested', async () => {
    api.configure({ unknownSerial: '404' });
    for (const base of [api.baseUrl, `${api.baseUrl}/wrong`]) {
      api.clearRequests();
      const { text } = await run(base, TEST_SERIALS.onboarded);
      const requested = new Set(api.requests.map((request) => `${api.baseUrl}${request.path}`));
      const named = stepUrls(text);
      assert.ok(named.length >= 2, text);
      for (const url of named)
        assert.ok(requested.has(url), `the report names ${url}, which was not requested (requested: ${[...requested].join(', ')})`);
    }
  });
});
