// The extension's side of the MCP door: the channel dist/mcp.js asks (one per
// window, see mcp/channel.ts) and the server definition that lists
// "Onboarding Events" in VS Code's MCP servers, started on demand by VS Code.
// The calls are answered by the same tools as vscode.lm's (registerAgentTools),
// so the text, the gate, the bounds and the cache are theirs.
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { channelDirectory, startChannel, CHANNEL_WINDOW_VARIABLE, type Channel, type ToolAnswer } from '../mcp/channel';
import type { ApiSession } from '../workbench/contracts/apiSession';
import { MCP_SERVER_PROVIDER } from '../workbench/constants';
import type { Log } from '../workbench/log';

/** Answers a tool call that came through the MCP server: registerAgentTools' tools, by name. */
export type McpAnswer = (tool: string, input: unknown, token: vscode.CancellationToken) => Promise<ToolAnswer>;

export interface McpDoorDeps {
  readonly session: ApiSession;
  readonly log: Log;
  readonly answer: McpAnswer;
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

export function registerMcpDoor(context: vscode.ExtensionContext, deps: McpDoorDeps): void {
  let lastActive = vscode.window.state.focused ? Date.now() : 0;
  context.subscriptions.push(
    vscode.window.onDidChangeWindowState((state) => {
      if (state.focused) lastActive = Date.now();
    }),
  );
  const started: Promise<Channel | undefined> = startChannel(channelDirectory(), {
    hello: () => ({ signedIn: deps.session.state.kind === 'signed-in', lastActive: vscode.window.state.focused ? Date.now() : lastActive }),
    call: async (tool, input, signal) => {
      const source = new vscode.CancellationTokenSource();
      const cancel = () => {
        source.cancel();
      };
      signal.addEventListener('abort', cancel, { once: true });
      try {
        deps.log.info(`MCP: ${tool.slice(0, 100)} called by an agent.`);
        return await deps.answer(tool, input, source.token);
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
  context.subscriptions.push({ dispose: () => void started.then((channel) => channel?.dispose()) });

  // Feature-detected although engines says 1.101: a fork (Cursor, Windsurf) may report the version without the API.
  if (typeof vscode.lm.registerMcpServerDefinitionProvider !== 'function') return;
  const script = vscode.Uri.joinPath(context.extensionUri, 'dist', 'mcp.js').fsPath;
  const declared = (context.extension.packageJSON as { readonly version?: unknown }).version;
  const version = typeof declared === 'string' ? declared : '';
  context.subscriptions.push(
    vscode.lm.registerMcpServerDefinitionProvider(MCP_SERVER_PROVIDER, {
      provideMcpServerDefinitions: async () => {
        const channel = await started;
        const launch = mcpServerLaunch(script);
        // The window id is no secret: the server still reads the key from the user's own directory.
        const env = channel === undefined ? launch.env : { ...launch.env, [CHANNEL_WINDOW_VARIABLE]: channel.id };
        return [new vscode.McpStdioServerDefinition(vscode.l10n.t('Onboarding Events'), launch.command, launch.args, env, version)];
      },
    }),
  );
}
