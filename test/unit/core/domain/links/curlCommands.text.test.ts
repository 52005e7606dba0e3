// The text of "Copy as curl" and `oe curl` as a reader sees it before pasting: what its comments tell
// the user to do, which variables it sets and which it asks for, and which hosts it takes.
import * as assert from 'node:assert/strict';
import { plainLocalize } from '../../../../../src/core/common/localize';
import { curlCommands } from '../../../../../src/core/domain/links/curlCommands';

const base = { apiBaseUrl: 'https://api.example', authUrl: 'https://auth.example/token', serialNumber: 'MX-4711-A0023' };

/** The lines a shell runs: neither comments nor blank. */
const commands = (text: string): string[] => text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
const comments = (text: string): string[] => text.split('\n').filter((line) => line.startsWith('#'));

describe('curl commands: the text', () => {
  it('tells the reader what the text does, which variables to set and why no credential shows in a process list', () => {
    assert.deepEqual(comments(curlCommands(base, plainLocalize)), [
      "# Onboarding Events: the token and events requests for 'MX-4711-A0023', as the extension makes them.",
      '# Set OE_CLIENT_SECRET, OE_PASSWORD, OE_CLIENT_ID, OE_USERNAME first, without writing them into a file, a ticket or the shell history.',
      '# curl reads every credential from its standard input (--config -): none appears in a process list.',
      '# 1. Token request (spec §5): password grant, the client authenticated by HTTP Basic.',
      '# 2. Events request (spec §4.1) with that token.',
    ]);
  });

  it('writes the client id and user name when known, and then asks only for the secrets', () => {
    const text = curlCommands({ ...base, clientId: 'line-7', username: 'operator' }, plainLocalize);
    assert.deepEqual(commands(text).slice(0, 2), ["OE_CLIENT_ID='line-7'", "OE_USERNAME='operator'"]);
    assert.match(text, /^# Set OE_CLIENT_SECRET, OE_PASSWORD first,/m);
  });

  it('sets no variable of its own when it knows neither the client id nor the user name', () => {
    const [first] = commands(curlCommands(base, plainLocalize));
    assert.match(first ?? '', /^oe_form\(\) \{/);
    const onlyId = commands(curlCommands({ ...base, clientId: 'line-7' }, plainLocalize));
    assert.deepEqual(onlyId.slice(0, 2), ["OE_CLIENT_ID='line-7'", onlyId[1]]);
    assert.match(onlyId[1] ?? '', /^oe_form\(\) \{/);
    assert.match(curlCommands({ ...base, clientId: 'line-7' }, plainLocalize), /^# Set OE_CLIENT_SECRET, OE_PASSWORD, OE_USERNAME first,/m);
    assert.match(
      curlCommands({ ...base, username: 'operator' }, plainLocalize),
      /^# Set OE_CLIENT_SECRET, OE_PASSWORD, OE_CLIENT_ID first,/m,
    );
  });

  it('asks curl for JSON on both requests', () => {
    const curls = commands(curlCommands(base, plainLocalize)).filter((line) => /\bcurl\b/.test(line));
    assert.equal(curls.length, 2);
    for (const line of curls) assert.match(line, /--header 'Accept: application\/json' /);
  });

  it('says why a timestamp that is not a whole number is refused', () => {
    assert.throws(() => curlCommands({ ...base, timestamp: 1.5 }, plainLocalize), /The timestamp filter must be a whole number/);
  });

  it('takes an IPv6 literal host, and refuses braces at either end of a host name', () => {
    const text = curlCommands({ ...base, apiBaseUrl: 'https://[2001:db8::1]:8443', authUrl: 'https://[::1]' }, plainLocalize);
    assert.match(text, /'https:\/\/\[2001:db8::1\]:8443\//);
    assert.match(text, /'https:\/\/\[::1\]\/[^']*' \\$/m);
    assert.throws(() => curlCommands({ ...base, apiBaseUrl: 'https://{api.example' }, plainLocalize), /\(host\)/);
    assert.throws(() => curlCommands({ ...base, authUrl: 'https://auth.example}/token' }, plainLocalize), /\(host\)/);
  });
});
