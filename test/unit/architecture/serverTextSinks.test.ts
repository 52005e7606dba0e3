// Server text cannot reach a VS Code surface raw, by construction (issue 34,
// "Rules by construction"): a small file put where a new feature would sit
// (src/extension/watch/) hands an event's type and message to a tree item, a quick pick,
// a notification, a Markdown string and the status bar. The type checker
// refuses each; what it lets through (a template literal, a `+`, reading the
// characters with serverTextData outside the data readers) ESLint refuses.
// The same file through the renderers passes both, so the errors are the
// server text's and nothing else's.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import * as ts from 'typescript';

const root = join(__dirname, '..', '..', '..', '..');
/** Never written to disk: the compiler and ESLint are handed its text. */
const SINK_FILE = join(root, 'src', 'extension', 'watch', 'serverTextSinkProbe.ts');

const HEADER = `import * as vscode from 'vscode';
import type { OnboardingEvent } from '../../core/client/model';
`;

const RAW_AT_SINKS = `${HEADER}
export function show(event: OnboardingEvent, bar: vscode.StatusBarItem): unknown[] {
  const row = new vscode.TreeItem(event.type);
  const pick: vscode.QuickPickItem = { label: 'x', description: event.message };
  const told = vscode.window.showWarningMessage(event.message);
  const hover = new vscode.MarkdownString(event.type);
  bar.text = event.type;
  return [row, pick, told, hover];
}
`;

const LAUNDERED = `${HEADER}import { serverTextData } from '../../core/common/serverText';

export function show(event: OnboardingEvent): vscode.TreeItem[] {
  return [
    new vscode.TreeItem(\`watching · \${event.type}\`),
    new vscode.TreeItem('watching · ' + event.message),
    new vscode.TreeItem(serverTextData(event.type)),
  ];
}
`;

const RENDERED = `${HEADER}import { lineText, markdownText, notificationText } from '../../core/common/serverText';

export function show(event: OnboardingEvent, bar: vscode.StatusBarItem): unknown[] {
  const row = new vscode.TreeItem(\`watching · \${lineText(event.type)}\`);
  const pick: vscode.QuickPickItem = { label: 'x', description: lineText(event.message) };
  const told = vscode.window.showWarningMessage(notificationText(event.message));
  const hover = new vscode.MarkdownString(markdownText(event.type));
  bar.text = lineText(event.type);
  return [row, pick, told, hover];
}
`;

/** The project's program with the probe added under src/extension/watch/, its text given here (no file is written). */
function programWith(text: string): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  assert.ok(config, 'tsconfig.json reads');
  const host = ts.createCompilerHost(config.options);
  const base = { getSourceFile: host.getSourceFile.bind(host), fileExists: host.fileExists.bind(host), readFile: host.readFile.bind(host) };
  host.fileExists = (name) => name === SINK_FILE || base.fileExists(name);
  host.readFile = (name) => (name === SINK_FILE ? text : base.readFile(name));
  host.getSourceFile = (name, language, ...rest) =>
    name === SINK_FILE ? ts.createSourceFile(name, text, language, true) : base.getSourceFile(name, language, ...rest);
  return ts.createProgram({ rootNames: [SINK_FILE], options: { ...config.options, noEmit: true }, host });
}

/** The compiler's errors in the probe, as "line: TSnnnn", with the project's own options. */
function compilerErrors(text: string): string[] {
  const program = programWith(text);
  const file = program.getSourceFile(SINK_FILE);
  assert.ok(file);
  return ts.getPreEmitDiagnostics(program, file).map((d) => {
    const line = d.start === undefined ? 0 : file.getLineAndCharacterOfPosition(d.start).line + 1;
    return `${line}: TS${String(d.code)}`;
  });
}

/** ESLint's errors in the probe, as "line: rule", with the project's own config over the same program. */
async function lintErrors(text: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false, programs: [programWith(text)] } },
      // The import rules read the probe's file from disk, where it is not; the layers are not what this tests.
      rules: { 'import/no-cycle': 'off', 'import/no-restricted-paths': 'off' },
    },
  });
  const [result] = await eslint.lintText(text, { filePath: SINK_FILE });
  assert.ok(result);
  return result.messages.map((m) => `${String(m.line)}: ${m.ruleId ?? m.message}`);
}

describe('server text at VS Code sinks', function () {
  this.timeout(120_000);

  it('the type checker refuses an event type or message handed raw to a tree item, quick pick, notification, Markdown string and the status bar', () => {
    assert.deepEqual(compilerErrors(RAW_AT_SINKS), ['5: TS2769', '6: TS2322', '7: TS2769', '8: TS2345', '9: TS2322']);
  });

  it('ESLint refuses it in a template literal, after a +, and read by serverTextData outside the data readers', async () => {
    const errors = await lintErrors(LAUNDERED);
    for (const expected of [
      '3: no-restricted-syntax',
      '7: @typescript-eslint/restrict-template-expressions',
      '8: @typescript-eslint/restrict-plus-operands',
      '9: no-restricted-syntax',
    ])
      assert.ok(errors.includes(expected), `${expected} among ${JSON.stringify(errors)}`);
  });

  it('through the renderers the same surfaces pass both', async () => {
    assert.deepEqual(compilerErrors(RENDERED), []);
    assert.deepEqual(await lintErrors(RENDERED), []);
  });
});
