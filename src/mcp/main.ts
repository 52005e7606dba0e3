// dist/mcp.js: the Onboarding Events MCP server over stdio. An agent (VS Code
// itself, Claude Code, Codex, Gemini CLI, Cursor, …) starts it with Node, or
// with VS Code's runtime and ELECTRON_RUN_AS_NODE=1. It takes no arguments and
// no secret; it finds the running extension through the channel directory.
// stdout carries the protocol only: diagnostics go to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  agentPairingStore,
  channelDirectory,
  CHANNEL_AGENT_VARIABLE,
  CHANNEL_PAIRING_VARIABLE,
  CHANNEL_WINDOW_VARIABLE,
} from '../core/agents/channel';
import { channelConnector, createMcpServer } from '../core/agents/mcpServer';

/** Replaced by the bundler with package.json's version. */
declare const MCP_SERVER_VERSION: string | undefined;
const version = typeof MCP_SERVER_VERSION === 'string' ? MCP_SERVER_VERSION : '0.0.0';

async function main(): Promise<void> {
  const dir = channelDirectory();
  // The pairing is kept under the agent's key from its configuration, never under the name its client gives.
  const pairings = agentPairingStore(dir, process.env[CHANNEL_AGENT_VARIABLE], process.env[CHANNEL_PAIRING_VARIABLE]);
  const server = createMcpServer(channelConnector(dir, process.env[CHANNEL_WINDOW_VARIABLE], pairings), version);
  // The agent closes stdin when it is done: leave then, whatever is in flight.
  process.stdin.once('end', () => void server.close().finally(() => process.exit(0)));
  await server.connect(new StdioServerTransport());
}

main().catch((error: unknown) => {
  process.stderr.write(`onboarding-events MCP server: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
