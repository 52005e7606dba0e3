#!/usr/bin/env node
// `node scripts/code-stats.mjs [dir]`: the proportion figures ARCHITECTURE.md
// and the issues quote for src/ — files, lines, lines per file, and import
// statements per 1,000 lines (an `import … from` or `export … from` line, type-only
// ones included), so a reading can be repeated instead of estimated.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = process.argv[2] ?? 'src';

function* sources(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (name.endsWith('.ts')) yield path;
  }
}

let files = 0;
let lines = 0;
let imports = 0;
const folders = new Map();
for (const path of sources(root)) {
  const text = readFileSync(path, 'utf8');
  const count = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  // Multi-line imports count once: only the line that opens the statement is matched.
  const opened = text.split('\n').filter((line) => /^\s*(import\s|export\s+(\*|\{|type\s*\{)[^;]*?(from\s|$))/.test(line)).length;
  files++;
  lines += count;
  imports += opened;
  const folder = relative(root, path).split('/').slice(0, -1).join('/') || '.';
  const entry = folders.get(folder) ?? { files: 0, lines: 0 };
  folders.set(folder, { files: entry.files + 1, lines: entry.lines + count });
}

console.log(
  `${root}: ${files} files, ${lines} lines, ${(lines / files).toFixed(0)} lines per file, ${imports} imports (${((imports * 1000) / lines).toFixed(1)} per 1,000 lines)`,
);
for (const [folder, entry] of [...folders].sort(([a], [b]) => a.localeCompare(b)))
  console.log(`  ${folder.padEnd(28)} ${String(entry.files).padStart(3)} files ${String(entry.lines).padStart(6)} lines`);
