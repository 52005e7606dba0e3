// The README's commands and settings tables are checked against package.json
// (with %key% strings resolved through package.nls.json), so they can't drift.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..', '..');

interface Manifest {
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    configuration: { properties: Record<string, { default?: unknown }> };
  };
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
const nlsPath = join(root, 'package.nls.json');
const nls = existsSync(nlsPath) ? (JSON.parse(readFileSync(nlsPath, 'utf8')) as Record<string, string>) : {};
const readme = readFileSync(join(root, 'README.md'), 'utf8');

function localized(value: string): string {
  const key = /^%(.+)%$/.exec(value)?.[1];
  if (key === undefined) return value;
  const text = nls[key];
  assert.ok(text !== undefined, `package.nls.json defines ${key}`);
  return text;
}

/** Rows of the first table under `## heading`, as arrays of cell texts. */
function tableUnder(heading: string): string[][] {
  const start = readme.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `README has a "## ${heading}" section`);
  const section = readme.slice(start + heading.length + 5).split('\n## ')[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim().replace(/\\\|/g, '|')),
    );
}

const code = (cell: string | undefined): string => /^`(.*)`$/.exec(cell ?? '')?.[1] ?? '';

describe('README tables match package.json', () => {
  it('lists every contributed command once, with its category and title', () => {
    const rows = tableUnder('Commands');
    const documented = new Map(rows.map((row) => [code(row[0]), row[1]]));
    assert.equal(documented.size, rows.length, 'no command is listed twice');
    const expected = new Map(
      manifest.contributes.commands.map((c) => [
        c.command,
        c.category ? `${localized(c.category)}: ${localized(c.title)}` : localized(c.title),
      ]),
    );
    assert.deepEqual([...documented.keys()].sort(), [...expected.keys()].sort());
    for (const [id, title] of expected) assert.equal(documented.get(id), title, `title of ${id}`);
  });

  it('lists every setting once, with its default', () => {
    const rows = tableUnder('Settings');
    const documented = new Map(rows.map((row) => [code(row[0]), code(row[1])]));
    assert.equal(documented.size, rows.length, 'no setting is listed twice');
    const properties = manifest.contributes.configuration.properties;
    assert.deepEqual([...documented.keys()].sort(), Object.keys(properties).sort());
    for (const [key, schema] of Object.entries(properties)) {
      assert.equal(documented.get(key), JSON.stringify(schema.default), `default of ${key}`);
    }
  });
});
