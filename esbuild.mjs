// Bundles the extension the way microsoft/vscode-extension-samples' esbuild-sample
// does, with one addition: the HTTP stack (undici) is a second bundle that the
// extension requires on first network use, so activation never pays for it.
import * as esbuild from 'esbuild';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const lazyTransport = {
  name: 'lazy-transport',
  setup(build) {
    // Every require() of the transport stays a separate file, whichever module asks: a list of importers
    // goes stale, and undici would land in extension.js.
    build.onResolve({ filter: /(^|\/)undiciTransport$/ }, (args) =>
      args.kind === 'require-call' ? { path: './undiciTransport.js', external: true } : undefined,
    );
  },
};

/**
 * Prints start/end lines that VS Code's $esbuild-watch problem matcher
 * understands. The bundles build side by side; the matcher takes the
 * first "finished" as "ready", so it is printed once the last one is done.
 */
let building = 0;
const problemMatcher = {
  name: 'esbuild-problem-matcher',
  setup(build) {
    build.onStart(() => {
      if (building++ === 0) console.log('[watch] build started');
    });
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (--building === 0) console.log('[watch] build finished');
    });
  },
};

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  external: ['vscode'],
  // The test hooks (src/testHooks.ts) exist only in the development build the tests run; the
  // production bundle, the one the .vsix ships, does not contain them (test/package checks it).
  define: { OE_TEST_BUILD: production ? 'false' : 'true' },
  // In watch mode the problem-matcher plugin reports; otherwise esbuild prints its own errors.
  logLevel: watch ? 'silent' : 'warning',
  plugins: watch ? [lazyTransport, problemMatcher] : [lazyTransport],
};

/**
 * oe's files: dist/oe.js, the entry, answers --version and --help itself and requires dist/oeProgram.js for
 * anything else; that one requires dist/oeMcp.js (the MCP SDK, zod, ajv) only for `oe mcp`. A run then reads
 * and compiles only what it uses.
 */
const oeFiles = {
  name: 'oe-files',
  setup(build) {
    build.onResolve({ filter: /(^|\/)(oeProgram|mcpRuntime)$/ }, (args) =>
      args.kind === 'require-call'
        ? { path: args.path.endsWith('oeProgram') ? './oeProgram.js' : './oeMcp.js', external: true }
        : undefined,
    );
  },
};

const oeOptions = {
  ...common,
  // The keychain is a native module per platform: required at run time from the package's dependencies.
  external: ['@napi-rs/keyring'],
  plugins: watch ? [oeFiles, problemMatcher] : [oeFiles],
  // The same files in every build, so the package is what the tests ran: no source map (oe prints no stack to map),
  // and minified, as Node 20 parses and compiles what a run loads on every start. What each file holds is written
  // to dist/oe.meta.json (test/unit/repo/oeBundles.test.ts reads it).
  sourcemap: false,
  minify: true,
  metafile: true,
  banner: { js: '#!/usr/bin/env node' },
  // jsonc-parser's "main" is a UMD build whose require() calls esbuild cannot follow; its ESM build bundles.
  mainFields: ['module', 'main'],
  define: { ...common.define, OE_VERSION: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
  // jq (jq-wasm, 1.3 MB) is a file of its own, a worker oe starts for --jq only: no other run reads it.
  entryPoints: {
    oe: 'src/cli/main.ts',
    oeProgram: 'src/cli/oeProgram.ts',
    oeMcp: 'src/cli/mcpRuntime.ts',
    jqWorker: 'src/cli/jqWorker.ts',
  },
  outdir: 'dist',
};

/** The arguments oe.js answers without loading the program, and the locales of its languages (src/cli/cliLanguage.ts). */
const PREPARED_ARGUMENTS = ['--version', '-V', '--help', '-h', 'help'];
const PREPARED_LOCALES = { en: 'C', de: 'de_DE.UTF-8', 'zh-cn': 'zh_CN.UTF-8' };

/**
 * What the program itself prints for each prepared argument in each language, so oe.js answers with the same text:
 * the one source stays the program. Only a clean answer (exit 0, nothing on stderr) is kept; any other goes to the program.
 */
async function preparedAnswers() {
  const answers = {};
  await Promise.all(
    PREPARED_ARGUMENTS.flatMap((argument) =>
      Object.entries(PREPARED_LOCALES).map(async ([language, locale]) => {
        const run = promisify(execFile)(process.execPath, ['dist/oe.js', argument], {
          env: { PATH: process.env.PATH ?? '', LANG: locale },
          encoding: 'utf8',
        });
        const { stdout, stderr } = await run.catch(() => ({ stdout: '', stderr: 'failed' }));
        if (stderr === '') (answers[argument] ??= {})[language] = stdout;
      }),
    ),
  );
  return answers;
}

// Codicons ship inside the package: webviews may load only from media/, never node_modules.
mkdirSync('media/codicons', { recursive: true });
for (const file of ['codicon.css', 'codicon.ttf']) copyFileSync(`node_modules/@vscode/codicons/dist/${file}`, `media/codicons/${file}`);

const oeContext = await esbuild.context(oeOptions);
const contexts = await Promise.all([
  esbuild.context({ ...common, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist' }),
  esbuild.context({ ...common, entryPoints: { undiciTransport: 'src/core/client/http/undiciTransport.ts' }, outdir: 'dist' }),
  // The MCP server agents start (dist/mcp.js): plain Node or VS Code's runtime with ELECTRON_RUN_AS_NODE=1, the SDK bundled in.
  esbuild.context({
    ...common,
    external: [],
    define: { MCP_SERVER_VERSION: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
    entryPoints: { mcp: 'src/mcp/main.ts' },
    outdir: 'dist',
  }),
  // The oe command: plain Node 20+, everything inside, the network stack too (no lazy transport: a command that runs
  // makes a request), and the translations, so `npm install -g` of these files alone works.
  oeContext,
  // The event-details page script, built from TypeScript so it shares src/extension/details/protocol.ts with the host.
  esbuild.context({
    ...common,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    external: [],
    entryPoints: { details: 'src/extension/details/page/main.ts' },
    outdir: 'media/details',
  }),
  // The onboarding board's page, likewise sharing src/extension/board/protocol.ts and the board model in src/core/domain/board/.
  esbuild.context({
    ...common,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    external: [],
    entryPoints: { board: 'src/extension/board/page/main.ts' },
    outdir: 'media/board',
  }),
]);

if (watch) {
  await Promise.all(contexts.map((ctx) => ctx.watch()));
} else {
  try {
    const results = await Promise.all(contexts.map((ctx) => ctx.rebuild()));
    const { metafile } = results[contexts.indexOf(oeContext)] ?? {};
    const inputsOf = Object.fromEntries(
      Object.entries(metafile?.outputs ?? {}).map(([file, output]) => [file, Object.keys(output.inputs)]),
    );
    writeFileSync('dist/oe.meta.json', `${JSON.stringify(inputsOf, null, 1)}\n`);
    // The entry once more, with the program's own answers (in watch mode it leaves them to the program).
    await esbuild.build({
      ...oeOptions,
      entryPoints: { oe: 'src/cli/main.ts' },
      define: { ...oeOptions.define, OE_PREPARED_ANSWERS: JSON.stringify(await preparedAnswers()) },
    });
  } finally {
    await Promise.all(contexts.map((ctx) => ctx.dispose()));
  }
}
