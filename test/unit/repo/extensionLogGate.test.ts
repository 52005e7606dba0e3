// The extension-host tiers' log gate (test/support/extensionLog.ts) on files
// of its own: it reads what the extension's log gained, line by line, and
// picks the [error] lines no test declared.
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExtensionLogReader, unexpectedErrors } from '../../support/extensionLog';

describe("The extension's log gate", () => {
  let logs: string;
  let file: string;

  beforeEach(() => {
    logs = mkdtempSync(join(tmpdir(), 'oe-log-gate-'));
    const folder = join(logs, '20260101T100000', 'exthost1', 'onboarding-events.onboarding-events');
    mkdirSync(folder, { recursive: true });
    file = join(folder, 'Onboarding Events.log');
  });

  afterEach(() => {
    rmSync(logs, { recursive: true, force: true });
  });

  it('reads only what was written since it last read, and a line only once it is complete', () => {
    writeFileSync(file, '2026-01-01 10:00:00.000 [error] from an earlier run\n');
    const reader = new ExtensionLogReader(logs);
    assert.deepEqual(reader.newLines(), []);
    appendFileSync(file, '2026-01-01 10:00:01.000 [info] GET → 200\n2026-01-01 10:00:02.000 [error] Reve');
    assert.deepEqual(reader.newLines(), ['2026-01-01 10:00:01.000 [info] GET → 200']);
    appendFileSync(file, 'al MX-1: Cannot resolve tree item\n');
    assert.deepEqual(reader.newLines(), ['2026-01-01 10:00:02.000 [error] Reveal MX-1: Cannot resolve tree item']);
    assert.deepEqual(reader.newLines(), []);
  });

  it('reads every extension host of the run, a log that appears later from its start, and no other channel', () => {
    const reader = new ExtensionLogReader(logs);
    const second = join(logs, '20260101T100000', 'exthost2', 'onboarding-events.onboarding-events');
    mkdirSync(second, { recursive: true });
    writeFileSync(join(second, 'Onboarding Events.log'), '2026-01-01 10:00:00.000 [error] second window\n');
    writeFileSync(join(second, 'Other.log'), '2026-01-01 10:00:00.000 [error] another channel\n');
    assert.deepEqual(reader.newLines(), ['2026-01-01 10:00:00.000 [error] second window']);
  });

  it('fails on [error] lines no pattern declares, and only on those', () => {
    const lines = [
      '2026-01-01 10:00:00.000 [info] Signed in',
      '2026-01-01 10:00:00.000 [warning] GET → 500',
      '2026-01-01 10:00:01.000 [error] Pin MX-1: disk full',
      '2026-01-01 10:00:02.000 [error] Reveal MX-2: Cannot resolve tree item',
      '    at a stack line mentioning [error] ',
    ];
    assert.deepEqual(unexpectedErrors(lines, [/Pin MX-1/]), ['2026-01-01 10:00:02.000 [error] Reveal MX-2: Cannot resolve tree item']);
    assert.deepEqual(unexpectedErrors(lines, [/Pin MX-1/, /Reveal/]), []);
  });
});
