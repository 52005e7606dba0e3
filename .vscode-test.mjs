// @vscode/test-cli's configuration: `npx vscode-test` and the Extension Test
// Runner (ms-vscode.extension-test-runner) run the integration tests from
// here, in a VS Code that @vscode/test-cli downloads. Compile them first
// (`npm run compile-tests`). With OE_VSCODE=local they run in the local VS Code
// instead (code-server + Chromium, provisioned into .vscode-test/local), which
// needs no download. `npm test` runs the same tests through
// scripts/run-integration.mjs (README, "How tests find a VS Code").
import { defineConfig } from '@vscode/test-cli';
import { fileURLToPath } from 'node:url';
import { provision } from './scripts/vscode/provision.mjs';

const local = process.env.OE_VSCODE === 'local';
if (local) provision();

export default defineConfig([
  {
    label: 'integration',
    // Activation first: it checks what activating loads, before any other suite has used the extension.
    files: ['out/test/integration/activation.test.js', 'out/test/integration/**/*.test.js'],
    workspaceFolder: './test/fixtures/workspace',
    launchArgs: ['--disable-extensions'],
    mocha: { ui: 'bdd', timeout: 20_000 },
    ...(local ? { useInstallation: { fromPath: fileURLToPath(new URL('./scripts/vscode/code-stand-in.mjs', import.meta.url)) } } : {}),
  },
]);
