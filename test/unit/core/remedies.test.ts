// Every cause of the catalogue, worded by each program, names only what that program has: a
// terminal user is never sent to a VS Code command or setting, a VS Code user never to an OE_
// variable or a flag. The samples are keyed by every kind of ErrorCause, so a new kind without
// samples does not compile, and a program without words for it fails here.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { plainLocalize, type Localize } from '../../../src/core/common/localize';
import { agentWording } from '../../../src/core/client/agentRemedies';
import { OE_AGENT_ASKS } from '../../../src/cli/remedies';
import { EXTENSION_AGENT_ASKS } from '../../../src/extension/workbench/remedies';
import type { CheckAdvice, ProgramWording } from '../../../src/core/client/connectionCheck';
import { CausedError, type ErrorCause, type ErrorCauseKind, type ProxyName } from '../../../src/core/client/errors';
import { OE_WORDING } from '../../../src/cli/remedies';
import { EXTENSION_WORDING } from '../../../src/extension/workbench/remedies';

const root = join(__dirname, '..', '..', '..', '..');
const read = (...path: string[]): Record<string, string> => JSON.parse(readFileSync(join(root, ...path), 'utf8')) as Record<string, string>;

const named: ProxyName = { host: 'proxy.plant.test:3128', fromVsCode: false, engine: 'undici' };
const chosenByVsCode: ProxyName = { host: 'proxy.plant.test:3128', fromVsCode: true, engine: 'vscode' };
const unnamed: ProxyName = { host: undefined, fromVsCode: true, engine: 'vscode' };
const host = 'api.plant.test';

/** Every kind, each with the variants its wording branches on. */
const SAMPLES: { readonly [K in ErrorCauseKind]: readonly Extract<ErrorCause, { kind: K }>[] } = {
  cancelled: [{ kind: 'cancelled' }],
  'shutting-down': [{ kind: 'shutting-down' }],
  'not-signed-in': [{ kind: 'not-signed-in' }],
  'invalid-credentials': [{ kind: 'invalid-credentials' }],
  'fresh-token-rejected': [{ kind: 'fresh-token-rejected' }],
  'permission-denied': [{ kind: 'permission-denied' }],
  'not-found': [
    { kind: 'not-found', endpoint: 'api' },
    { kind: 'not-found', endpoint: 'api', what: (t) => t('No machine with the serial number {0}', 'SN-1') },
    { kind: 'not-found', endpoint: 'token', what: (t) => t('The token endpoint') },
  ],
  'rate-limited': [
    { kind: 'rate-limited', status: 429 },
    { kind: 'rate-limited', status: 429, retryAfterMs: 30_000 },
  ],
  server: [{ kind: 'server', status: 503 }],
  'unexpected-status': [{ kind: 'unexpected-status', status: 418 }],
  'bad-answer': [{ kind: 'bad-answer', problem: (t) => t('The token response has no usable access_token.') }],
  'invalid-url': [{ kind: 'invalid-url', request: 'GET /events' }],
  'invalid-input': [{ kind: 'invalid-input', text: (t) => t('Enter a serial number: it is empty.') }],
  'connect-timeout': [{ kind: 'connect-timeout', host }],
  'response-timeout': [{ kind: 'response-timeout', host, seconds: 30 }],
  'proxy-invalid': [{ kind: 'proxy-invalid' }],
  'untrusted-certificate': [false, true].flatMap((ownerUnknown) =>
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'].map((code) => ({
      kind: 'untrusted-certificate' as const,
      host,
      code,
      ownerUnknown,
    })),
  ),
  'certificate-expired': [false, true].flatMap((ownerUnknown) =>
    ['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID'].map((code) => ({ kind: 'certificate-expired' as const, host, code, ownerUnknown })),
  ),
  'certificate-name-mismatch': [{ kind: 'certificate-name-mismatch', host, code: 'ERR_TLS_CERT_ALTNAME_INVALID' }],
  'proxy-certificate': [named, chosenByVsCode, unnamed].flatMap((proxy) =>
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_HAS_EXPIRED', 'SELF_SIGNED_CERT_IN_CHAIN'].map((code) => ({
      kind: 'proxy-certificate' as const,
      proxy,
      code,
    })),
  ),
  'proxy-auth-required': [named, chosenByVsCode, unnamed].flatMap((proxy) =>
    [false, true].flatMap((credentialsSent) =>
      [[], ['Negotiate'], ['Basic'], ['NTLM']].map((schemes) => ({
        kind: 'proxy-auth-required' as const,
        proxy,
        credentialsSent,
        schemes,
      })),
    ),
  ),
  'proxy-refused': [named, unnamed].map((proxy) => ({ kind: 'proxy-refused' as const, proxy, host, status: 403 })),
  'proxy-unreachable': [named, unnamed].map((proxy) => ({ kind: 'proxy-unreachable' as const, proxy, code: 'ECONNREFUSED' })),
  'ca-file': [{ kind: 'ca-file', file: '/etc/ssl/plant.pem', code: 'ENOENT' }],
  dns: [{ kind: 'dns', hostname: 'api.plant.test', code: 'ENOTFOUND' }],
  'connection-refused': [{ kind: 'connection-refused', host, code: 'ECONNREFUSED' }],
  connection: [{ kind: 'connection', host, code: 'ECONNRESET' }],
};
const CHECK_ADVICE: { readonly [K in CheckAdvice]: K } = {
  'fix-urls': 'fix-urls',
  'sign-in-then-test': 'sign-in-then-test',
  'report-with-log': 'report-with-log',
};
const causes = Object.values(SAMPLES).flat() as ErrorCause[];

/** `t` of one bundle, as vscode.l10n.t and oe's io.t look a message up. */
function bundleT(locale: string | undefined): Localize {
  if (locale === undefined) return plainLocalize;
  const bundle = read('l10n', `bundle.l10n.${locale}.json`);
  return (message, ...args) => plainLocalize(bundle[message] ?? message, ...args);
}

// What only VS Code has: its commands as the Command Palette names them, the extension's settings, VS Code's http.* settings.
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: { commands: { title: string; category?: string }[]; configuration: { properties: Record<string, unknown> } };
};
const paletteLabels = ['package.nls.json', 'package.nls.de.json', 'package.nls.zh-cn.json'].flatMap((file) => {
  const nls = read(file);
  const word = (value: string | undefined): string => nls[/^%(.+)%$/.exec(value ?? '')?.[1] ?? ''] ?? value ?? '';
  return manifest.contributes.commands.map((command) => `${word(command.category)}: ${word(command.title)}`);
});
// oe reads this one from the working folder's .vscode/settings.json, as VS Code does.
const SETTINGS_OE_READS = new Set(['onboardingEvents.requestTimeoutSeconds']);
const VS_CODE_ONLY: readonly (string | RegExp)[] = [
  ...paletteLabels,
  ...Object.keys(manifest.contributes.configuration.properties).filter((id) => !SETTINGS_OE_READS.has(id)),
  /\bhttp\.(proxy|noProxy|proxyAuthorization|proxyStrictSSL|systemCertificates|proxyKerberosServicePrincipal)\b/,
  'Show Log',
  'Command Palette',
  /API base URL( and authorization URL)? settings?/,
];
// What only oe has: its variables and its flags.
const OE_ONLY: readonly (string | RegExp)[] = [/\bOE_[A-Z_]+/, /(^|[\s(])--[a-z]/, /\boe (test-connection|mcp|check|events|watch)\b/];

function offending(text: string, lacks: readonly (string | RegExp)[]): string | undefined {
  for (const name of lacks) {
    const found = typeof name === 'string' ? (text.includes(name) ? name : undefined) : name.exec(text)?.[0];
    if (found !== undefined) return found;
  }
  return undefined;
}

const PROGRAMS: readonly { readonly name: string; readonly wording: ProgramWording; readonly lacks: readonly (string | RegExp)[] }[] = [
  { name: 'the extension', wording: EXTENSION_WORDING, lacks: OE_ONLY },
  { name: 'oe', wording: OE_WORDING, lacks: VS_CODE_ONLY },
];
const AGENTS = [
  { name: "the extension's agent tools", words: agentWording(EXTENSION_AGENT_ASKS), lacks: OE_ONLY },
  { name: 'oe mcp', words: agentWording(OE_AGENT_ASKS), lacks: VS_CODE_ONLY },
];

describe('remedies: each program words every cause in its own terms', () => {
  it('has samples of every cause kind, and they reach each program', () => {
    assert.ok(causes.length > Object.keys(SAMPLES).length);
  });

  for (const { name, wording, lacks } of PROGRAMS) {
    for (const locale of [undefined, 'de', 'zh-cn']) {
      it(`${name} (${locale ?? 'en'}) names nothing it lacks, for every cause and Test Connection verdict`, () => {
        const t = bundleT(locale);
        for (const cause of causes) {
          const text = wording.error(new CausedError(cause), t);
          assert.ok(text.trim() !== '', `${name} has no words for ${cause.kind}`);
          const found = offending(text, lacks);
          assert.equal(found, undefined, `${name} tells the user about ${String(found)} for ${cause.kind}: ${text}`);
        }
        for (const advice of Object.values(CHECK_ADVICE)) {
          const text = wording.checkAdvice(advice, t);
          const found = offending(text, lacks);
          assert.equal(found, undefined, `${name} tells the user about ${String(found)} after Test Connection (${advice}): ${text}`);
        }
      });
    }
  }

  for (const { name, words, lacks } of AGENTS) {
    it(`${name} asks the agent's user only for what that program has`, () => {
      for (const cause of causes) {
        const text = words(new CausedError(cause));
        const found = offending(text, lacks);
        assert.equal(found, undefined, `${name} tells the agent about ${String(found)} for ${cause.kind}: ${text}`);
      }
    });
  }

  it('each program gives a remedy where the cause needs the user to act', () => {
    const cause: ErrorCause = { kind: 'invalid-credentials' };
    assert.match(OE_WORDING.error(new CausedError(cause), plainLocalize), /OE_PASSWORD/);
    assert.match(EXTENSION_WORDING.error(new CausedError(cause), plainLocalize), /'Onboarding Events: Sign In'/);
    assert.match(agentWording(OE_AGENT_ASKS)(new CausedError(cause)), /OE_PASSWORD/);
    assert.match(agentWording(EXTENSION_AGENT_ASKS)(new CausedError(cause)), /"Onboarding Events: Sign In"/);
  });
});
