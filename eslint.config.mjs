import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import tseslint from 'typescript-eslint';

// The layers of src/, bottom first (ARCHITECTURE.md draws them). src/core is the vscode-free core;
// the three programs stand on it as peers: the extension (src/extension.ts, src/extension/), the
// `oe` command (src/cli) and the MCP server agents start (src/mcp). A folder imports its own files
// and the layers below it; folders of one layer never import each other; no program imports another.
const VSCODE_FREE = ['core', 'cli', 'mcp'];
const LAYERS = [
  ['core/common'],
  ['core/client'],
  ['core/domain'],
  ['core/eventsCache', 'core/agents'],
  ['cli', 'mcp', 'extension/workbench'],
  [
    'extension/session',
    'extension/machines',
    'extension/details',
    'extension/editor',
    'extension/lookUp',
    'extension/agentTools',
    'extension/links',
    'extension/watch',
    'extension/board',
  ],
];
const PROGRAMS = ['cli', 'mcp', 'extension'];
/** The files that may read server text as data (serverTextData): see the rule below. */
const SERVER_TEXT_DATA_READERS = [
  'src/core/common/serverText.ts',
  'src/core/domain/events/eventFilter.ts',
  'src/core/domain/events/eventState.ts',
  'src/core/domain/events/eventView.ts',
  'src/core/domain/events/exportEvents.ts',
  'src/core/domain/progress/lineHistory.ts',
  'src/core/domain/agentTools/toolResults.ts',
  'src/core/domain/board/boardRows.ts',
  'src/core/domain/watch/watchRules.ts',
  'src/extension/machines/filterPicker.ts',
];
/** The extension's entry and what it hands out: above every folder of src/extension. */
const TOP = ['./src/extension.ts', './src/extension/publicApi.ts', './src/testHooks.ts'];

// One reader and one writer of the files a repository, a caller or a setting names: common/namedFiles.ts
// (and, on VS Code's URIs, workbench/workspaceFiles.ts over it). Reading or writing a file's content with
// node:fs, or with vscode.workspace.fs, is refused anywhere else; the files below are the reviewed
// exceptions, each on a path no repository or caller names. A new one is added here, in review.
const FILE_IO_OWNERS = [
  'src/core/common/namedFiles.ts', // the one reader and writer
  'src/core/common/claims.ts', // exclusive creation in the extension's own global storage
  'src/extension/session/registerSession.ts', // /proc/self/environ of this process
  'src/testHooks.ts', // the development build's test seam
];
const WORKSPACE_FS_OWNERS = ['src/core/common/namedFiles.ts', 'src/extension/workbench/workspaceFiles.ts'];
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
  const order = LAYERS.map((l) => l.join('|')).join(' < ');
  LAYERS.forEach((layer, level) => {
    const above = LAYERS.slice(level + 1).flat();
    for (const folder of layer) {
      zones.push({
        target: `./src/${folder}`,
        from: [...above.map((name) => `./src/${name}`), ...TOP],
        message: `src/${folder} may import only its own folder and the layers below it (${order}).`,
      });
      const siblings = layer.filter((other) => other !== folder).map((name) => `./src/${name}`);
      if (siblings.length > 0)
        zones.push({
          target: `./src/${folder}`,
          from: siblings,
          message:
            'Folders of one layer never import each other: share through a layer below (src/core, extension/workbench/contracts) or an interface passed in at wiring.',
        });
    }
  });
  // The three programs are peers on the core: none imports another (the extension's entry and hand-outs included).
  for (const program of PROGRAMS) {
    const others = PROGRAMS.filter((other) => other !== program).map((name) => `./src/${name}`);
    const targets = program === 'extension' ? [`./src/${program}`, ...TOP] : [`./src/${program}`];
    for (const target of targets)
      zones.push({
        target,
        from: others,
        message: `src/${program} is a program of its own: it never imports another program (src/cli, src/mcp, src/extension); share through src/core.`,
      });
  }
  // The details page runs in the webview: it shares the protocol and the pure helpers, nothing of the host.
  zones.push({
    target: './src/extension/details/page',
    from: './src',
    except: ['./extension/details/page', './extension/details/protocol.ts', './core/common'],
    message: 'The details page runs in the webview: it may import only details/protocol.ts and src/core/common.',
  });
  // The board page likewise: its protocol, the board model (pure, DOM-free) and src/core/common.
  zones.push({
    target: './src/extension/board/page',
    from: './src',
    except: ['./extension/board/page', './extension/board/protocol.ts', './core/domain/board', './core/common'],
    message: 'The board page runs in the webview: it may import only board/protocol.ts, src/core/domain/board and src/core/common.',
  });
  return zones;
}

// An options object's optional fields under exactOptionalPropertyTypes (a field not given is absent, never
// `undefined`) are built with definedOnly (common/definedOnly.ts), not a spread written by hand per field.
const OPTIONAL_FIELDS = [
  {
    selector:
      'SpreadElement > ConditionalExpression[test.type="BinaryExpression"][test.operator=/^[!=]==?$/][test.right.type="Identifier"][test.right.name="undefined"]:matches([consequent.properties.length=0][alternate.properties.length=1], [consequent.properties.length=1][alternate.properties.length=0])',
    message:
      'An optional field is added with definedOnly({ field }) (common/definedOnly.ts), not ...(field === undefined ? {} : { field }).',
  },
];
const SERVER_TEXT_SYNTAX = [
  'ImportSpecifier[imported.name="serverTextData"]',
  'CallExpression[callee.name="serverTextData"]',
  'MemberExpression[property.name="serverTextData"]',
].map((selector) => ({
  selector,
  message:
    'Server text is shown through a renderer of common/serverText.ts (lineText, tooltipText, notificationText, markdownText, pageText, clipboardText), not read as a string: see ARCHITECTURE.md, "server text".',
}));

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
      'no-restricted-syntax': ['error', ...OPTIONAL_FIELDS, ...SERVER_TEXT_SYNTAX],
    },
  },
  { files: SERVER_TEXT_DATA_READERS, rules: { 'no-restricted-syntax': ['error', ...OPTIONAL_FIELDS] } },
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
  { files: ['src/extension/details/page/**/*.ts'], rules: noVscode('The details page (a webview script)') },
  { files: ['src/extension/board/page/**/*.ts'], rules: noVscode('The board page (a webview script)') },
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
