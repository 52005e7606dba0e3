import * as assert from 'node:assert/strict';
import { isTransportError, TransportError } from '../../../src/core/http/transport';

describe('transport errors', () => {
  it('say the failure and the code, and nothing else, in their message', () => {
    const error = new TransportError('dns', 'ENOTFOUND');
    assert.equal(error.message, 'dns (ENOTFOUND)');
    assert.equal(error.name, 'TransportError');
    assert.equal(String(error), 'TransportError: dns (ENOTFOUND)');
    assert.deepEqual(error.context, {});
  });

  it('are recognised by instanceof or by the shared marker, and nothing else is', () => {
    assert.ok(isTransportError(new TransportError('aborted', 'ABORT_ERR')));
    assert.ok(isTransportError({ [Symbol.for('onboardingEvents.TransportError')]: true }));
    for (const other of [
      new Error('dns (ENOTFOUND)'),
      { [Symbol.for('onboardingEvents.TransportError')]: 'yes' },
      { failure: 'dns', code: 'ENOTFOUND' },
      null,
      undefined,
      'TransportError',
    ]) {
      assert.equal(isTransportError(other), false);
    }
  });
});
