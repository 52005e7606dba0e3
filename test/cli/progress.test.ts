// Progress without VS Code: `oe mcp`'s tools say the same progress as the
// extension's, learned from the machines it read. The line the fake API serves:
// twelve machines that onboarded days ago, one on time, one stalled for hours,
// one silent for months. (`oe check --json`: test/unit/cli/checkProgress.test.ts.)
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AGENT_TOOL_NAMES } from '../../src/core/domain/agentTools/toolDefinitions';
import { defaultData, makeEvent, startFakeApi, type FakeApi } from '../support/fakeApi';
import { OE, signedInEnv, tempFolder } from '../support/cli/runOe';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
// Twelve: enough that a machine 2 minutes into its step has a range, with the machines in progress teaching too.
const ONBOARDED = Array.from({ length: 12 }, (_, i) => `MX-4711-P00${String(i + 20)}`);
const ON_TIME = 'MX-4711-P0010';
const STALLED = 'MX-4711-P0011';
const ABANDONED = 'MX-4711-P0012';
const ALL = [...ONBOARDED, ON_TIME, STALLED, ABANDONED];

/** Events of one machine, oldest first: [type, minutes before now]. */
function events(steps: readonly (readonly [string, number])[]): Record<string, unknown>[] {
  return steps.map(([type, minutesAgo]) => makeEvent({ type, message: `${type} reported`, timestamp: Date.now() - minutesAgo * MINUTE }));
}

function serveTheLine(api: FakeApi): void {
  ONBOARDED.forEach((serial, index) => {
    const start = ((3 + index) * DAY) / MINUTE;
    const step = 4 + (index % 6) * 0.4;
    api.setMachineEvents(
      serial,
      events([
        ['ONBOARDING_STARTED', start],
        ['FIRMWARE_CHECKED', start - step],
        ['DEVICE_CONFIGURED', start - 2 * step],
        ['ONBOARDING_COMPLETED', start - 3 * step],
      ]),
    );
  });
  api.setMachineEvents(
    ON_TIME,
    events([
      ['ONBOARDING_STARTED', 7],
      ['FIRMWARE_CHECKED', 2],
    ]),
  );
  api.setMachineEvents(
    STALLED,
    events([
      ['ONBOARDING_STARTED', 200],
      ['FIRMWARE_CHECKED', 180],
    ]),
  );
  api.setMachineEvents(
    ABANDONED,
    events([
      ['ONBOARDING_STARTED', (150 * DAY) / MINUTE + 5],
      ['FIRMWARE_CHECKED', (150 * DAY) / MINUTE],
    ]),
  );
}

describe('progress without VS Code: oe mcp', function () {
  this.timeout(60_000);
  let api: FakeApi;
  let dir: string;

  beforeEach(async () => {
    api = await startFakeApi({ data: { ...defaultData(), machines: {} } });
    serveTheLine(api);
    dir = tempFolder('progress');
    writeFileSync(join(dir, 'line.yaml'), `machines:\n${ALL.map((serial) => `  - ${serial}\n`).join('')}`);
  });
  afterEach(async () => {
    await api.close();
  });

  it('oe mcp says the progress of machines in progress, learned from the machines it read', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [OE, 'mcp'],
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...signedInEnv(api) },
      cwd: dir,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: AGENT_TOOL_NAMES.summary, arguments: { serialNumbers: ALL } });
      const text = (result.content as { text?: string }[]).map((part) => part.text ?? '').join('\n');
      const line = (serial: string): string => text.split('\n').find((l) => l.startsWith(`- "${serial}"`)) ?? '';
      assert.match(
        line(ON_TIME),
        /progress: step 2 of 4 · "FIRMWARE_CHECKED", at it for 2 min, likely \d+ min more \(80 %: \d+–\d+ min\), from 12 onboarded machines$/,
      );
      assert.match(line(STALLED), /progress: STALLED \(/);
      assert.match(line(ABANDONED), /ABANDONED/);
      assert.match(text, /: 2 in progress \(1 of them STALLED\), 1 abandoned, 12 onboarded\./);
    } finally {
      await client.close();
    }
  });
});
