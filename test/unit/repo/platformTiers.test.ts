// The unit tier on Windows and macOS: scripts/test.mjs installs Debian packages
// on Linux only; elsewhere it leaves out the unit tests that need a tool the
// machine lacks, by the list each package in scripts/vscode/provision.mjs keeps.
// That list must name every test that needs the tool (else an absent tool fails
// the job instead of being named) and only tests that exist; the workflow's
// Windows and macOS jobs install what they can with their own package manager.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { isRecord } from '../../../src/core/common/guards';

const root = join(__dirname, '..', '..', '..', '..');

interface TestPackage {
  readonly name: string;
  readonly why: string;
  readonly tests: readonly string[];
}

/** The unit test sources (test/unit/**\/*.test.ts) that import one of these support modules, as compiled paths. */
function testsImporting(supports: readonly string[]): string[] {
  const dir = join(root, 'test', 'unit');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .filter((file) => {
      const source = readFileSync(join(dir, file), 'utf8');
      return supports.some((support) => new RegExp(`from '(?:\\.\\./)+support/${support}'`).test(source));
    })
    .map((file) => `out/test/unit/${file.replace(/\\/g, '/').replace(/\.ts$/, '.js')}`)
    .sort();
}

describe('the unit tier off Linux', () => {
  let packages: readonly TestPackage[] = [];
  before(async () => {
    const provision = (await import(pathToFileURL(join(root, 'scripts', 'vscode', 'provision.mjs')).href)) as {
      testPackages(options: { localVSCode: boolean }): TestPackage[];
    };
    packages = provision.testPackages({ localVSCode: false });
  });
  const testsOf = (name: string): string[] => [...(packages.find((p) => p.name === name)?.tests ?? [])].sort();

  it('each package names only unit tests that exist', () => {
    for (const { name, tests } of packages)
      for (const test of tests) assert.ok(existsSync(join(root, test)), `${name}: ${test} is a compiled unit test`);
  });

  it('openssl names every test that makes a test CA, chromium every test that opens the board page, squid and mitmproxy the proxy tests', () => {
    assert.deepEqual(testsOf('openssl'), testsImporting(['network/testPki', 'network/httpsFront', 'network/corporateProxies']));
    assert.deepEqual(testsOf('chromium'), testsImporting(['board/boardPage']));
    assert.deepEqual(testsOf('squid'), testsImporting(['network/corporateProxies']));
    assert.deepEqual(testsOf('mitmproxy'), testsImporting(['network/corporateProxies']));
  });

  it("the workflow's macOS and Windows jobs install their tools with Homebrew and Chocolatey before the unit tier, and name a Chrome", () => {
    const workflow: unknown = parseYaml(readFileSync(join(root, '.github', 'workflows', 'ci.yml'), 'utf8'));
    assert.ok(isRecord(workflow) && isRecord(workflow['jobs']) && isRecord(workflow['jobs']['test']));
    const steps = workflow['jobs']['test']['steps'];
    assert.ok(Array.isArray(steps));
    const records = steps.filter(isRecord);
    const unit = records.findIndex((step) => step['run'] === 'npm run test:unit');
    for (const [os, manager] of [
      ['macOS', /^brew install /m],
      ['Windows', /^choco install /m],
    ] as const) {
      const index = records.findIndex((step) => step['if'] === `runner.os == '${os}'` && manager.test(String(step['run'])));
      assert.ok(index >= 0 && index < unit, `${os}: a step installs with its package manager before npm run test:unit`);
      assert.match(String(records[index]?.['run']), /CHROMIUM_PATH=/, `${os}: names the runner's Chrome for the board's audit`);
    }
  });
});
