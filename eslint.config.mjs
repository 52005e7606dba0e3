import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import tseslint from 'typescript-eslint';

// The layers of src/, bottom first (ARCHITECTURE.md draws them). A folder may
// import its own files and any layer below it, never one above; feature
// folders never import each other (they share through the layers below, or an
// interface passed in at wiring). The first four are vscode-free; so is mcp/,
// the MCP server agents start (dist/mcp.js) and the channel the extension
// answers it on, which sits beside the events cache; and cli/, the `oe`
// command (dist/oe.js), above them: it uses every vscode-free layer and no
// folder of the extension uses it.
const VSCODE_FREE = ['common', 'core', 'domain', 'eventsCache', 'mcp', 'cli'];
const LAYERS = [
  ['common'],
  ['core'],
  ['domain'],
  ['eventsCache', 'mcp'],
  ['cli'],
  ['workbench'],
  ['session', 'machines', 'details', 'editor', 'lookUp', 'agentTools', 'links', 'watch', 'board'],
];
/** The files that may read server text as data (serverTextData): see the rule below. */
const SERVER_TEXT_DATA_READERS = [
  'src/common/serverText.ts',
  'src/domain/events/eventFilter.ts',
  'src/domain/events/eventState.ts',
  'src/domain/events/eventView.ts',
  'src/domain/events/exportEvents.ts',
  'src/domain/progress/lineHistory.ts',
  'src/domain/agentTools/toolResults.ts',
  'src/domain/board/boardRows.ts',
  'src/domain/watch/watchRules.ts',
  'src/machines/filterPicker.ts',
];
const TOP = ['./src/extension.ts', './src/publicApi.ts', './src/testHooks.ts'];

// One reader and one writer of the files a repository, a caller or a setting names: common/namedFiles.ts
// (and, on VS Code's URIs, workbench/workspaceFiles.ts over it). Reading or writing a file's content with
// node:fs, or with vscode.workspace.fs, is refused anywhere else; the files below are the reviewed
// exceptions, each on a path no repository or caller names. A new one is added here, in review.
const FILE_IO_OWNERS = [
  'src/common/namedFiles.ts', // the one reader and writer
  'src/common/claims.ts', // exclusive creation in the extension's own global storage
  'src/session/registerSession.ts', // /proc/self/environ of this process
  'src/testHooks.ts', // the development build's test seam
];
const WORKSPACE_FS_OWNERS = ['src/common/namedFiles.ts', 'src/workbench/workspaceFiles.ts'];
/** What node:fs reads or writes file content with (listing a folder, stat, mkdir and unlink stay allowed). */
const FS_FILE_IO = [
  'default',
  'promises',
  'open',
  'openSync',
  'openAsBlob',
  'readFile',
  'readFileSync',
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
  'createReadStream',
  'createWriteStream',
  'truncate',
  'truncateSync',
  'rename',
  'renameSync',
  'link',
  'linkSync',
];
const FS_PATHS = ['fs', 'node:fs', 'fs/promises', 'node:fs/promises'].map((name) => ({
  name,
  importNames: FS_FILE_IO,
  message:
    'A file is read or written through common/namedFiles.ts (readNamedFile, writeNamedFile) or workbench/workspaceFiles.ts: never through a planted symlink or hard link, bounded by bytes read. See ARCHITECTURE.md, "named file".',
}));
const WORKSPACE_FS_PROPERTIES = ['readFile', 'writeFile', 'rename'].map((property) => ({
  property,
  message:
    'A file is read or written through common/namedFiles.ts or workbench/workspaceFiles.ts (readWorkspaceFile, writeSavedFile), not vscode.workspace.fs directly. See ARCHITECTURE.md, "named file".',
}));
const EVENT_EMITTER = {
  object: 'vscode',
  property: 'EventEmitter',
  message: 'Use Emitter from common/emitter.ts: one event emitter in the product.',
};

/** import/no-restricted-paths zones: for each folder, everything it must not import. */
function layerZones() {
  const zones = [];
  LAYERS.forEach((layer, level) => {
    const above = LAYERS.slice(level + 1).flat();
    for (const folder of layer) {
      const siblings = layer.filter((other) => other !== folder).map((name) => `./src/${name}`);
      zones.push({
        target: `./src/${folder}`,
        from: [...above.map((name) => `./src/${name}`), ...TOP],
        message: `src/${folder} may import only its own folder and the layers below it (${LAYERS.map((l) => l.join('|')).join(' < ')}).`,
      });
      if (siblings.length > 0)
        zones.push({
          target: `./src/${folder}`,
          from: siblings,
          message:
            'Feature folders never import each other: share through a layer below (workbench/contracts, domain, common) or an interface passed in at wiring.',
        });
    }
  });
  // The oe command is a program of its own beside the extension: nothing of the extension imports it.
  for (const folder of LAYERS.slice(LAYERS.findIndex((layer) => layer.includes('cli')) + 1).flat())
    zones.push({
      target: `./src/${folder}`,
      from: './src/cli',
      message: 'src/cli is the oe command (dist/oe.js): the extension never imports it; share through the layers below.',
    });
  zones.push({ target: TOP, from: './src/cli', message: 'src/cli is the oe command (dist/oe.js): the extension never imports it.' });
  // The details page runs in the webview: it shares the protocol and the pure helpers, nothing of the host.
  zones.push({
    target: './src/details/page',
    from: './src',
    except: ['./details/page', './details/protocol.ts', './common'],
    message: 'The details page runs in the webview: it may import only details/protocol.ts and src/common.',
  });
  // The board page likewise: its protocol, the board model (pure, DOM-free) and src/common.
  zones.push({
    target: './src/board/page',
    from: './src',
    except: ['./board/page', './board/protocol.ts', './domain/board', './common'],
    message: 'The board page runs in the webview: it may import only board/protocol.ts, src/domain/board and src/common.',
  });
  return zones;
}

const noVscode = (where, fileIo = false) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: [{ name: 'vscode', message: `${where} never imports vscode: it is tested under plain mocha.` }, ...(fileIo ? [] : FS_PATHS)],
    },
  ],
});

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', '.vscode-test/', 'dist-vsix/', 'media/**/*.js', '.stryker-tmp/', 'reports/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [] }],
    },
  },
  { files: ['src/**/*.ts'], rules: { 'no-restricted-imports': ['error', { paths: FS_PATHS }] } },
  {
    files: ['src/**/*.ts'],
    plugins: { import: importPlugin },
    settings: {
      // import/no-cycle parses the files an import leads to: it needs to know they are TypeScript
      // (the node resolver with .ts extensions resolves our relative imports; we use no path aliases).
      ...importPlugin.flatConfigs.typescript.settings,
    },
    rules: {
      'import/no-cycle': ['error', { ignoreExternal: true }],
      'import/no-restricted-paths': ['error', { zones: layerZones() }],
    },
  },
  {
    // Server text (common/serverText.ts) reaches what VS Code shows only through its renderers; reading its
    // characters as data is allowed only where they are data: matching and filtering, exports, the agent
    // tools' quoted results, the board's rows (its page sets them as textContent) and the filter's stored types.
    // A new surface that needs server text takes a renderer; a new data use is added here, in review.
    files: ['src/**/*.ts'],
    ignores: SERVER_TEXT_DATA_READERS,
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'ImportSpecifier[imported.name="serverTextData"]',
          'CallExpression[callee.name="serverTextData"]',
          'MemberExpression[property.name="serverTextData"]',
        ].map((selector) => ({
          selector,
          message:
            'Server text is shown through a renderer of common/serverText.ts (lineText, tooltipText, notificationText, markdownText, pageText, clipboardText), not read as a string: see ARCHITECTURE.md, "server text".',
        })),
      ],
    },
  },
  {
    // One event emitter (common/emitter.ts): it has vscode.Event's shape, so it serves where VS Code listens too.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-properties': ['error', EVENT_EMITTER, ...WORKSPACE_FS_PROPERTIES],
    },
  },
  { files: WORKSPACE_FS_OWNERS, rules: { 'no-restricted-properties': ['error', EVENT_EMITTER] } },
  ...VSCODE_FREE.map((folder) => ({ files: [`src/${folder}/**/*.ts`], rules: noVscode(`src/${folder}`) })),
  // The owners of file reads and writes: the vscode rule of their layer only.
  ...FILE_IO_OWNERS.map((file) => ({
    files: [file],
    rules: VSCODE_FREE.some((folder) => file.startsWith(`src/${folder}/`))
      ? noVscode(file.split('/').slice(0, 2).join('/'), true)
      : { 'no-restricted-imports': ['error', { paths: [] }] },
  })),
  { files: ['src/details/page/**/*.ts'], rules: noVscode('The details page (a webview script)') },
  { files: ['src/board/page/**/*.ts'], rules: noVscode('The board page (a webview script)') },
  {
    // Build and tooling scripts are plain JavaScript run by Node: no type information.
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: Object.fromEntries(
        [
          'process',
          'console',
          'URL',
          'URLSearchParams',
          'setTimeout',
          'clearTimeout',
          'Buffer',
          'performance',
          'require',
          'exports',
          'module',
          '__dirname',
        ].map((g) => [g, 'readonly']),
      ),
    },
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
);
