// One word per concept (ARCHITECTURE.md, "Glossary"): the words the glossary
// retired stay out of the product. Each entry names what came back and the
// word that replaced it, so the failure says what to write instead. Scans
// every src/**/*.ts and package.json's contributions (what a user reads in
// VS Code); the retired command ids kept as aliases for keybindings
// (COMMAND_ALIASES) are the one place an old word may stand.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { COMMAND_ALIASES } from '../../../src/extension/workbench/constants';

const root = join(__dirname, '..', '..', '..', '..');

interface Retired {
  /** What must not come back. */
  readonly pattern: RegExp;
  /** The glossary's word (or the identifier) in its place. */
  readonly kept: string;
  /** Only files under these folders (relative to the repository), when the word is retired in one area only. */
  readonly under?: readonly string[];
}

export const RETIRED: readonly Retired[] = [
  {
    pattern: /glance/i,
    kept: 'inline status; the editor views share SerialStatuses/SerialStatus (editor/serialStatuses.ts, statusText.ts)',
  },
  {
    pattern: /\bBoardMark\b|\bMAX_MARKS\b|\bfailingMark\b|\bMARK_RADIUS\b/,
    kept: 'timeline point (TimelinePoint, MAX_POINTS, failingPoint)',
  },
  {
    pattern: /\bmarks?\b/i,
    kept: 'timeline point: "mark" is only the keyed hash of argumentTrust.ts',
    under: ['src/extension/board', 'src/core/domain/board'],
  },
  { pattern: /'not-loaded'|"not-loaded"/, kept: "'notLoaded'" },
  { pattern: /'no-events'|"no-events"/, kept: "'noEvents' (MachineState's spelling)" },
  { pattern: /\bWatchedTransport\b/, kept: 'RecordingTransport ("watch" is polling a machine)' },
  { pattern: /\bspeaks?\b|\bspeakers?\b/i, kept: 'tellUser / "tells the user" (a watch\'s outcome is told once)' },
  { pattern: /\bdoors?\b/i, kept: "entry point; the window's end of the MCP channel is mcpChannelHost.ts" },
  { pattern: /(?<![\w.'"])s\(\s*'|\bexport const s\b|\bfunction look\(/, kept: 'pageString() / svgLookFromTheme()' },
  { pattern: /\bt\(\s*'request failed'\s*\)/, kept: "the state word 'unavailable' (stateWord), with its warning look" },
];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The text a check reads: the retired command ids kept as aliases are blanked, so only they may carry an old word. */
function withoutAliases(text: string): string {
  let out = text;
  for (const id of Object.keys(COMMAND_ALIASES)) out = out.split(id).join('');
  return out;
}

function findRetired(file: string, text: string): string[] {
  const found: string[] = [];
  const lines = withoutAliases(text).split('\n');
  for (const retired of RETIRED) {
    if (retired.under && !retired.under.some((folder) => file.startsWith(`${folder}/`))) continue;
    lines.forEach((line, index) => {
      const match = retired.pattern.exec(line);
      if (match) found.push(`${file}:${index + 1}: "${match[0]}" is retired; the glossary's word is ${retired.kept}`);
    });
  }
  return found;
}

describe('the glossary: retired words stay out of src/ and package.json', () => {
  it('no src/**/*.ts file uses a retired word or identifier', () => {
    const found = tsFiles(join(root, 'src')).flatMap((path) =>
      findRetired(relative(root, path).split('\\').join('/'), readFileSync(path, 'utf8')),
    );
    assert.deepEqual(found, []);
  });

  it("package.json's contributions (and their English strings) use no retired word", () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: unknown };
    const contributions = JSON.stringify(manifest.contributes, undefined, 1);
    const strings = readFileSync(join(root, 'package.nls.json'), 'utf8');
    assert.deepEqual([...findRetired('package.json', contributions), ...findRetired('package.nls.json', strings)], []);
  });

  it('catches a retired word where it stands, and lets an alias of a retired command id stand', () => {
    assert.deepEqual(findRetired('src/extension/editor/x.ts', 'const ok = 1;\n// at a glance'), [
      `src/extension/editor/x.ts:2: "glance" is retired; the glossary's word is ${RETIRED[0]?.kept ?? ''}`,
    ]);
    assert.deepEqual(findRetired('src/extension/workbench/constants.ts', `'${Object.keys(COMMAND_ALIASES)[0] ?? ''}': x`), []);
    assert.equal(findRetired('src/extension/watch/x.ts', '// marks the point').length, 0, '"mark" is retired only on the board');
  });
});
