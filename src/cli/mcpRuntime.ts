// What only `oe mcp` needs, the MCP SDK with its schema libraries (a third of oe):
// a bundle of its own (dist/oeMcp.js) that cmd/mcp.ts requires when oe mcp runs.
export { createMcpServer } from '../core/agents/mcpServer';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
