// The messages for what VS Code's network path reports, in the shapes measured
// in the extension host of VS Code 1.139 (test/integration/network/
// corporateProxies.test.ts holds the real thing): a 407 whose error keeps the
// proxy's CONNECT answer headers, an https proxy's name mismatch wrapped by
// undici, and certificate errors that do not say whose handshake failed.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { errorForTransportFailure } from '../../../src/core/client/errors';
import { CertificateOwner } from '../../../src/core/client/http/certificateOwner';
import { classifyNetworkError } from '../../../src/core/client/http/networkFailures';
import { TransportError, type NetworkFailureContext } from '../../../src/core/client/http/transport';
import { createTransport } from '../../../src/core/client/http/undiciTransport';
import { loopbackLookup } from '../../support/network/loopbackLookup';
import { PLANT_HOST, PROXY_HOST, testPki, type KeyPair } from '../../support/network/testPki';
import { getRequest, transportFailureOf, transportOptions } from './transportRequests';
import { extensionErrorText } from '../../../src/extension/workbench/remedies';
import { plainLocalize } from '../../../src/core/common/localize';

const API_URL = 'https://api.plant.test/v1/x';
const message = (error: TransportError): string =>
  extensionErrorText(errorForTransportFailure(error, 'GET', API_URL, 30_000), plainLocalize);

/** VS Code's patched fetch after a 407, as measured: fetch failed ← cancelled ← the proxy agent's error with the CONNECT answer's headers. */
function vscode407(proxyAuthenticate: string | string[] | undefined): TypeError {
  const agentError = Object.assign(new Error('Proxy response (407) ?.== 200 when HTTP Tunneling'), {
    name: 'AbortError',
    code: 'UND_ERR_ABORTED',
    connectResponseHeaders: {
      server: 'squid/5.7',
      ...(proxyAuthenticate === undefined ? {} : { 'proxy-authenticate': proxyAuthenticate }),
    },
    connectResponseStatusCode: 407,
  });
  return new TypeError('fetch failed', { cause: new Error('Request was cancelled.', { cause: agentError }) });
}

const onVsCodePath = (error: unknown, proxy: Pick<NetworkFailureContext, 'proxyHost' | 'proxyCredentialsSent'> = {}): TransportError =>
  classifyNetworkError(error, { deadlinePassed: false, proxyMayBeHidden: true, ...proxy });

describe("VS Code's path: a 407 names the schemes the proxy asked for and what VS Code does with each", () => {
  it('reads the schemes (names only) from the CONNECT answer VS Code keeps on its error', () => {
    const error = onVsCodePath(vscode407(['Negotiate', 'NTLM', 'Basic realm="Plant proxy"']));
    assert.deepEqual(
      [error.failure, error.context.proxyAuthSchemes, error.context.engine],
      ['proxy-auth-required', ['Negotiate', 'NTLM', 'Basic'], 'vscode'],
    );
    // One header with several challenges, auth-params between them, and a token68 that must not be taken for a scheme.
    assert.deepEqual(
      onVsCodePath(vscode407('Negotiate YIIGhgYJKoZIhvcSAQICAQBuggZ1==, Digest realm="x", nonce="y", Basic')).context.proxyAuthSchemes,
      ['Negotiate', 'Digest', 'Basic'],
    );
  });

  it('Negotiate: Kerberos and http.proxyKerberosServicePrincipal; a realm or token is never quoted', () => {
    const text = message(onVsCodePath(vscode407(['Negotiate', 'Basic realm="Plant proxy"'])));
    assert.match(
      text,
      /^The proxy VS Code uses \(from the system settings or a PAC file\) requires authentication \(HTTP 407\) and asks for Negotiate, Basic\./,
    );
    assert.match(text, /Kerberos ticket/);
    assert.match(text, /http\.proxyKerberosServicePrincipal/);
    assert.match(text, /VS Code asks for the proxy's user and password in a dialog\./);
    // VS Code's own path never sends it, and a proxy it found itself is not in http.proxy.
    assert.doesNotMatch(text, /http\.proxyAuthorization|http\.proxy\b/);
    assert.ok(!text.includes('Plant proxy'));
  });

  it('Basic from a proxy http.proxy names: the dialog, the proxy URL, or http.proxyAuthorization (which the extension then sends itself)', () => {
    const text = message(
      onVsCodePath(vscode407('Basic realm="Plant proxy"'), { proxyHost: 'proxy.plant.test:3128', proxyCredentialsSent: false }),
    );
    assert.match(text, /^The proxy proxy\.plant\.test:3128 requires authentication \(HTTP 407\) and asks for Basic\./);
    assert.match(
      text,
      /in a dialog; or put them in the proxy URL .* or set http\.proxyAuthorization, which the extension then sends to that proxy itself\.$/,
    );
    assert.doesNotMatch(text, /Kerberos/);
  });

  it('Basic with the credentials of the proxy URL refused: correct them there', () => {
    const text = message(
      onVsCodePath(vscode407('Basic realm="Plant proxy"'), { proxyHost: 'proxy.plant.test:3128', proxyCredentialsSent: true }),
    );
    assert.match(
      text,
      /^The proxy proxy\.plant\.test:3128 rejected the proxy credentials \(HTTP 407\) and asks for Basic\. For Basic, correct the user and password in the proxy URL/,
    );
  });

  it('NTLM alone: VS Code answers only Negotiate and Basic, so the administrators must offer one', () => {
    const text = message(onVsCodePath(vscode407('NTLM')));
    assert.match(
      text,
      /asks for NTLM\. VS Code's network stack answers only Negotiate \(Kerberos\) and Basic: ask your network administrators/,
    );
    assert.doesNotMatch(text, /dialog|kinit/);
  });

  it('no challenge known: both of what VS Code does', () => {
    const text = message(onVsCodePath(vscode407(undefined)));
    assert.match(
      text,
      /^The proxy VS Code uses \(from the system settings or a PAC file\) requires authentication \(HTTP 407\)\. VS Code answers Negotiate/,
    );
    assert.match(text, /asks for the proxy's user and password in a dialog/);
  });

  it('on our own undici route the advice stays the proxy URL and http.proxyAuthorization', () => {
    const error = classifyNetworkError(new Error('Proxy response (407) !== 200 when HTTP Tunneling'), {
      deadlinePassed: false,
      proxyHost: 'proxy.plant.test:3128',
      proxyCredentialsSent: false,
    });
    assert.equal(
      message(error),
      'The proxy proxy.plant.test:3128 requires authentication (HTTP 407). Put the user and password in the proxy URL (http://user:password@host:port in http.proxy or HTTPS_PROXY), or set http.proxyAuthorization.',
    );
  });
});

describe("VS Code's path: whose certificate failed", () => {
  const pki = testPki();
  const servers: Server[] = [];
  after(() => {
    for (const server of servers) server.close();
  });

  async function tlsServer(pair: KeyPair): Promise<number> {
    const server = createServer({ key: pair.key, cert: pair.cert }, (socket) => socket.end());
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  /** What VS Code's fetch gives for an unknown CA, whoever presented the certificate (measured). */
  const unknownCa = (): TypeError =>
    new TypeError('fetch failed', {
      cause: Object.assign(new Error('unable to verify the first certificate'), { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }),
    });
  const lookup = loopbackLookup([PLANT_HOST, PROXY_HOST]);
  const apiCa = [pki.caPem];

  it("an https proxy's name mismatch, wrapped by undici, is that proxy's even when VS Code chose it: named by the address Node checked", () => {
    const altname = Object.assign(new Error("Hostname/IP does not match certificate's altnames"), {
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
      host: '127.0.0.1',
      cert: { subject: 'kept out of messages' },
    });
    const wrapped = Object.assign(new Error('Secure Proxy Connection failed'), { code: 'UND_ERR_PRX_TLS', cause: altname });
    const error = onVsCodePath(new TypeError('fetch failed', { cause: wrapped }));
    assert.deepEqual([error.failure, error.context.proxyHost, error.context.proxyFromVsCode], ['proxy-certificate', '127.0.0.1', true]);
    assert.match(
      message(error),
      /^The certificate of the proxy 127\.0\.0\.1 \(which VS Code chose from the system settings or a PAC file\) was issued for another host name \(ERR_TLS_CERT_ALTNAME_INVALID\)\. Ask your network administrators/,
    );
    assert.doesNotMatch(message(error), /API base URL/);
  });

  it('a named https proxy whose CA is not trusted: our own handshake with it fails too, so the proxy is blamed', async () => {
    const port = await tlsServer(pki.proxy);
    const error = await new CertificateOwner().refine(onVsCodePath(unknownCa(), { proxyHost: `${PROXY_HOST}:${port}` }), new URL(API_URL), {
      ca: apiCa,
      lookup,
      proxy: new URL(`https://${PROXY_HOST}:${port}`),
    });
    assert.deepEqual(
      [error.failure, error.code, error.context.proxyHost],
      ['proxy-certificate', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', `${PROXY_HOST}:${port}`],
    );
    assert.match(
      message(error),
      new RegExp(
        `^The proxy ${PROXY_HOST.replace(/\./g, '\\.')}:${port} presented a certificate from a certificate authority this computer does not trust .*http\\.proxy.*onboardingEvents\\.caCertificatesFile`,
      ),
    );
  });

  it('a named https proxy that is trusted: the certificate that failed is the API’s', async () => {
    const port = await tlsServer(pki.proxy);
    const error = await new CertificateOwner().refine(onVsCodePath(unknownCa()), new URL(API_URL), {
      ca: [...apiCa, readFileSync(pki.proxyCaFile, 'utf8')],
      lookup,
      proxy: new URL(`https://${PROXY_HOST}:${port}`),
    });
    assert.equal(error.failure, 'untrusted-certificate');
    assert.match(message(error), /^api\.plant\.test presented a certificate from a certificate authority this computer does not trust/);
  });

  it('no proxy named, and the API’s certificate is trusted straight: what failed is a proxy VS Code put in between', async () => {
    const port = await tlsServer(pki.server);
    const url = `https://${PLANT_HOST}:${port}/v1/x`;
    const error = await new CertificateOwner().refine(onVsCodePath(unknownCa()), new URL(url), { ca: apiCa, lookup });
    assert.deepEqual([error.failure, error.context.proxyFromVsCode], ['proxy-certificate', true]);
    const text = extensionErrorText(errorForTransportFailure(error, 'GET', url, 30_000), plainLocalize);
    assert.match(
      text,
      /^The proxy VS Code uses \(from the system settings or a PAC file\) presented a certificate from a certificate authority this computer does not trust \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\); the API's own certificate is not the problem\./,
    );
    assert.match(text, /operating system's certificate store/);
  });

  it('no proxy named, and the API’s certificate fails straight too: the API’s', async () => {
    const port = await tlsServer(pki.selfSigned);
    const url = `https://${PLANT_HOST}:${port}/v1/x`;
    const error = await new CertificateOwner().refine(onVsCodePath(unknownCa()), new URL(url), { ca: apiCa, lookup });
    assert.deepEqual([error.failure, error.context.certificateOwnerUnknown], ['untrusted-certificate', undefined]);
  });

  it('where no handshake of our own can be made, both candidates are named, and Test Connection', async () => {
    // A port nothing listens on: the API cannot be reached straight (as behind a proxy-only firewall).
    const port = await tlsServer(pki.server);
    await new Promise<void>((resolve) => {
      servers.pop()?.close(() => {
        resolve();
      });
    });
    const url = `https://${PLANT_HOST}:${port}/v1/x`;
    const error = await new CertificateOwner().refine(onVsCodePath(unknownCa()), new URL(url), { ca: apiCa, lookup });
    assert.deepEqual([error.failure, error.context.certificateOwnerUnknown], ['untrusted-certificate', true]);
    const text = extensionErrorText(errorForTransportFailure(error, 'GET', url, 30_000), plainLocalize);
    assert.match(
      text,
      new RegExp(
        `^api\\.plant\\.test:${port}, or a proxy VS Code chose from the system settings or a PAC file, presented a certificate from a certificate authority this computer does not trust \\(UNABLE_TO_VERIFY_LEAF_SIGNATURE\\): VS Code does not say which; 'Onboarding Events: Test Connection' shows it\\.`,
      ),
    );
    assert.doesNotMatch(text, /API base URL/);
  });

  it('the transport of the extension host asks, for a proxy http.proxy names', async () => {
    const port = await tlsServer(pki.proxy);
    const transport = createTransport(
      transportOptions({
        engine: 'vscode',
        proxy: `https://${PROXY_HOST}:${port}`,
        caCertificatesFile: pki.caFile,
        systemCertificates: false,
        lookup,
        fetch: () => Promise.reject(unknownCa()),
      }),
    );
    try {
      const error = await transportFailureOf(transport.request(getRequest(API_URL)));
      assert.deepEqual([error.failure, error.context.proxyHost], ['proxy-certificate', `${PROXY_HOST}:${port}`]);
    } finally {
      await transport.close();
    }
  });
});
