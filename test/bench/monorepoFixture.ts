// A monorepo of plant configurations for the benchmarks: `files` small YAML files in nested folders
// (plants, lines, stations), naming `distinct` serial numbers, each in at least two files and on
// several lines, among lines that name none. Written to a folder the caller removes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The i-th serial number of the fixture: matched by the default pattern ([A-Z]{2,4}-\d{4}-[A-Z0-9]{5}). */
export const monorepoSerial = (index: number): string =>
  `MR-${String(Math.floor(index / 100)).padStart(4, '0')}-S${String(index).padStart(4, '0')}`;

const FILES_PER_FOLDER = 100;
const FOLDERS_PER_PLANT = 20;

export interface MonorepoFixture {
  readonly folder: string;
  readonly files: number;
  readonly distinct: number;
  readonly bytes: number;
  /** Every place (file, 0-based line) of every serial number: what a scan must find. */
  readonly occurrences: number;
}

/** File f names serial numbers f mod distinct and (7f + 3) mod distinct, so every one of them is in two files or more. */
export function writeMonorepo(folder: string, distinct: number, files: number): MonorepoFixture {
  if (distinct > 10_000) throw new Error('the fixture names at most 10,000 serial numbers (four digits)');
  let bytes = 0;
  let occurrences = 0;
  for (let f = 0; f < files; f++) {
    const folderIndex = Math.floor(f / FILES_PER_FOLDER);
    const dir = join(
      folder,
      `plant-${String(Math.floor(folderIndex / FOLDERS_PER_PLANT)).padStart(2, '0')}`,
      `line-${String(folderIndex % FOLDERS_PER_PLANT).padStart(2, '0')}`,
    );
    if (f % FILES_PER_FOLDER === 0) mkdirSync(dir, { recursive: true });
    const first = monorepoSerial(f % distinct);
    const second = monorepoSerial((7 * f + 3) % distinct);
    const lines = [`# station ${f}`, 'station:', `  id: ${f}`, `  machine: "${first}"`, '  torque:'];
    for (let i = 0; i < 12; i++) lines.push(`    - { axis: ${i}, nm: ${(f * 13 + i * 7) % 400}, tolerance: 0.${(f + i) % 10} }`);
    lines.push(`  spare: "${second}"`, `  note: "replaces ${first} when it is down"`, '');
    occurrences += 3;
    const text = lines.join('\n');
    writeFileSync(join(dir, `station-${String(f).padStart(5, '0')}.yaml`), text);
    bytes += Buffer.byteLength(text);
  }
  return { folder, files, distinct, bytes, occurrences };
}
