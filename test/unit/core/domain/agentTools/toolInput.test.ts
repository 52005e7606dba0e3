import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  needsConfirmation,
  parseMachineEventsInput,
  parseSerialScopeInput,
  parseSummaryInput,
  parseWatchInput,
  requestsNeeded,
  SERIAL_SOURCES,
  TOOL_LIMITS,
} from '../../../../../src/core/domain/agentTools/toolInput';
import { LANGUAGE_MODEL_TOOLS } from '../../../../../src/extension/workbench/constants';

interface ContributedTool {
  readonly name: string;
  readonly inputSchema: {
    readonly properties: Record<
      string,
      {
        readonly maxItems?: number;
        readonly maximum?: number;
        readonly minimum?: number;
        readonly default?: unknown;
        readonly enum?: readonly string[];
      }
    >;
  };
}

const root = join(__dirname, '..', '..', '..', '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { languageModelTools: ContributedTool[] } };
const schema = (name: string): ContributedTool['inputSchema']['properties'] => {
  const tool = manifest.contributes.languageModelTools.find((t) => t.name === name);
  assert.ok(tool, name);
  return tool.inputSchema.properties;
};

describe('agent tools: input', () => {
  it('takes valid serial numbers trimmed, once each, in the order given, and says why others were refused', () => {
    const parsed = parseMachineEventsInput({
      serialNumbers: [' MX-4711-A0023 ', 'KRP-0815-B0001', 'MX-4711-A0023', '', 'a\tb', 'x'.repeat(129), 42],
    });
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value.serialNumbers, ['MX-4711-A0023', 'KRP-0815-B0001']);
    assert.deepEqual(
      parsed.value.refused.map((r) => r.input),
      ['', 'a\tb', 'x'.repeat(129), '42'],
    );
    assert.match(parsed.value.refused[1]?.reason ?? '', /control character/);
    assert.equal(parsed.value.maxEvents, TOOL_LIMITS.defaultEventsPerMachine);
  });

  it('watch: no serial numbers (absent, null or empty) lists the watches; at most 10 start; the rest is checked as elsewhere', () => {
    for (const input of [{}, undefined, { serialNumbers: null }, { serialNumbers: [] }])
      assert.deepEqual(parseWatchInput(input), { ok: true, value: { serialNumbers: [], refused: [] } }, JSON.stringify(input));
    const ten = Array.from({ length: TOOL_LIMITS.maxWatchSerials }, (_, i) => `MX-4711-A${String(i).padStart(4, '0')}`);
    const parsed = parseWatchInput({ serialNumbers: ten });
    assert.ok(parsed.ok);
    assert.equal(parsed.value.serialNumbers.length, 10);
    const eleven = parseWatchInput({ serialNumbers: [...ten, 'MX-4711-B0001'] });
    assert.ok(!eleven.ok);
    assert.match(eleven.problem, /at most 10 serial numbers/);
    const notAList = parseWatchInput({ serialNumbers: 'MX-4711-A0023' });
    assert.ok(!notAList.ok);
    assert.equal(schema(LANGUAGE_MODEL_TOOLS.watch)['serialNumbers']?.maxItems, TOOL_LIMITS.maxWatchSerials);
  });

  it('refuses more serial numbers than one call may send requests for, before anything is read', () => {
    const many = Array.from({ length: TOOL_LIMITS.maxEventsSerials + 1 }, (_, i) => `MX-4711-A${String(i).padStart(4, '0')}`);
    const events = parseMachineEventsInput({ serialNumbers: many });
    assert.ok(!events.ok);
    assert.match(events.problem, /at most 20 serial numbers/);
    assert.ok(parseSummaryInput({ serialNumbers: many }).ok, 'the summary takes more');
    assert.ok(!parseSummaryInput({ serialNumbers: [...many, ...many, ...many, ...many, ...many] }).ok);
  });

  it('refuses input without a serial number list', () => {
    for (const input of [undefined, null, 'MX-4711-A0023', {}, { serialNumbers: 'MX-4711-A0023' }, { serialNumbers: [] }]) {
      assert.equal(parseMachineEventsInput(input).ok, false, JSON.stringify(input));
    }
  });

  it('says what is wrong with the list, in words the agent can act on', () => {
    const problem = (input: unknown): string => {
      const parsed = parseMachineEventsInput(input);
      assert.ok(!parsed.ok);
      return parsed.problem;
    };
    assert.equal(problem(null), 'Give "serialNumbers": an array of serial numbers.');
    assert.equal(problem({ serialNumbers: 'MX-4711-A0023' }), 'Give "serialNumbers": an array of serial numbers.');
    assert.equal(problem({ serialNumbers: [] }), 'Give at least one serial number in "serialNumbers".');
    const many = Array.from({ length: 21 }, (_, i) => `MX-4711-A${String(i).padStart(4, '0')}`);
    assert.equal(
      problem({ serialNumbers: many }),
      'Give at most 20 serial numbers per call (21 were given); split the list into several calls.',
    );
    assert.ok(parseMachineEventsInput({ serialNumbers: many.slice(0, 20) }).ok, 'exactly the limit is fine');
  });

  it('shows entries that are not strings as JSON (or their type when JSON has none), refused as not a string', () => {
    const parsed = parseSummaryInput({ serialNumbers: ['MX-4711-A0023', null, { a: 1 }, undefined, true] });
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value.refused, [
      { input: 'null', reason: 'not a string' },
      { input: '{"a":1}', reason: 'not a string' },
      { input: 'undefined', reason: 'not a string' },
      { input: 'true', reason: 'not a string' },
    ]);
    assert.deepEqual(parsed.value.serialNumbers, ['MX-4711-A0023']);
  });

  it('clamps the events per machine into 1…50 and rounds it', () => {
    const max = (value: unknown): number => {
      const parsed = parseMachineEventsInput({ serialNumbers: ['MX-4711-A0023'], maxEventsPerMachine: value });
      assert.ok(parsed.ok);
      return parsed.value.maxEvents;
    };
    assert.equal(max(500), 50);
    assert.equal(max(0), 1);
    assert.equal(max(3.6), 4);
    assert.equal(max('7'), 10);
    assert.equal(max(1), 1);
    assert.equal(max(50), 50);
    assert.equal(max(Number.POSITIVE_INFINITY), 10);
    assert.equal(max(Number.NaN), 10);
  });

  it('reads the scope source, and requires a file for "file"', () => {
    assert.deepEqual(parseSerialScopeInput({ source: 'activeEditor' }), { ok: true, value: { source: 'activeEditor' } });
    assert.deepEqual(parseSerialScopeInput({ source: 'file', file: ' config/line3.yaml ' }), {
      ok: true,
      value: { source: 'file', file: 'config/line3.yaml' },
    });
    assert.equal(parseSerialScopeInput({ source: 'file' }).ok, false);
    assert.equal(parseSerialScopeInput({ source: 'disk' }).ok, false);
  });

  it('says which sources there are, and that "file" needs a non-blank path', () => {
    const sources = 'Give "source": one of "activeEditor", "file", "workspace".';
    const needsFile = 'With "source": "file", give "file": a path relative to the workspace folder, or an absolute path inside it.';
    for (const [input, problem] of [
      [null, sources],
      ['workspace', sources],
      [{ source: 'disk' }, sources],
      [{ source: 'file', file: '   ' }, needsFile],
      [{ source: 'file', file: 7 }, needsFile],
    ] as const)
      assert.deepEqual(parseSerialScopeInput(input), { ok: false, problem }, JSON.stringify(input));
    assert.deepEqual(parseSerialScopeInput({ source: 'workspace', file: 'ignored' }), { ok: true, value: { source: 'workspace' } });
  });

  it('asks for confirmation only when more than 10 machines are not in the cache', () => {
    const serials = Array.from({ length: 12 }, (_, i) => `S-${i}`);
    assert.equal(
      requestsNeeded(serials, () => false),
      12,
    );
    assert.equal(
      requestsNeeded(serials, (s) => s !== 'S-0' && s !== 'S-1'),
      2,
    );
    assert.equal(needsConfirmation(11), true);
    assert.equal(needsConfirmation(10), false);
  });

  it('states the same limits as the inputSchema in package.json', () => {
    const events = schema(LANGUAGE_MODEL_TOOLS.machineEvents);
    assert.equal(events['serialNumbers']?.maxItems, TOOL_LIMITS.maxEventsSerials);
    const perMachine = events['maxEventsPerMachine'];
    assert.ok(perMachine);
    assert.equal(perMachine.maximum, TOOL_LIMITS.maxEventsPerMachine);
    assert.equal(perMachine.default, TOOL_LIMITS.defaultEventsPerMachine);
    assert.equal(schema(LANGUAGE_MODEL_TOOLS.summary)['serialNumbers']?.maxItems, TOOL_LIMITS.maxSummarySerials);
    assert.deepEqual(schema(LANGUAGE_MODEL_TOOLS.serialNumbers)['source']?.enum, SERIAL_SOURCES);
  });
});
