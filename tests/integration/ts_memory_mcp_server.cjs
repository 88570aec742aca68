// The Anthropic TypeScript SDK's memory tool (BetaLocalFilesystemMemoryTool), unmodified, served as
// six MCP tools over stdio, so that `memory-sandbox attack --mcp` can score it:
//   node ts_memory_mcp_server.cjs ROOT PACKAGES
// ROOT is the memory folder (named "memories": the tool serves <base>/memories); PACKAGES is the folder
// .ci/install-mcp-reference installed the npm packages into. Tool arguments go to the tool as they are.
"use strict";
const path = require("node:path");
const { createRequire } = require("node:module");

const [root, packages] = process.argv.slice(2);
if (!root || !packages || path.basename(root) !== "memories") {
  process.stderr.write("usage: node ts_memory_mcp_server.cjs ROOT(memories) PACKAGES\n");
  process.exit(2);
}
const load = createRequire(path.join(path.resolve(packages), "package.json"));
const { Server } = load("@modelcontextprotocol/sdk/server/index.js");
const { StdioServerTransport } = load("@modelcontextprotocol/sdk/server/stdio.js");
const { ListToolsRequestSchema, CallToolRequestSchema } = load("@modelcontextprotocol/sdk/types.js");
const { BetaLocalFilesystemMemoryTool } = load("@anthropic-ai/sdk/tools/memory/node");

const COMMANDS = ["view", "create", "str_replace", "insert", "delete", "rename"];
const tool = new BetaLocalFilesystemMemoryTool(path.dirname(path.resolve(root)));
const server = new Server({ name: "anthropic-ts-memory-tool", version: "1.14.0" }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: COMMANDS.map((name) => ({ name, inputSchema: { type: "object" } })),
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const name = request.params.name;
  if (!COMMANDS.includes(name)) {
    return { content: [{ type: "text", text: `Unknown tool ${name}` }], isError: true };
  }
  try {
    const answer = await tool[name]({ ...(request.params.arguments || {}), command: name });
    const content = typeof answer === "string" ? [{ type: "text", text: answer }] : answer;
    return { content };
  } catch (error) {
    return { content: [{ type: "text", text: String(error && error.message ? error.message : error) }], isError: true };
  }
});

server.connect(new StdioServerTransport());
