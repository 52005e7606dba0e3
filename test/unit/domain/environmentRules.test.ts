import * as assert from 'node:assert/strict';
import type { Environment } from '../../../src/domain/session/sessionState';
import {
  accountLabel,
  checkEndpointUrl,
  checkEnvironmentName,
  findSameAccount,
  isLoopbackHost,
  parseStoredEnvironments,
  suggestEnvironmentName,
} from '../../../src/domain/session/environmentRules';

function env(overrides: Partial<Environment> = {}): Environment {
  return {
    id: 'id-1',
    name: 'Production',
    apiBaseUrl: 'https://api.example.com',
    authUrl: 'https://auth.example.com/oauth',
    clientId: 'client',
    username: 'user',
    ...overrides,
  };
}

describe('environment rules: endpoint URLs', () => {
  const accepted: [string, string][] = [
    ['https://api.example.com', 'https://api.example.com'],
    ['  https://api.example.com/  ', 'https://api.example.com'],
    ['https://api.example.com/base//', 'https://api.example.com/base'],
    ['HTTPS://API.Example.com:8443/x', 'https://api.example.com:8443/x'],
    ['http://127.0.0.1:4000', 'http://127.0.0.1:4000'],
    ['http://127.255.0.9/api', 'http://127.255.0.9/api'],
    ['http://localhost:8080/', 'http://localhost:8080'],
    ['http://fake.localhost', 'http://fake.localhost'],
    ['http://[::1]:9000', 'http://[::1]:9000'],
  ];
  for (const [input, normalized] of accepted) {
    it(`accepts ${JSON.stringify(input)} as ${normalized}`, () => {
      assert.deepEqual(checkEndpointUrl(input), { ok: true, url: normalized });
    });
  }

  const refused: [string, string][] = [
    ['', 'empty'],
    ['   ', 'empty'],
    ['api.example.com', 'invalid'],
    ['ftp://api.example.com', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['http://api.example.com', 'insecure'],
    ['http://10.0.0.1', 'insecure'],
    ['http://128.0.0.1', 'insecure'],
    ['http://localhost.example.com', 'insecure'],
    ['http://[::2]', 'insecure'],
    ['https://user:pass@api.example.com', 'userinfo'],
    ['https://api.example.com/?token=x', 'query'],
    ['https://api.example.com/#frag', 'query'],
  ];
  for (const [input, problem] of refused) {
    it(`refuses ${JSON.stringify(input)} (${problem})`, () => {
      assert.deepEqual(checkEndpointUrl(input), { ok: false, problem });
    });
  }

  it('treats only 127.0.0.0/8, localhost and ::1 as loopback', () => {
    assert.equal(isLoopbackHost('127.0.0.1'), true);
    assert.equal(isLoopbackHost('127.1.2.3'), true);
    assert.equal(isLoopbackHost('LOCALHOST'), true);
    assert.equal(isLoopbackHost('[::1]'), true);
    assert.equal(isLoopbackHost('127.0.0.256'), false);
    assert.equal(isLoopbackHost('127.0.0.1.nip.io'), false);
    assert.equal(isLoopbackHost('192.168.1.1'), false);
  });
});

describe('environment rules: names', () => {
  it('suggests the API host, made unique with a counter', () => {
    assert.equal(suggestEnvironmentName('https://api.example.com/x', []), 'api.example.com');
    assert.equal(suggestEnvironmentName('https://api.example.com', [env({ name: 'api.example.com' })]), 'api.example.com (2)');
    assert.equal(suggestEnvironmentName('not a url', []), 'Default');
  });

  it('refuses empty, multi-line, too long and (case-insensitively) taken names, except the own one', () => {
    const others = [env({ id: 'a', name: 'Production' })];
    assert.equal(checkEnvironmentName('  ', others), 'empty');
    assert.equal(checkEnvironmentName('a\nb', others), 'too-long');
    assert.equal(checkEnvironmentName('x'.repeat(61), others), 'too-long');
    assert.equal(checkEnvironmentName('production ', others), 'taken');
    assert.equal(checkEnvironmentName('Production', others, 'a'), undefined);
    assert.equal(checkEnvironmentName('Test system', others), undefined);
  });

  it('labels accounts "username · Environment", without parentheses: VS Code adds the provider\'s name in them', () => {
    assert.equal(accountLabel(env({ username: 'api.user', name: 'Test' })), 'api.user · Test');
    assert.doesNotMatch(accountLabel(env({ username: 'api.user', name: 'Demo' })), /[()]/);
  });
});

describe('environment rules: stored environments are untrusted', () => {
  it('keeps well-formed entries and drops malformed, insecure and duplicate ones', () => {
    const good = env({ id: 'a' });
    const parsed = parseStoredEnvironments([
      good,
      { ...good },
      { ...good, id: 'b', apiBaseUrl: 'http://api.example.com' },
      { ...good, id: 'c', name: 42 },
      { ...good, id: '' },
      null,
      'text',
      { ...good, id: 'd', extra: 'ignored' },
    ]);
    assert.deepEqual(
      parsed.map((e) => e.id),
      ['a', 'd'],
    );
    assert.equal(Object.prototype.hasOwnProperty.call(parsed[1], 'extra'), false);
  });

  it('reads anything that is not an array as no environments', () => {
    assert.deepEqual(parseStoredEnvironments(undefined), []);
    assert.deepEqual(parseStoredEnvironments({ a: 1 }), []);
  });

  it('finds the same account by endpoints, client id and username', () => {
    const list = [env({ id: 'a' }), env({ id: 'b', username: 'other' })];
    assert.equal(
      findSameAccount(list, {
        apiBaseUrl: 'https://api.example.com',
        authUrl: 'https://auth.example.com/oauth',
        clientId: 'client',
        username: 'other',
      })?.id,
      'b',
    );
    assert.equal(
      findSameAccount(list, {
        apiBaseUrl: 'https://api2.example.com',
        authUrl: 'https://auth.example.com/oauth',
        clientId: 'client',
        username: 'user',
      }),
      undefined,
    );
  });
});
