// The extension's side of the MCP channel dist/mcp.js asks: whatever arrives is an
// outside caller (any program of the user can read the discovery file), so it reads
// only what is loaded unless the user paired it; see README "Security".
import * as vscode from 'vscode';
import { errorMessage } from '../../core/common/errors';
import { inertNotificationText } from '../../core/common/notificationText';
import {
  channelDirectory,
  startChannel,
  CHANNEL_PAIRING_VARIABLE,
  CHANNEL_WINDOW_VARIABLE,
  type Channel,
  type ToolAnswer,
} from '../../core/agents/channel';
import { AgentPairings, PairingWindow, PAIRINGS_SECRET, PAIRING_WAIT_MS, type McpCaller } from '../../core/agents/pairings';
import type { ArgumentTrust } from '../workbench/argumentTrust';
import { registerCommands, type CommandFactory, type CommandTable } from '../workbench/commands';
import type { ApiSession } from '../workbench/contracts/apiSession';
import { COMMANDS, MCP_SERVER_PROVIDER } from '../workbench/constants';
import type { Log } from '../workbench/log';

export type { McpCaller } from '../../core/agents/pairings';

/** Answers a tool call that came through the MCP server: registerAgentTools' tools, by name. */
export type McpAnswer = (tool: string, input: unknown, caller: McpCaller, token: vscode.CancellationToken) => Promise<ToolAnswer>;

export interface McpChannelHostDeps {
  readonly session: ApiSession;
  readonly log: Log;
  readonly answer: McpAnswer;
  /** The one gate: the pairing question is asked through it, as every other outside request is. */
  readonly trust: Pick<ArgumentTrust, 'confirm'>;
}

/** What the rest of the agent tools tell the channel host. */
export interface McpChannelHost {
  /** Connect an Agent ran: open the channel, and ask to pair the agent when it first calls. */
  expectAgent(): void;
}

/** How VS Code starts dist/mcp.js here: its own runtime as Node (desktop), or the Node it runs on (server, remote). */
export function mcpServerLaunch(script: string): {
  readonly command: string;
  readonly args: string[];
  readonly env: Record<string, string>;
} {
  return {
    command: process.execPath,
    args: [script],
    env: process.versions['electron'] === undefined ? {} : { ELECTRON_RUN_AS_NODE: '1' },
  };
}

/** The name VS Code's own launch is paired as (shown in the questions its calls raise). */
const VSCODE_AGENT = 'VS Code';

export function registerMcpChannelHost(context: vscode.ExtensionContext, deps: McpChannelHostDeps): McpChannelHost {
  const pairings = new AgentPairings(context.secrets);
  // Connect an Agent's wait for its agent: bounded, and the user hears when it ended without a pairing.
  const waiting = new PairingWindow(
    () => void reconcile(),
    () => {
      deps.log.info('MCP: no agent asked to be paired after Connect an Agent; the pairing question is closed.');
      void vscode.window.showInformationMessage(
        inertNotificationText(
          vscode.l10n.t(
            'Onboarding Events: no agent asked to be paired within {0} minutes of Connect an Agent. Run Connect an Agent again when the agent is started.',
            PAIRING_WAIT_MS / 60_000,
          ),
        ),
      );
    },
  );
  let lastActive = vscode.window.state.focused ? Date.now() : 0;
  context.subscriptions.push(
    vscode.window.onDidChangeWindowState((state) => {
      if (state.focused) lastActive = Date.now();
    }),
  );

  // Only after the user connected an agent here: otherwise any program could raise the question at any time.
  const pair = (agent: string) =>
    waiting.pair(pairings, agent, async () => {
      const name = inertNotificationText(agent);
      const agreed = await deps.trust.confirm({
        title: vscode.l10n.t('An agent asks to be paired with Onboarding Events in VS Code.'),
        detail: vscode.l10n.t(
          'It calls itself "{0}" and reached this window through the MCP server "onboarding-events". Pair it only if you just connected that agent with Connect an Agent. A paired agent may ask for more than what your views already loaded; each call that would send requests with your sign-in or start a watch is still asked about here. "Onboarding Events: Revoke Agent Access" ends the pairing.',
          name,
        ),
        action: vscode.l10n.t('Pair'),
      });
      if (agreed) deps.log.info(`MCP: the agent "${agent}" was paired.`);
      return agreed;
    });

  let open: Promise<Channel | undefined> | undefined;
  const openChannel = (): Promise<Channel | undefined> => {
    open ??= startChannel(channelDirectory(), {
      hello: () => ({
        signedIn: deps.session.state.kind === 'signed-in',
        lastActive: vscode.window.state.focused ? Date.now() : lastActive,
      }),
      pair: (agent) => pair(agent),
      call: async (tool, input, key, signal) => {
        const source = new vscode.CancellationTokenSource();
        const cancel = () => {
          source.cancel();
        };
        signal.addEventListener('abort', cancel, { once: true });
        try {
          const caller = await pairings.callerOf(key);
          deps.log.info(
            `MCP: ${tool.slice(0, 100)} called by ${caller.kind === 'paired' ? `the paired agent "${caller.agent}"` : 'an unpaired caller'}.`,
          );
          return await deps.answer(tool, input, caller, source.token);
        } finally {
          signal.removeEventListener('abort', cancel);
          source.dispose();
        }
      },
    }).catch((error: unknown) => {
      // Agents outside VS Code then hear "not running"; everything else works.
      deps.log.warn(`MCP: the local channel for agents could not start: ${errorMessage(error)}`);
      return undefined;
    });
    return open;
  };
  /** Opens the channel while it can be used, closes it when the last pairing went and nothing else needs it. */
  const reconcile = async (): Promise<void> => {
    const wanted = waiting.open || (await pairings.list()).length > 0;
    if (wanted) void openChannel();
    else if (open !== undefined) {
      const closing = open;
      open = undefined;
      await closing.then((channel) => channel?.dispose());
    }
  };
  void reconcile();
  context.subscriptions.push(
    // Another window paired or revoked an agent.
    context.secrets.onDidChange((change) => {
      if (change.key === PAIRINGS_SECRET) void reconcile();
    }),
    {
      dispose: () => {
        waiting.dispose();
        void open?.then((channel) => channel?.dispose());
      },
    },
    ...registerCommands(CHANNEL_HOST_COMMANDS, { pairings, log: deps.log, changed: reconcile }),
  );

  registerServerDefinition(context, async () => {
    const channel = await openChannel();
    return channel === undefined
      ? {}
      : { [CHANNEL_WINDOW_VARIABLE]: channel.id, [CHANNEL_PAIRING_VARIABLE]: pairings.addLaunch(VSCODE_AGENT) };
  });
  return {
    expectAgent: () => {
      waiting.expect();
    },
  };
}

/** "Onboarding Events" in VS Code's MCP servers; `launch` gives the environment of each start. */
function registerServerDefinition(context: vscode.ExtensionContext, launch: () => Promise<Record<string, string>>): void {
  // Feature-detected although engines says 1.101: a fork (Cursor, Windsurf) may report the version without the API.
  if (typeof vscode.lm.registerMcpServerDefinitionProvider !== 'function') return;
  const script = vscode.Uri.joinPath(context.extensionUri, 'dist', 'mcp.js').fsPath;
  const declared = (context.extension.packageJSON as { readonly version?: unknown }).version;
  const version = typeof declared === 'string' ? declared : '';
  const definition = (env: Record<string, string>) => {
    const server = mcpServerLaunch(script);
    return new vscode.McpStdioServerDefinition(
      vscode.l10n.t('Onboarding Events'),
      server.command,
      server.args,
      { ...server.env, ...env },
      version,
    );
  };
  context.subscriptions.push(
    vscode.lm.registerMcpServerDefinitionProvider(MCP_SERVER_PROVIDER, {
      // Listed without opening anything: VS Code asks for the list eagerly, in every window.
      provideMcpServerDefinitions: () => [definition({})],
      // Called when VS Code starts the server: only then is the channel opened and this launch paired. The
      // pairing passes through VS Code's memory and the process's environment, never a file or a setting.
      resolveMcpServerDefinition: async () => definition(await launch()),
    }),
  );
}

interface ChannelHostCommandDeps {
  readonly pairings: AgentPairings;
  readonly log: Log;
  readonly changed: () => Promise<void>;
}

/** "Onboarding Events: Revoke Agent Access": the paired agents, to end one or more pairings. */
const revokeAgentAccess: CommandFactory<ChannelHostCommandDeps> = (deps) => async () => {
  const paired = await deps.pairings.list();
  if (paired.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No agent is paired with Onboarding Events.'));
    return;
  }
  const each = paired.map((pairing) => ({
    label: inertNotificationText(pairing.agent),
    description:
      pairing.launch === true
        ? vscode.l10n.t('started by VS Code {0}', new Date(pairing.paired).toLocaleString())
        : vscode.l10n.t('paired {0}', new Date(pairing.paired).toLocaleString()),
    ids: [pairing.id],
  }));
  const all = { label: vscode.l10n.t('All paired agents'), description: '', ids: paired.map((pairing) => pairing.id) };
  const picked = await vscode.window.showQuickPick(each.length > 1 ? [all, ...each] : each, {
    title: vscode.l10n.t('Revoke Agent Access'),
    placeHolder: vscode.l10n.t('Which agent should no longer be paired? It can then read only what your views already loaded.'),
  });
  if (picked === undefined) return;
  await deps.pairings.remove(new Set(picked.ids));
  deps.log.info(`MCP: ${picked.ids.length} agent pairings revoked.`);
  await deps.changed();
};

const CHANNEL_HOST_COMMANDS: CommandTable<ChannelHostCommandDeps> = { [COMMANDS.revokeAgentAccess]: revokeAgentAccess };
