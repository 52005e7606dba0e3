import * as assert from 'node:assert/strict';
import * as transport from '../../../src/core/client/http/transport';
import { isTransportError, TransportError } from '../../../src/core/client/http/transport';

/** A second copy of the module, as the separately bundled undici transport has: its class is another class. */
function otherBundleCopy(): typeof transport {
  const path = require.resolve('../../../src/core/client/http/transport');
  const ours = require.cache[path];
  Reflect.deleteProperty(require.cache, path);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(path) as typeof transport;
  } finally {
    if (ours !== undefined) require.cache[path] = ours;
  }
}

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

  it("are recognised across the two bundles' copies of the class, both ways", () => {
    const other = otherBundleCopy();
    assert.notEqual(other.TransportError, TransportError);
    const foreign = new other.TransportError('dns', 'ENOTFOUND');
    assert.ok(!(foreign instanceof TransportError));
    assert.ok(isTransportError(foreign));
    assert.ok(other.isTransportError(new TransportError('aborted', 'ABORT_ERR')));
  });
});
