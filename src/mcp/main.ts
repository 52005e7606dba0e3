// dist/mcp.js: the Onboarding Events MCP server over stdio. An agent (VS Code
// itself, Claude Code, Codex, Gemini CLI, Cursor, …) starts it with Node, or
// with VS Code's runtime and ELECTRON_RUN_AS_NODE=1. It takes no arguments and
// no secret; it finds the running extension through the channel directory.
// stdout carries the protocol only: diagnostics go to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { agentPairingStore, channelDirectory, CHANNEL_PAIRING_VARIABLE, CHANNEL_WINDOW_VARIABLE } from './channel';
import { channelConnector, createMcpServer } from './mcpServer';

/** Replaced by the bundler with package.json's version. */
declare const MCP_SERVER_VERSION: string | undefined;
const version = typeof MCP_SERVER_VERSION === 'string' ? MCP_SERVER_VERSION : '0.0.0';

async function main(): Promise<void> {
  const dir = channelDirectory();
  // The pairing is the agent's, named as its client introduced itself (known once it connected).
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the SDK's low-level Server, as in mcpServer.ts
  const connected: { server?: Server } = {};
  const pairings = agentPairingStore(dir, () => connected.server?.getClientVersion()?.name ?? '', process.env[CHANNEL_PAIRING_VARIABLE]);
  const server = createMcpServer(channelConnector(dir, process.env[CHANNEL_WINDOW_VARIABLE], pairings), version);
  connected.server = server;
  // The agent closes stdin when it is done: leave then, whatever is in flight.
  process.stdin.once('end', () => void server.close().finally(() => process.exit(0)));
  await server.connect(new StdioServerTransport());
}

main().catch((error: unknown) => {
  process.stderr.write(`onboarding-events MCP server: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
