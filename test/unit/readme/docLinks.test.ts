// Every relative link, image and #anchor in the project's top-level pages resolves: the README
// sends its readers to CONTRIBUTING, ARCHITECTURE and NETWORKS for the depth, and a heading
// renamed on one page must not leave a dead link on another. Anchors are GitHub's heading slugs.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(__dirname, '..', '..', '..', '..');
const pages = [
  'README.md',
  'CONTRIBUTING.md',
  'ARCHITECTURE.md',
  'NETWORKS.md',
  'CHANGELOG.md',
  'docs/features.md',
  'docs/security-model.md',
];

/** A page's lines with fenced code blocks (also inside quotes) blanked (kept as empty lines, so line numbers hold). */
function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const marker = /^(?:\s*>)*\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker !== undefined) {
      fence = marker;
      return '';
    }
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return '';
    }
    return line;
  });
}

/** GitHub's anchor for a heading's text: markup dropped, lower case, punctuation removed, each space a hyphen. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a page offers: each heading's slug, repeated ones numbered -1, -2, … as GitHub does. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(readFileSync(file, 'utf8'))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

interface Link {
  page: string;
  line: number;
  target: string;
}

/** Inline links and images `[text](target)` and reference definitions `[label]: target`, outside code. */
function linksOf(page: string): Link[] {
  const links: Link[] = [];
  proseLines(readFileSync(join(root, page), 'utf8')).forEach((raw, index) => {
    const line = raw.replace(/(`+)[^`]*?\1/g, '');
    const found = [
      ...[...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
      ...[...line.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/g)].map((m) => m[1]),
    ];
    for (const target of found) if (target !== undefined) links.push({ page, line: index + 1, target });
  });
  return links;
}

/** Why a relative link does not resolve, or undefined when it does (links with a scheme are not ours to check). */
function problem(link: Link): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) return undefined;
  const hash = link.target.indexOf('#');
  const path = decodeURIComponent(hash === -1 ? link.target : link.target.slice(0, hash));
  const anchor = hash === -1 ? undefined : decodeURIComponent(link.target.slice(hash + 1));
  const file = path === '' ? join(root, link.page) : join(dirname(join(root, link.page)), path);
  if (!existsSync(file)) return `${relative(root, file)} does not exist`;
  if (anchor === undefined) return undefined;
  if (!statSync(file).isFile() || !file.endsWith('.md')) return `#${anchor} points into ${relative(root, file)}, which has no headings`;
  return anchorsOf(file).has(anchor) ? undefined : `${relative(root, file)} has no heading whose anchor is #${anchor}`;
}

describe('links between the documentation pages', () => {
  it('skips code blocks and computes GitHub heading anchors', () => {
    assert.deepEqual(proseLines('[a](b)\n> ```text\n> [c](d)\n> ```\n```sh\n# not a heading\n```'), ['[a](b)', '', '', '', '', '', '']);
    assert.equal(slug('How tests find a VS Code'), 'how-tests-find-a-vs-code');
    assert.equal(slug('In your language: German and Chinese (Simplified)'), 'in-your-language-german-and-chinese-simplified');
    assert.equal(slug('Rules ESLint enforces (`npm test` runs it)'), 'rules-eslint-enforces-npm-test-runs-it');
    assert.equal(slug('Where to add…'), 'where-to-add');
    assert.equal(slug('[Unreleased]'), 'unreleased');
    assert.equal(slug('Proxies & certificates'), 'proxies--certificates');
  });

  it('finds links in each page, so an empty result means nothing was checked', () => {
    for (const page of pages) assert.ok(existsSync(join(root, page)), `${page} exists`);
    const readme = linksOf('README.md');
    assert.ok(
      readme.some((link) => link.target.startsWith('media/')),
      'the README shows pictures from media/',
    );
    for (const page of ['CONTRIBUTING.md', 'ARCHITECTURE.md', 'NETWORKS.md']) {
      assert.ok(
        readme.some((link) => link.target.startsWith(page)),
        `the README links to ${page}`,
      );
    }
  });

  it('resolves every relative link, picture and anchor to a file and a heading', () => {
    const broken = pages
      .flatMap(linksOf)
      .map((link) => ({ link, why: problem(link) }))
      .filter((entry) => entry.why !== undefined)
      .map(({ link, why }) => `${link.page}:${link.line}: (${link.target}): ${why ?? ''}`);
    assert.deepEqual(broken, []);
  });
});
