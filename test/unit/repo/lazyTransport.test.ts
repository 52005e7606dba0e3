// The HTTP stack (undici) is a bundle of its own that the extension requires on
// first network use, so activation never parses it (esbuild.mjs, "lazy-transport").
// This reads the bundles `npm test` built first: a require() of the transport from
// a module the plugin does not know would pull all of undici into extension.js,
// as it once did when Test Connection was split, and no other test would notice.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = join(__dirname, '..', '..', '..', '..', 'dist');
const read = (file: string): string => readFileSync(join(dist, file), 'utf8');
/** esbuild's development bundles name each source file in a comment line (relative: a linked node_modules shows as ../…/node_modules). */
const undiciSources = (bundle: string): number =>
  bundle.split('\n').filter((line) => /^\s*\/\/ (?:\.\.\/)*(?:[^/\s]+\/)*node_modules\/undici\//.test(line)).length;

describe('the lazily loaded transport bundle', () => {
  it('extension.js holds none of undici, and requires ./undiciTransport.js instead', () => {
    const extension = read('extension.js');
    assert.equal(undiciSources(extension), 0, 'no undici source file is bundled into extension.js');
    assert.match(extension, /require\("\.\/undiciTransport\.js"\)/);
  });

  it('undiciTransport.js holds undici', () => {
    assert.ok(undiciSources(read('undiciTransport.js')) > 30, 'undici (its dispatchers) is bundled into undiciTransport.js');
  });
});
