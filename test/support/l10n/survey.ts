// Lists the English literals in src/ that do not pass through l10n, for the
// pass that routes them (issue 29): every string or template literal of two or
// more words that is not the message of a `t(…)` call, a property key, an
// import, or inside a log call. Prints "file:line<TAB>text"; sorting them into
// "translate", "English on purpose" and "not text" is left to a person.
//   npx tsc -p tsconfig.tests.json && node out/test/support/l10n/survey.js
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';
import { sourceFiles } from './extract';

const root = join(__dirname, '..', '..', '..', '..');
const LOG_CALL = /(^|\.)(log|logger|output)\.|\.(trace|debug|appendLine)$/;
const looksLikeWords = (text: string): boolean => /[A-Za-z]{2,}[ ,.:!?;'’]+[A-Za-z]{2,}/.test(text) && !/^https?:\/\//.test(text) && !/^[\w.-]+$/.test(text);

for (const file of sourceFiles(join(root, 'src'))) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const path = relative(root, file).replace(/\\/g, '/');
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
      if (name === 't' || LOG_CALL.test(callee.getText(source))) return;
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const text = ts.isTemplateExpression(node) ? node.getText(source).slice(1, -1) : node.text;
      const isKey = ts.isPropertyAssignment(node.parent) && node.parent.name === node;
      if (!isKey && looksLikeWords(text)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        console.log(`${path}:${line}\t${text.replace(/\n/g, '\\n').slice(0, 160)}`);
      }
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
