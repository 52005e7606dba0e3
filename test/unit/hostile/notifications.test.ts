// Hostile corpus: notification, progress and status-bar text. VS Code turns
// "[label](command:…)" in a notification into a runnable link and "$(icon)"
// in the status bar into an icon, so text from a server, a setting or a file
// must go through inertNotificationText. The first test reads our sources: a
// show*Message / setStatusBarMessage message or a withProgress title built
// from anything but a literal must be wrapped. Add rows to the second.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { displayText, inertNotificationText, NOTIFICATION_LINK } from '../../../src/core/common/notificationText';
import { checkSerialNumber } from '../../../src/core/domain/serialNumbers/serialNumberInput';
import { plainLocalize } from '../../../src/core/common/localize';

const ROOT = join(__dirname, '../../../..');
const SHOWN = new Set(['showInformationMessage', 'showWarningMessage', 'showErrorMessage', 'setStatusBarMessage']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'page' ? [] : sources(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

/** A literal, a `vscode.l10n.t('literal')` without arguments, or an inertNotificationText(…) call. */
function isInert(node: ts.Expression): boolean {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return true;
  if (ts.isParenthesizedExpression(node)) return isInert(node.expression);
  if (ts.isConditionalExpression(node)) return isInert(node.whenTrue) && isInert(node.whenFalse);
  if (!ts.isCallExpression(node)) return false;
  const callee = node.expression.getText();
  if (callee === 'inertNotificationText') return true;
  return callee === 'vscode.l10n.t' && node.arguments.length === 1 && isInert(node.arguments[0] as ts.Expression);
}

function unwrapped(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const where = (node: ts.Node): string => `${relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name.text;
      const first = node.arguments[0];
      if (SHOWN.has(name) && first !== undefined && !isInert(first)) found.push(`${where(node)} ${name}(${first.getText().slice(0, 60)})`);
      if (name === 'withProgress' && first !== undefined && ts.isObjectLiteralExpression(first)) {
        for (const property of first.properties) {
          if (ts.isPropertyAssignment(property) && property.name.getText() === 'title' && !isInert(property.initializer)) {
            found.push(`${where(property)} withProgress title ${property.initializer.getText().slice(0, 60)}`);
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('hostile input: notification, progress and status-bar text', () => {
  it('every show*Message / setStatusBarMessage message and withProgress title not built from a literal goes through inertNotificationText', () => {
    const offenders = sources(join(ROOT, 'src')).flatMap(unwrapped);
    assert.deepEqual(offenders, []);
  });

  const hostile: readonly string[] = [
    '[Open](command:workbench.action.terminal.new)',
    'MX-1 [x](https://evil.example "t")',
    '$(alert) Sign in again',
    'txt.\u202eexe',
    'a\u0007b\u001b[31m',
  ];
  for (const text of hostile) {
    it(`${JSON.stringify(text)} is shown inert: no link, no icon, no bidi or control character`, () => {
      const inert = inertNotificationText(text);
      assert.deepEqual([...inert.matchAll(NOTIFICATION_LINK)], []);
      assert.doesNotMatch(inert, /\$\(/);
      // eslint-disable-next-line no-control-regex -- checking for control characters
      assert.doesNotMatch(inert, /[\u0000-\u0008\u000b-\u001f\u202a-\u202e\u2066-\u2069]/);
    });
  }

  it('displayText keeps ordinary text, line breaks and tabs as they are', () => {
    assert.equal(displayText('Line 1\nLine 2\tMX-4711-A0023 — ümlaut'), 'Line 1\nLine 2\tMX-4711-A0023 — ümlaut');
  });

  const refusedSerials: readonly [string, RegExp][] = [
    ['[Open](command:x)', /"\]\(" or "\$\("/],
    ['MX-$(alert)', /"\]\(" or "\$\("/],
    ['MX-4711\u202e', /invisible or right-to-left/],
    ['MX\u200b-4711', /invisible or right-to-left/],
    ['MX-4711\u0007', /control character/],
  ];
  for (const [input, why] of refusedSerials) {
    it(`the serial number ${JSON.stringify(input)} is refused at input`, () => {
      const checked = checkSerialNumber(input, plainLocalize);
      assert.match(checked.ok ? 'accepted' : checked.message, why);
    });
  }
});
