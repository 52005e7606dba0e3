// Hostile corpus: argument forms of commands, which any other extension and
// any `command:` link can run. Outside our tests an argument may prefill, but
// signing in shows the URLs in a modal first; the demo's one-step sign-in is
// honoured only for exactly what the demo's extension host was started with.
// Add a row.
import assert from 'node:assert/strict';
import {
  demoGrant,
  demoVariable,
  planArgumentSignIn,
  signInFields,
  type SignInFields,
} from '../../../src/core/domain/session/argumentSignIn';
import { ArgumentTrust, plainArgument } from '../../../src/extension/workbench/argumentTrust';
import type { Environment } from '../../../src/core/domain/session/sessionState';
import { ConfirmedEndpoints } from '../../../src/extension/session/credentialStore';

const DEMO: SignInFields = {
  apiBaseUrl: 'http://127.0.0.1:4711',
  authUrl: 'http://127.0.0.1:4711/oauth',
  clientId: 'demo-client',
  clientSecret: 'demo-secret',
  username: 'demo',
  password: 'demo-password',
  environment: 'Demo',
};
/** The demo's fields without an environment name. */
const UNNAMED: SignInFields = {
  apiBaseUrl: DEMO.apiBaseUrl,
  authUrl: DEMO.authUrl,
  clientId: DEMO.clientId,
  clientSecret: DEMO.clientSecret,
  username: DEMO.username,
  password: DEMO.password,
};
const PRODUCTION: Environment = {
  id: 'p1',
  name: 'Production',
  apiBaseUrl: 'https://api.example.com',
  authUrl: 'https://auth.example.com/oauth',
  clientId: 'c',
  username: 'u',
};
const ATTACKER: SignInFields = {
  ...DEMO,
  apiBaseUrl: 'https://api.example.com',
  authUrl: 'https://evil.example/oauth',
  environment: 'Production',
};

describe('hostile input: argument forms of commands', () => {
  describe('the plan for signIn with an argument object', () => {
    const grant = demoGrant(JSON.stringify({ signIn: DEMO }));
    const rows: readonly { name: string; input: Parameters<typeof planArgumentSignIn>[0]; expected: string }[] = [
      {
        name: 'overwriting Production with another /token, no grant: confirm, naming what it replaces (no mode skips the question)',
        input: {
          fields: ATTACKER,
          apiBaseUrl: ATTACKER.apiBaseUrl,
          authUrl: ATTACKER.authUrl,
          existing: PRODUCTION,
          grant: undefined,
        },
        expected: 'confirm+replaces',
      },
      {
        name: 'a new environment: confirm',
        input: { fields: DEMO, apiBaseUrl: DEMO.apiBaseUrl, authUrl: DEMO.authUrl, existing: undefined, grant: undefined },
        expected: 'confirm',
      },
      {
        name: 'overwriting Production with another /token: confirm, naming what it replaces',
        input: {
          fields: ATTACKER,
          apiBaseUrl: ATTACKER.apiBaseUrl,
          authUrl: ATTACKER.authUrl,
          existing: PRODUCTION,
          grant,
        },
        expected: 'confirm+replaces',
      },
      {
        name: 'the demo grant, exactly: silent',
        input: { fields: DEMO, apiBaseUrl: DEMO.apiBaseUrl, authUrl: DEMO.authUrl, existing: undefined, grant },
        expected: 'granted',
      },
      {
        name: 'the demo grant with one field changed: confirm',
        input: {
          fields: { ...DEMO, password: 'x' },
          apiBaseUrl: DEMO.apiBaseUrl,
          authUrl: DEMO.authUrl,
          existing: undefined,
          grant,
        },
        expected: 'confirm',
      },
      {
        name: 'the demo grant naming an existing environment: confirm',
        input: {
          fields: DEMO,
          apiBaseUrl: DEMO.apiBaseUrl,
          authUrl: DEMO.authUrl,
          existing: { ...PRODUCTION, name: 'Demo', apiBaseUrl: DEMO.apiBaseUrl, authUrl: DEMO.authUrl },
          grant,
        },
        expected: 'confirm',
      },
    ];
    for (const row of rows) {
      it(row.name, () => {
        const plan = planArgumentSignIn(row.input);
        const shown = plan.kind === 'confirm' ? `confirm${plan.replaces ? '+replaces' : ''}` : plan.kind;
        assert.equal(shown, row.expected);
        if (plan.kind === 'confirm') {
          assert.equal(plan.authUrl, row.input.authUrl, 'the modal shows the authorization server that would get the password');
          assert.equal(plan.apiBaseUrl, row.input.apiBaseUrl);
        }
      });
    }
  });

  describe('the demo grant (OE_DEMO_SIGN_IN)', () => {
    const rows: readonly [string, string | undefined, boolean][] = [
      ["absent (every user's VS Code)", undefined, false],
      ["the demo's loopback sign-in", JSON.stringify({ signIn: DEMO }), true],
      ['a remote API', JSON.stringify({ signIn: { ...DEMO, apiBaseUrl: 'https://api.example.com' } }), false],
      ['a remote authorization server', JSON.stringify({ signIn: { ...DEMO, authUrl: 'https://evil.example/oauth' } }), false],
      ['a loopback-looking host name', JSON.stringify({ signIn: { ...DEMO, authUrl: 'http://127.0.0.1.evil.example/oauth' } }), false],
      ['a field missing', JSON.stringify({ signIn: { ...DEMO, password: '' } }), false],
      ['not JSON', '{signIn', false],
      ['absurdly long', JSON.stringify({ signIn: DEMO, pad: 'x'.repeat(20_000) }), false],
    ];
    for (const [name, variable, granted] of rows) {
      it(`${name}: ${granted ? 'granted' : 'no grant'}`, () => {
        assert.equal(demoGrant(variable) !== undefined, granted);
      });
    }
  });

  it('signInFields needs all six non-empty strings', () => {
    assert.equal(signInFields({ ...DEMO, clientId: 3 }), undefined);
    assert.deepEqual(signInFields({ ...DEMO, extra: 'x' }), DEMO);
  });

  it('signInFields keeps the environment name trimmed, and leaves out a blank or non-text one', () => {
    assert.equal(signInFields({ ...DEMO, environment: '  Demo  ' })?.environment, 'Demo');
    assert.equal(signInFields({ ...DEMO, environment: '   ' })?.environment, undefined);
    assert.equal(signInFields({ ...DEMO, environment: 7 })?.environment, undefined);
    assert.ok(!('environment' in (signInFields({ ...DEMO, environment: ' ' }) ?? {})));
  });

  describe('the grant is read only from a well-formed variable', () => {
    const rows: readonly [string, string][] = [
      ['JSON that is not an object', '[1, 2]'],
      ['JSON null', 'null'],
      ['signIn that is not an object', JSON.stringify({ signIn: 'everything' })],
      ['an API URL that is not a URL', JSON.stringify({ signIn: { ...DEMO, apiBaseUrl: 'not a url' } })],
      ['an authorization URL that is not a URL', JSON.stringify({ signIn: { ...DEMO, authUrl: 'not a url' } })],
    ];
    for (const [name, variable] of rows)
      it(`${name}: no grant`, () => {
        assert.equal(demoGrant(variable), undefined);
      });

    it('a variable of up to 10,000 characters is read, a longer one is not', () => {
      const base = JSON.stringify({ signIn: DEMO, pad: '' });
      const padded = (length: number): string => JSON.stringify({ signIn: DEMO, pad: 'x'.repeat(length - base.length) });
      assert.equal(padded(10_000).length, 10_000);
      assert.deepEqual(demoGrant(padded(10_000)), { fields: DEMO, pin: [] });
      assert.equal(demoGrant(padded(10_001)), undefined);
    });
  });

  describe('what the confirmation shows', () => {
    const input = {
      fields: UNNAMED,
      apiBaseUrl: PRODUCTION.apiBaseUrl,
      authUrl: PRODUCTION.authUrl,
      grant: undefined,
    };
    it('the URLs and the user that would be signed in', () => {
      assert.deepEqual(planArgumentSignIn({ ...input, existing: undefined }), {
        kind: 'confirm',
        apiBaseUrl: PRODUCTION.apiBaseUrl,
        authUrl: PRODUCTION.authUrl,
        username: DEMO.username,
      });
    });
    it('no replaced environment when its URLs stay the same', () => {
      assert.equal(planArgumentSignIn({ ...input, existing: PRODUCTION }).kind, 'confirm');
      assert.ok(!('replaces' in planArgumentSignIn({ ...input, existing: PRODUCTION })));
    });
    it('the replaced environment when only its API URL or only its authorization URL changes', () => {
      for (const existing of [
        { ...PRODUCTION, apiBaseUrl: 'https://api2.example.com' },
        { ...PRODUCTION, authUrl: 'https://auth2.example.com/oauth' },
      ]) {
        const plan = planArgumentSignIn({ ...input, existing });
        assert.equal(plan.kind === 'confirm' ? plan.replaces : undefined, existing);
      }
    });
    it('the demo grant with another environment name, or none where the grant has one, still asks', () => {
      const grant = demoGrant(JSON.stringify({ signIn: DEMO }));
      const exactly = { fields: DEMO, apiBaseUrl: DEMO.apiBaseUrl, authUrl: DEMO.authUrl, existing: undefined, grant };
      assert.equal(planArgumentSignIn(exactly).kind, 'granted');
      assert.equal(planArgumentSignIn({ ...exactly, fields: { ...DEMO, environment: 'Other' } }).kind, 'confirm');
      assert.equal(planArgumentSignIn({ ...exactly, fields: UNNAMED }).kind, 'confirm');
      const unnamedGrant = demoGrant(JSON.stringify({ signIn: UNNAMED }));
      assert.equal(planArgumentSignIn({ ...exactly, fields: UNNAMED, grant: unnamedGrant }).kind, 'granted');
    });
  });

  it('Sign In Again starts at the URL steps once the URLs differ from those the user confirmed', async () => {
    const values = new Map<string, unknown>();
    const confirmed = new ConfirmedEndpoints({
      get: (key) => values.get(key),
      update: (key, value) => Promise.resolve(void values.set(key, value)),
    });
    assert.equal(confirmed.isConfirmed(PRODUCTION), false, 'nothing confirmed yet');
    await confirmed.confirm(PRODUCTION);
    assert.equal(confirmed.isConfirmed(PRODUCTION), true);
    assert.equal(
      confirmed.isConfirmed({ ...PRODUCTION, authUrl: 'https://evil.example/oauth' }),
      false,
      'another /token is not what the user confirmed',
    );
  });

  describe('an argument is read once, into a plain copy (issue 24, item 1)', () => {
    it('a getter is read once: the copy answers the same to every later check', () => {
      let reads = 0;
      const arg = {
        ...UNNAMED,
        get password(): unknown {
          reads++;
          return reads <= 2 ? 'p' : 0;
        },
      };
      const copy = plainArgument(arg, ['password', 'username']);
      assert.equal(reads, 1);
      assert.deepEqual(signInFields(copy ?? {}), signInFields(copy ?? {}));
      assert.equal(copy?.['password'], 'p');
    });

    it('a getter that throws, a function, an object or a Proxy trap leave a key out, never in two states', () => {
      const target: Record<string, unknown> = { serialNumber: 'MX-1' };
      const proxy = new Proxy(target, {
        get: (_target, key): unknown => (key === 'via' ? { toString: () => 'x' } : target[String(key)]),
      });
      assert.deepEqual(plainArgument(proxy, ['serialNumber', 'via']), { serialNumber: 'MX-1' });
      const hostile = {
        get environment(): string {
          throw new Error('boom');
        },
        confirm: () => false,
        target: { toString: () => 'workspace' },
      };
      assert.deepEqual(plainArgument(hostile, ['environment', 'confirm', 'target']), {});
      assert.equal(plainArgument('MX-1', ['serialNumber']), undefined);
    });

    it('nested keys are copied one level down and nothing else', () => {
      assert.deepEqual(plainArgument({ prefill: { apiBaseUrl: 'https://a', extra: 1 }, other: 2 }, [], { prefill: ['apiBaseUrl'] }), {
        prefill: { apiBaseUrl: 'https://a' },
      });
    });
  });

  describe('OE_DEMO_SIGN_IN is trusted only from the launch environment, or in a development host (issue 24, item 1)', () => {
    const value = JSON.stringify({ signIn: DEMO });
    it('an installed extension ignores a value another extension put into process.env', () => {
      const variable = demoVariable({ launchEnviron: 'PATH=/usr/bin\0HOME=/root\0', processValue: value, development: false });
      assert.equal(demoGrant(variable), undefined);
    });
    it('without /proc, an installed extension has no grant at all', () => {
      assert.equal(demoVariable({ launchEnviron: undefined, processValue: value, development: false }), undefined);
    });
    it('the launch environment wins over process.env, in any mode', () => {
      const launched = JSON.stringify({ signIn: UNNAMED });
      const variable = demoVariable({
        launchEnviron: `A=1\0OE_DEMO_SIGN_IN=${launched}\0B=2`,
        processValue: value,
        development: true,
      });
      assert.deepEqual(demoGrant(variable)?.fields, UNNAMED);
    });
    it('the machines the demo pins are granted with it: strings only, at most 20', () => {
      const pin = ['MX-1', 7, 'x'.repeat(101), ...Array.from({ length: 30 }, (_, i) => `P-${i}`)];
      const grant = demoGrant(JSON.stringify({ signIn: DEMO, pin }));
      assert.equal(grant?.pin.length, 20);
      assert.equal(grant.pin[0], 'MX-1');
      assert.ok(grant.pin.every((serial) => serial.length <= 100));
    });
    it('a grant for a machine is used once', () => {
      const trust = new ArgumentTrust(() => Promise.resolve(undefined));
      trust.grantOnce({ serialNumber: 'MX-1' });
      assert.equal(trust.fromOwnUi({ serialNumber: 'MX-1' }), true);
      assert.equal(trust.fromOwnUi({ serialNumber: 'MX-1' }), false);
    });
    it('a development host without /proc reads process.env (the demo)', () => {
      assert.deepEqual(demoGrant(demoVariable({ launchEnviron: undefined, processValue: value, development: true }))?.fields, DEMO);
    });
  });

  describe('the one rule for other extensions (issue 24, items 5 and 9)', () => {
    const asked: string[] = [];
    const details: string[] = [];
    const trust = (answer: 'yes' | 'no' | 'other'): ArgumentTrust =>
      new ArgumentTrust((message, detail, action) => {
        asked.push(message);
        details.push(detail);
        return Promise.resolve(answer === 'yes' ? action : answer === 'other' ? 'Cancel' : undefined);
      }, 'notice');
    const request = { title: 'Pin MX-1?', detail: 'd', action: 'Pin' };

    it('every request is asked in the modal, and only its own button agrees', async () => {
      asked.length = 0;
      assert.equal(await trust('no').confirm(request), false);
      assert.equal(await trust('yes').confirm(request), true);
      assert.equal(await trust('other').confirm(request), false, 'another button is no agreement');
      assert.deepEqual(asked, ['Pin MX-1?', 'Pin MX-1?', 'Pin MX-1?']);
    });

    it("the modal's detail ends with the notice of who asks", async () => {
      details.length = 0;
      await trust('yes').confirm(request);
      assert.deepEqual(details, ['d\n\nnotice']);
    });

    it("our own UI's mark vouches for exactly the serial number (or environment) it was made for, in this activation", () => {
      const ours = trust('no');
      const marked = ours.ownArgument({ serialNumber: 'MX-1' });
      assert.equal(ours.fromOwnUi(marked), true);
      assert.equal(ours.fromOwnUi({ ...marked, serialNumber: 'MX-2' }), false, 'another serial number');
      assert.equal(ours.fromOwnUi({ serialNumber: 'MX-1' }), false, 'no mark');
      assert.equal(ours.fromOwnUi({ serialNumber: 'MX-1', via: '' }), false);
      assert.equal(trust('no').fromOwnUi(marked), false, 'another activation');
      const environment = ours.ownArgument({ environment: 'Production' });
      assert.equal(ours.fromOwnUi(environment), true);
      assert.equal(
        ours.fromOwnUi({ serialNumber: 'Production', via: environment.via }),
        false,
        'a mark for an environment is not one for a machine',
      );
    });
  });
});
