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
import { defaultData, startFakeApi, type FakeApi } from '../support/fakeApi';
import { OE, signedInEnv, tempFolder } from '../support/cli/runOe';
import { ON_TIME, STALLED, ABANDONED, ALL, serveTheLine } from '../support/cli/progressLine';

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
