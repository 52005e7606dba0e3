// oe's files (esbuild.mjs, "oe-files"): dist/oe.js is the entry and holds no
// library and no translation; the program (dist/oeProgram.js) holds everything
// but the MCP SDK and its schema libraries, which only `oe mcp` loads
// (dist/oeMcp.js). A static import of either from a module the entry or the
// program reaches would pull it back into every start, and only a timing would notice.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = join(__dirname, '..', '..', '..', '..', 'dist');
const read = (file: string): string => readFileSync(join(dist, file), 'utf8');
/** The source files esbuild put into a bundle of oe's, as esbuild.mjs writes them from its metafile. */
const sources = (file: string): readonly string[] =>
  (JSON.parse(read('oe.meta.json')) as Record<string, readonly string[] | undefined>)[`dist/${file}`] ?? [];
const MCP_ONLY = /node_modules\/(?:@modelcontextprotocol|zod|zod-to-json-schema|ajv|ajv-formats)\//;

describe("oe's bundles", () => {
  it('oe.js holds only its entry and the locale reader, and requires ./oeProgram.js for the rest', () => {
    const entry = read('oe.js');
    assert.deepEqual([...sources('oe.js')].sort(), ['src/cli/cliLanguage.ts', 'src/cli/main.ts']);
    assert.match(entry, /require\("\.\/oeProgram\.js"\)/);
  });

  it('oeProgram.js holds no MCP SDK, zod or ajv, and requires ./oeMcp.js for oe mcp', () => {
    const program = read('oeProgram.js');
    assert.deepEqual(
      sources('oeProgram.js').filter((source) => MCP_ONLY.test(source)),
      [],
    );
    assert.ok(
      sources('oeProgram.js').some((source) => source.includes('node_modules/undici/')),
      'the program holds undici',
    );
    assert.match(program, /require\("\.\/oeMcp\.js"\)/);
  });

  it("oeProgram.js holds undici's dispatchers, not its index with fetch, WebSocket and the mocks (they wake Node's own undici)", () => {
    const undici = sources('oeProgram.js').filter((source) => source.includes('node_modules/undici/'));
    assert.ok(undici.some((source) => source.endsWith('undici/lib/dispatcher/agent.js')));
    assert.deepEqual(
      undici.filter((source) =>
        /undici\/(?:index\.js|lib\/(?:mock\/|cache\/|web\/(?:websocket|eventsource|cookies)\/|web\/fetch\/index\.js))/.test(source),
      ),
      [],
    );
  });

  it('oeMcp.js holds the MCP SDK', () => {
    assert.ok(sources('oeMcp.js').some((source) => /node_modules\/@modelcontextprotocol\//.test(source)));
  });
});
