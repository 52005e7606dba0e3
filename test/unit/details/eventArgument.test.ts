import * as assert from 'node:assert/strict';
import { plainLocalize } from '../../../src/core/common/localize';
import { eventFromArgument, eventFromState, eventReference, stateFor } from '../../../src/extension/details/eventArgument';
import { machineCreated, SERIAL } from './fixtures';

describe('details: command arguments and restored panel state', () => {
  it('accepts an OnboardingEvent and re-validates it from its raw JSON', () => {
    const result = eventFromArgument(machineCreated(), 'auto');
    assert.ok(result.ok);
    assert.equal(result.event.type, 'MACHINE_CREATED');
    assert.equal(result.event.links['machine']?.length, 1);
  });

  it('accepts { event } as tree nodes pass it', () => {
    const result = eventFromArgument({ event: machineCreated() }, 'auto');
    assert.ok(result.ok);
    assert.equal(result.event.serialNumber, SERIAL);
  });

  it('survives a JSON round trip, as a command link argument would', () => {
    const result = eventFromArgument(JSON.parse(JSON.stringify(machineCreated())) as unknown, 'auto');
    assert.ok(result.ok);
  });

  it('trusts the raw JSON, not the typed fields a caller may have forged', () => {
    const forged = { ...machineCreated(), type: 'FORGED', links: { x: [{ href: 'javascript:alert(1)' }] } };
    const result = eventFromArgument(forged, 'auto');
    assert.ok(result.ok);
    assert.equal(result.event.type, 'MACHINE_CREATED');
    assert.equal(result.event.links['x'], undefined);
  });

  it('applies the timestamp unit setting when re-validating', () => {
    const result = eventFromArgument(machineCreated(), 'seconds');
    assert.ok(result.ok);
    assert.equal(result.event.time.unit, 'seconds');
    assert.equal(result.event.time.detected, false);
  });

  const bad: [string, unknown][] = [
    ['nothing', undefined],
    ['a string', 'MX-4711-A0023'],
    ['an event without serial number', { ...machineCreated(), serialNumber: '' }],
    ['an event without raw data', { serialNumber: SERIAL, type: 'T', message: 'm' }],
    ['an event whose raw JSON is invalid', { serialNumber: SERIAL, raw: { type: 'T', message: 'm', timestamp: 'yesterday' } }],
  ];
  for (const [label, argument] of bad) {
    it(`refuses ${label}, with a reason`, () => {
      const result = eventFromArgument(argument, 'auto');
      assert.ok(!result.ok && result.reason.length > 0);
    });
  }

  it("words the validator's reason, and a link's, in the t it is given (the details command passes vscode.l10n.t)", () => {
    const marking = (message: string, ...args: (string | number | boolean)[]): string => `⟦${plainLocalize(message, ...args)}⟧`;
    const badTime = eventFromArgument({ serialNumber: SERIAL, raw: { type: 'T', message: 'm', timestamp: 'yesterday' } }, 'auto', marking);
    assert.deepEqual(badTime, { ok: false, reason: '⟦timestamp must be an integer⟧' });
    const badLink = eventFromArgument(
      { serialNumber: SERIAL, raw: { type: 'T', message: 'm', timestamp: 1, _links: { machine: { href: 7 } } } },
      'auto',
      marking,
    );
    assert.deepEqual(badLink, { ok: false, reason: '⟦_links.machine.href must be a string⟧' });
  });

  describe('a reference the events cache resolves, as the hover and the quick fixes pass it', () => {
    const cases: readonly [string, unknown, { serialNumber: string; key: string | undefined } | undefined][] = [
      ['{ serialNumber, key }: that event', { serialNumber: SERIAL, key: 'k1' }, { serialNumber: SERIAL, key: 'k1' }],
      ['{ serialNumber }: the latest event', { serialNumber: SERIAL }, { serialNumber: SERIAL, key: undefined }],
      ['a key that is not a string', { serialNumber: SERIAL, key: 7 }, undefined],
      ['an empty serial number', { serialNumber: '', key: 'k1' }, undefined],
      ['a forged event (more fields than a reference)', { serialNumber: SERIAL, type: 'FORGED' }, undefined],
      ['an event', machineCreated(), undefined],
      ['{ event } as tree nodes pass it', { event: machineCreated() }, undefined],
      ['a string', SERIAL, undefined],
      ['an array', [SERIAL, 'k1'], undefined],
    ];
    for (const [label, argument, expected] of cases) {
      it(`${label} gives ${expected === undefined ? 'no reference' : 'a reference'}`, () => {
        assert.deepEqual(eventReference(argument), expected);
      });
    }
  });

  it('round-trips through the persisted state and re-validates on revive', () => {
    const state = stateFor(machineCreated());
    const revived = eventFromState(JSON.parse(JSON.stringify(state)) as unknown, 'auto');
    assert.ok(revived.ok);
    assert.equal(revived.event.key, machineCreated().key);
  });

  it('refuses state from another version or with tampered raw data', () => {
    assert.equal(eventFromState({ version: 2, serialNumber: SERIAL, raw: machineCreated().raw }, 'auto').ok, false);
    assert.equal(eventFromState({ version: 1, serialNumber: SERIAL, raw: { type: 1 } }, 'auto').ok, false);
    assert.equal(eventFromState(undefined, 'auto').ok, false);
  });
});
