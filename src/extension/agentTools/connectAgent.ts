// "Onboarding Events: Connect an Agent…": the configuration that starts
// dist/mcp.js in an agent outside VS Code (Claude Code, Codex, Gemini CLI,
// Cursor, Windsurf, or any other as JSON). It shows the configuration, and
// where the agent reads a known user-level file, offers to merge it in after
// a diff of the file as it is and as it would be. In an editor that offers an
// MCP registration API (Cursor's vscode.cursor.mcp), that is used instead.
// Nothing written holds a secret: the server asks the running extension.
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { Emitter } from '../../core/common/emitter';
import { errorMessage } from '../../core/common/errors';
import { readNamedFile, readNamedFileIfPresent, writeNamedFile } from '../../core/common/namedFiles';
import { inertNotificationText } from '../../core/common/notificationText';
import {
  AGENT_KINDS,
  agentSetup,
  MCP_SERVER_NAME,
  planAgentConfig,
  writeAgentConfig,
  type AgentKind,
  type ServerLaunch,
} from '../../core/agents/agentConfigs';
import { registerCommands, type CommandFactory, type CommandTable } from '../workbench/commands';
import { COMMANDS } from '../workbench/constants';
import type { ArgumentTrust } from '../workbench/argumentTrust';
import type { Log } from '../workbench/log';
import { CHANNEL_AGENT_VARIABLE } from '../../core/agents/channel';
import { AGENT_KEYS_KEY } from '../../core/agents/pairings';
import { mcpServerLaunch } from './mcpChannelHost';

const SCHEME = 'onboarding-events-agent';

function agentLabel(kind: AgentKind): string {
  switch (kind) {
    case 'claudeCode':
      return 'Claude Code';
    case 'codex':
      return 'Codex';
    case 'geminiCli':
      return 'Gemini CLI';
    case 'cursor':
      return 'Cursor';
    case 'windsurf':
      return 'Windsurf';
    case 'other':
      return vscode.l10n.t('Another agent (show the JSON)');
  }
}

/** Cursor's MCP registration API, when this editor has it (never assumed: read off the vscode namespace). */
interface McpRegistrationApi {
  registerServer(config: {
    readonly name: string;
    readonly server: { command: string; args: string[]; env: Record<string, string> };
  }): void;
}

function editorRegistrationApi(): McpRegistrationApi | undefined {
  const candidate = (vscode as unknown as { readonly cursor?: { readonly mcp?: { readonly registerServer?: unknown } } }).cursor?.mcp;
  return typeof candidate?.registerServer === 'function' ? (candidate as McpRegistrationApi) : undefined;
}

/** Read-only documents for the configuration shown and the proposed file, by path. */
class ShownDocuments implements vscode.TextDocumentContentProvider {
  readonly #texts = new Map<string, string>();
  readonly #changed = new Emitter<vscode.Uri>();
  readonly onDidChange = this.#changed.event;

  show(path: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: SCHEME, path });
    this.#texts.set(uri.path, text);
    this.#changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.#texts.get(uri.path) ?? '';
  }

  dispose(): void {
    this.#changed.dispose();
  }
}

export interface ConnectAgentDeps {
  readonly context: vscode.ExtensionContext;
  readonly log: Log;
  /** The user connects an agent: the channel host opens this window's channel and asks to pair the agent when it first calls. */
  readonly onConnect: () => void;
  /** The one gate (src/extension/workbench/argumentTrust.ts): an agent named by a caller is connected only with the user's yes. */
  readonly trust: Pick<ArgumentTrust, 'confirm'>;
}

/** dist/mcp.js is a few MB: far more is no server script of ours. */
const MAX_SERVER_SCRIPT_BYTES = 64 * 1024 * 1024;

/**
 * dist/mcp.js copied to this editor's global storage: the extension's own folder
 * changes with every update, an agent's configuration should not.
 */
async function stableServerScript(context: vscode.ExtensionContext): Promise<string> {
  const source = vscode.Uri.joinPath(context.extensionUri, 'dist', 'mcp.js').fsPath;
  const target = join(context.globalStorageUri.fsPath, 'mcp.js');
  await mkdir(dirname(target), { recursive: true });
  const [from, to] = await Promise.all([
    readNamedFile(source, { maxBytes: MAX_SERVER_SCRIPT_BYTES }),
    readNamedFileIfPresent(target, { maxBytes: MAX_SERVER_SCRIPT_BYTES }).catch(() => undefined),
  ]);
  if (to === undefined || !from.equals(to)) await writeNamedFile(target, from, { mode: 0o600 });
  return target;
}

/**
 * The key this agent's MCP server is started with (kept in globalState: it is no credential, and the agent's
 * configuration stays the same from run to run): its pairing is kept under it, so a pairing is the agent's
 * that holds the key, not any client that gives the same name (mcp/channel.ts, agentPairingStore).
 */
async function agentKey(context: vscode.ExtensionContext, kind: AgentKind): Promise<string> {
  const stored = context.globalState.get<unknown>(AGENT_KEYS_KEY);
  const keys: Record<string, unknown> = typeof stored === 'object' && stored !== null ? { ...(stored as Record<string, unknown>) } : {};
  const known = keys[kind];
  if (typeof known === 'string' && /^[\w-]{32,}$/.test(known)) return known;
  const key = randomBytes(24).toString('base64url');
  await context.globalState.update(AGENT_KEYS_KEY, { ...keys, [kind]: key });
  return key;
}

function setupDocument(kind: AgentKind, launch: ServerLaunch, file: string | undefined): string {
  const setup = agentSetup(kind, launch);
  const lines = [`# ${vscode.l10n.t('Connect {0} to Onboarding Events', agentLabel(kind))}`, ''];
  lines.push(
    vscode.l10n.t(
      'The MCP server "{0}" holds no password or token: it asks this VS Code, which must be running and signed in, for each answer.',
      MCP_SERVER_NAME,
    ),
    '',
  );
  if (setup.command !== undefined) lines.push(vscode.l10n.t('Run in a terminal:'), '', '```sh', setup.command, '```', '');
  lines.push(
    file === undefined ? vscode.l10n.t("Add this to the agent's MCP configuration:") : vscode.l10n.t('Or add this to {0}:', file),
    '',
    `\`\`\`${setup.format}`,
    setup.snippet.trimEnd(),
    '```',
    '',
  );
  return lines.join('\n');
}

async function offerToWrite(kind: AgentKind, launch: ServerLaunch, shown: ShownDocuments, log: Log): Promise<void> {
  const plan = await planAgentConfig(kind, launch, homedir());
  if (plan === undefined) return;
  const { path, existing, merged } = plan;
  if (!merged.ok) {
    void vscode.window.showWarningMessage(
      inertNotificationText(vscode.l10n.t('{0} was not changed: {1} Add the configuration shown by hand.', path, merged.problem)),
    );
    return;
  }
  if (merged.text === existing) {
    void vscode.window.showInformationMessage(
      inertNotificationText(vscode.l10n.t('{0} already starts the Onboarding Events MCP server.', path)),
    );
    return;
  }
  const preview = vscode.l10n.t('Preview Changes…');
  const chosen = await vscode.window.showInformationMessage(
    inertNotificationText(
      vscode.l10n.t('Add the Onboarding Events MCP server to {0}? Other servers and settings in it stay as they are.', path),
    ),
    preview,
  );
  if (chosen !== preview) return;
  const before = existing === undefined ? shown.show(`/${agentLabel(kind)}/before/${basename(path)}`, '') : vscode.Uri.file(path);
  const after = shown.show(`/${agentLabel(kind)}/after/${basename(path)}`, merged.text);
  await vscode.commands.executeCommand(
    'vscode.diff',
    before,
    after,
    vscode.l10n.t('{0} (as it is ↔ with Onboarding Events)', basename(path)),
  );
  const write = vscode.l10n.t('Write {0}', basename(path));
  if (
    (await vscode.window.showInformationMessage(
      inertNotificationText(vscode.l10n.t('Write these changes to {0}?', path)),
      { modal: true },
      write,
    )) !== write
  )
    return;
  if (!(await writeAgentConfig(plan))) {
    void vscode.window.showWarningMessage(
      inertNotificationText(
        vscode.l10n.t('{0} changed while the changes were shown, so nothing was written. Run the command again.', path),
      ),
    );
    return;
  }
  log.info(`Connect an Agent: the MCP server was added to ${path}.`);
  void vscode.window.showInformationMessage(
    inertNotificationText(
      vscode.l10n.t(
        '{0} now starts the Onboarding Events MCP server. Restart {1} (or reload its MCP servers) to use it.',
        path,
        agentLabel(kind),
      ),
    ),
  );
}

function basename(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

async function connectAgent(deps: ConnectAgentDeps, shown: ShownDocuments, argument: unknown): Promise<void> {
  // An agent named by the caller only skips the pick: showing a configuration is harmless, and writing is asked for below.
  const given = AGENT_KINDS.find((kind) => kind === argument);
  const kind =
    given ??
    (
      await vscode.window.showQuickPick(
        AGENT_KINDS.map((candidate) => ({ label: agentLabel(candidate), agent: candidate })),
        { title: vscode.l10n.t('Connect an Agent'), placeHolder: vscode.l10n.t('Which agent should use the Onboarding Events tools?') },
      )
    )?.agent;
  if (kind === undefined) return;
  // A caller that names the agent skips the user's own pick, so the user agrees here instead: connecting opens the
  // channel, lets this window ask to pair that agent, and may register our server with this editor's agent.
  if (
    given !== undefined &&
    !(await deps.trust.confirm({
      title: vscode.l10n.t('Connect {0} to Onboarding Events?', agentLabel(kind)),
      detail: vscode.l10n.t(
        'Something other than you asked to connect {0}: it would start the Onboarding Events MCP server for that agent, and this window would offer to pair it when it first asks for more than your views loaded.',
        agentLabel(kind),
      ),
      action: vscode.l10n.t('Connect'),
    }))
  )
    return;
  deps.onConnect();
  const server = mcpServerLaunch(await stableServerScript(deps.context));
  const launch = { ...server, env: { ...server.env, [CHANNEL_AGENT_VARIABLE]: await agentKey(deps.context, kind) } };
  const registration = editorRegistrationApi();
  if ((kind === 'cursor' || kind === 'windsurf') && registration !== undefined) {
    registration.registerServer({
      name: MCP_SERVER_NAME,
      server: { command: launch.command, args: [...launch.args], env: { ...launch.env } },
    });
    void vscode.window.showInformationMessage(
      inertNotificationText(vscode.l10n.t("The Onboarding Events MCP server is registered with this editor's agent.")),
    );
    return;
  }
  const setup = agentSetup(kind, launch);
  const path = setup.file === undefined ? undefined : join(homedir(), ...setup.file);
  const document = await vscode.workspace.openTextDocument(shown.show(`/${agentLabel(kind)}.md`, setupDocument(kind, launch, path)));
  await vscode.window.showTextDocument(document, { preview: true });
  if (path !== undefined) await offerToWrite(kind, launch, shown, deps.log);
}

interface CommandDeps extends ConnectAgentDeps {
  readonly shown: ShownDocuments;
}

const connectAgentCommand: CommandFactory<CommandDeps> = (deps) => async (argument: unknown) => {
  try {
    await connectAgent(deps, deps.shown, argument);
  } catch (error) {
    void vscode.window.showErrorMessage(
      inertNotificationText(vscode.l10n.t('Connect an Agent failed: {0}', errorMessage(error, vscode.l10n.t))),
    );
  }
};

const AGENT_COMMANDS: CommandTable<CommandDeps> = { [COMMANDS.connectAgent]: connectAgentCommand };

export function registerConnectAgent(deps: ConnectAgentDeps): void {
  const shown = new ShownDocuments();
  deps.context.subscriptions.push(
    shown,
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, shown),
    ...registerCommands(AGENT_COMMANDS, { ...deps, shown }),
  );
}
