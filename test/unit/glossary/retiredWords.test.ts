// One word per concept (ARCHITECTURE.md, "Glossary"): the words the glossary
// retired stay out of the product, its tests and its docs. Each entry names what
// came back and the word that replaced it, so the failure says what to write
// instead. The retired command ids kept as aliases for keybindings
// (COMMAND_ALIASES) and the glossary's own "Retired words" table are the places
// an old word may stand.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
    under: ['src/extension/board', 'src/core/domain/board', 'test/unit/board', 'test/unit/core/domain/board', 'test/support/board'],
  },
  { pattern: /\bWatchedTransport\b/, kept: 'RecordingTransport ("watch" is polling a machine)' },
  { pattern: /\bspeaks?\b|\bspeakers?\b/i, kept: 'tellUser / "tells the user" (a watch\'s outcome is told once)' },
  { pattern: /\bdoors?\b/i, kept: "entry point; the window's end of the MCP channel is mcpChannelHost.ts" },
  { pattern: /(?<![\w.'"])s\(\s*'|\bexport const s\b|\bfunction look\(/, kept: 'pageString() / svgLookFromTheme()' },
  { pattern: /\bt\(\s*'request failed'\s*\)/, kept: "the state word 'unavailable' (stateWord), with its warning look" },
  {
    pattern: /'(?:notLoaded|notEnough|optionalStep|notAFile|tooLarge|notOurs|loadMore|openMachine|openEvent|exportTable|openDeprecation)'/,
    kept: "the kebab-case discriminant ('not-loaded', 'load-more', 'open-machine'…; see discriminantCasing.test.ts)",
    under: ['src'],
  },
  {
    pattern: /\bWindowEntry\b|\b(?:get|peek)Window\b|\btime window\b|\bwindowed\b/i,
    kept: 'since answer / since filter (SinceEntry, getSince, peekSince): "window" is a VS Code window',
  },
  {
    pattern: /\bCheckStep\b|\bStepStatus\b|\bproxyStep\b|connectionSteps/,
    kept: 'stage, a part of Test Connection (CheckStage, StageStatus, proxyStage, connectionStages.ts)',
  },
  {
    pattern: /\bWatchStep\b|\bnewestStep\b|'new-step'|\bnewest step\b/i,
    kept: 'newest event, what a watch last saw (NewestEvent, newestEvent, \'new-event\'); "step" is the learned step',
  },
  {
    pattern: /\bcontribut/i,
    kept: 'lesson: what one machine teaches the line history',
    under: ['src/core/domain/progress', 'src/core/eventsCache'],
  },
];

function filesOf(dir: string, extensions: readonly string[]): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesOf(path, extensions);
    return extensions.some((extension) => entry.name.endsWith(extension)) ? [path] : [];
  });
}

/** This file: it names every retired word to forbid it. */
const THIS_TEST = 'test/unit/glossary/retiredWords.test.ts';

/** The docs: the Markdown files at the top of the repository and under docs/. */
function docs(): string[] {
  const top = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => join(root, entry.name));
  return [...top, ...filesOf(join(root, 'docs'), ['.md'])];
}

/** A Markdown file without its "Retired words" section (up to the next heading): the glossary names what it retires. */
function withoutRetiredSection(file: string, text: string): string {
  if (!file.endsWith('.md')) return text;
  let inRetired = false;
  return text
    .split('\n')
    .map((line) => {
      const heading = /^#+\s+(.*)$/.exec(line);
      if (heading) inRetired = /^retired words$/i.test(heading[1]?.trim() ?? '');
      return inRetired && !heading ? '' : line;
    })
    .join('\n');
}

const relativeName = (path: string): string => relative(root, path).split('\\').join('/');

function findRetiredIn(paths: readonly string[]): string[] {
  return paths
    .map(relativeName)
    .filter((file) => file !== THIS_TEST)
    .flatMap((file) => findRetired(file, withoutRetiredSection(file, readFileSync(join(root, file), 'utf8'))));
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

describe('the glossary: retired words stay out of src/, test/, the docs and package.json', () => {
  it('no src/**/*.ts file uses a retired word or identifier', () => {
    assert.deepEqual(findRetiredIn(filesOf(join(root, 'src'), ['.ts'])), []);
  });

  it('no test file (test/**/*.ts, *.mjs) and no doc (*.md at the top, docs/) uses a retired word', () => {
    assert.deepEqual(findRetiredIn([...filesOf(join(root, 'test'), ['.ts', '.mjs']), ...docs()]), []);
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

  it('lets the glossary\'s "Retired words" section name them, and no other section of a doc', () => {
    const doc = '## Glossary\n\n### Retired words\n\n| door | entry point |\n\n## Flow\n\nEvery door asks.';
    assert.deepEqual(findRetired('X.md', withoutRetiredSection('X.md', doc)), [
      `X.md:9: "door" is retired; the glossary's word is ${RETIRED.find((retired) => retired.pattern.test('door'))?.kept ?? ''}`,
    ]);
  });
});
