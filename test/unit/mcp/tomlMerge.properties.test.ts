// Connect an Agent's merge of ~/.codex/config.toml edits only our own table
// (issue 34, item 4): it used to take `[[hooks]]` for a line of our table, so
// everything from our table down to the next `[table]` was replaced, hooks
// and comments included. The property builds files from pieces whose owner
// is known (tables, arrays of tables, inline tables, comments, multi-line
// strings and arrays whose lines look like headers, our own table and
// sub-tables in several spellings) and checks the merge against the file
// with only our pieces swapped for the new table, byte for byte.
import * as assert from 'node:assert/strict';
import { mergeTomlConfig, type ServerLaunch } from '../../../src/core/agents/agentConfigs';
import { fc, holds } from '../../support/properties';

const LAUNCH: ServerLaunch = { command: '/opt/code', args: ['/ext/dist/mcp.js'], env: { ELECTRON_RUN_AS_NODE: '1' } };
const TABLE = '[mcp_servers.onboarding-events]\ncommand = "/opt/code"\nargs = ["/ext/dist/mcp.js"]\nenv = { ELECTRON_RUN_AS_NODE = "1" }\n';

/** Text that looks like TOML structure, for comments and strings. */
const lookalike = fc.constantFrom(
  '[[hooks]]',
  '[mcp_servers.onboarding-events]',
  '[mcp_servers.onboarding-events.env]',
  '[other]',
  'x = 1',
  '"""',
  "'''",
  '# not a comment',
  'plain words',
  '',
);
/** What a multi-line string may hold: anything but its own closing delimiter. */
const inBasic = lookalike.filter((text) => !text.includes('"""'));
const inLiteral = lookalike.filter((text) => !text.includes("'''"));
const comment = lookalike.map((text) => `# ${text}\n`);
const blank = fc.constantFrom('\n', '   \n');
const keyName = fc.constantFrom('model', 'command', 'notify', 'x', '"quoted key"', "'literal key'");
const keyLine = fc.oneof(
  fc.tuple(keyName, fc.constantFrom('"a # b [c]"', "'it''s'", '1', 'true', '"esc \\" ]"')).map(([k, v]) => `${k} = ${v}\n`),
  keyName.map((k) => `${k} = { a = 1, b = "x]", c = [1, 2] } # inline\n`),
  fc.tuple(keyName, lookalike).map(([k, t]) => `${k} = [\n  "a",\n  ["b"]\n  ,[${JSON.stringify(t)}]\n]\n`),
  fc.tuple(keyName, inBasic, inBasic).map(([k, a, b]) => `${k} = """\n${a}\n  ${b} \\""" still in\n"""\n`),
  fc.tuple(keyName, inLiteral).map(([k, t]) => `${k} = '''\n${t}\n[[hooks]]\n'''\n`),
  keyName.map((k) => `${k} = """one "quoted" line""""\n`),
);
const otherHeader = fc.constantFrom(
  '[other]\n',
  '[mcp_servers.github] # theirs\n',
  '[[hooks]]\n',
  '[[ hooks ]]\n',
  '[ mcp_servers . "other" ]\n',
  '[mcp_servers.onboarding]\n',
  '[mcp_servers."onboarding-events-2"]\n',
  '[[mcp_servers.github.tools]]\n',
  '[profiles."onboarding-events"]\n',
);
const ourHeader = fc.constantFrom(
  '[mcp_servers.onboarding-events]\n',
  '[mcp_servers."onboarding-events"]\n',
  "[ mcp_servers.'onboarding-events' ] # ours\n",
);
const ourSubHeader = fc.constantFrom('[mcp_servers.onboarding-events.env]\n', '[[mcp_servers.onboarding-events.tools]]\n');

interface Piece {
  readonly text: string;
  readonly ours: boolean;
}

const root = fc.array(fc.oneof(comment, blank, keyLine), { maxLength: 4 }).map((lines): Piece => ({ text: lines.join(''), ours: false }));
const otherTable = fc
  .tuple(fc.array(fc.oneof(comment, blank), { maxLength: 2 }), otherHeader, fc.array(fc.oneof(comment, blank, keyLine), { maxLength: 4 }))
  .map(([before, header, body]): Piece => ({ text: before.join('') + header + body.join(''), ours: false }));
// Ours: header and key lines; between our own tables, anything (it is inside our table); never a comment or blank line last.
const ourTable = fc
  .tuple(
    ourHeader,
    fc.array(keyLine, { maxLength: 2 }),
    fc.array(fc.tuple(fc.array(fc.oneof(comment, blank), { maxLength: 2 }), ourSubHeader, fc.array(keyLine, { maxLength: 2 })), {
      maxLength: 2,
    }),
  )
  .map(([header, body, subs]): Piece => ({
    text: header + body.join('') + subs.map(([between, sub, keys]) => between.join('') + sub + keys.join('')).join(''),
    ours: true,
  }));

const configFile = fc.record({
  root,
  tables: fc.array(fc.oneof({ weight: 3, arbitrary: otherTable }, { weight: 1, arbitrary: ourTable }), { maxLength: 6 }),
  crlf: fc.boolean(),
  finalNewline: fc.boolean(),
});

/** The pieces as a file: CRLF when asked, and without its final newline when asked. */
function asFile({ root, tables, crlf, finalNewline }: { root: Piece; tables: Piece[]; crlf: boolean; finalNewline: boolean }): Piece[] {
  const pieces = [root, ...tables].map((piece) => ({ ...piece, text: crlf ? piece.text.replace(/\n/g, '\r\n') : piece.text }));
  const last = pieces.length - 1;
  const lastPiece = pieces[last];
  if (!finalNewline && lastPiece !== undefined) pieces[last] = { ...lastPiece, text: lastPiece.text.replace(/\r?\n$/, '') };
  return pieces;
}

/**
 * What the merge must write: the file with our pieces swapped for the new
 * table (once, where the first was), or the table appended; in the file's
 * line ends (CRLF when it has any).
 */
function expected(pieces: readonly Piece[]): string {
  const text = pieces.map((piece) => piece.text).join('');
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const table = TABLE.replace(/\n/g, newline);
  if (!pieces.some((piece) => piece.ours)) {
    const separator = text === '' || text.endsWith(newline + newline) ? '' : text.endsWith('\n') ? newline : newline + newline;
    return text + separator + table;
  }
  let seen = false;
  return pieces
    .map((piece) => {
      if (!piece.ours) return piece.text;
      if (seen) return '';
      seen = true;
      return table;
    })
    .join('');
}

describe('Connect an Agent: the TOML merge edits only our own table', () => {
  it('keeps every other byte of config.toml: tables, arrays of tables, inline tables, comments, multi-line strings and arrays', () => {
    void holds(
      fc.property(configFile, (file) => {
        const pieces = asFile(file);
        const text = pieces.map((piece) => piece.text).join('');
        const merged = mergeTomlConfig(text, LAUNCH);
        assert.ok(merged.ok, text);
        assert.equal(merged.text, expected(pieces));
      }),
    );
  });

  it('merging again changes nothing', () => {
    void holds(
      fc.property(configFile, (file) => {
        const once = mergeTomlConfig(
          asFile(file)
            .map((piece) => piece.text)
            .join(''),
          LAUNCH,
        );
        assert.ok(once.ok);
        assert.deepEqual(mergeTomlConfig(once.text, LAUNCH), once);
      }),
    );
  });

  it('keeps the [[hooks]] tables and the comment after our table (the file of the report)', () => {
    const before =
      'model = "o3"\n\n[mcp_servers.onboarding-events]\ncommand = "old"\nargs = []\n\n# hooks run by codex\n[[hooks]]\nevent = "start"\ncommand = "notify-send hi"\n\n[[hooks]]\nevent = "stop"\n';
    const merged = mergeTomlConfig(before, LAUNCH);
    assert.ok(merged.ok);
    assert.equal(
      merged.text,
      `model = "o3"\n\n${TABLE}\n# hooks run by codex\n[[hooks]]\nevent = "start"\ncommand = "notify-send hi"\n\n[[hooks]]\nevent = "stop"\n`,
    );
  });

  it('leaves a file alone that gives our server by dotted keys or an inline table', () => {
    assert.equal(mergeTomlConfig('[mcp_servers]\nonboarding-events.command = "x"\n', LAUNCH).ok, false);
    assert.equal(mergeTomlConfig('mcp_servers = { onboarding-events = { command = "x" } }\n', LAUNCH).ok, false);
    assert.equal(mergeTomlConfig('[mcp_servers]\n"onboarding-events" = { command = "x" }\n', LAUNCH).ok, false);
  });
});
