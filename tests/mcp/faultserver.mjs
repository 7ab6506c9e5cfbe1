// A small MCP server written with the official TypeScript SDK (@modelcontextprotocol/sdk,
// pinned in servers/package.json) that gets things wrong on purpose, for the fault cases a
// real server gets wrong in the SDK's own way (tests/mcp/tst_mcpcontext.cpp):
//
//     node faultserver.mjs SERVERS_DIR [MODE]
//     SERVERS_DIR: where install-servers.sh installed the pinned packages
//     MODE: faults (default): tools, resources and prompts with the faults below
//           exit-on-call: answers initialize and tools/list, then exits on the first call
//
// The faults: a tool whose inputSchema is no JSON Schema, a tool named like a built-in (Read),
// a tool answering isError, one answering 300,000 characters, one answering images; resources
// listed over three pages, one without a uri, one whose text is 1 MiB, a binary one; prompts
// with a broken one, one whose messages hold an image and an embedded resource, one that
// answers without messages. Tools "add-tool" and "add-prompt" make the lists change.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const [serversDir, mode = "faults"] = process.argv.slice(2);
if (!serversDir) {
    process.stderr.write("usage: faultserver.mjs SERVERS_DIR [faults|exit-on-call]\n");
    process.exit(64);
}
const require = createRequire(serversDir + "/package.json");
const load = (path) => import(pathToFileURL(require.resolve(path)).href);
const { Server } = await load("@modelcontextprotocol/sdk/server/index.js");
const { StdioServerTransport } = await load("@modelcontextprotocol/sdk/server/stdio.js");
const types = await load("@modelcontextprotocol/sdk/types.js");

const server = new Server(
    { name: "agentdesk-fault-server", version: "1.0.0" },
    {
        capabilities: {
            tools: { listChanged: true },
            resources: { listChanged: true },
            prompts: { listChanged: true },
        },
    },
);

const object = { type: "object", properties: {} };
// A 1x1 transparent PNG.
const png =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

const tools = [
    {
        name: "broken-schema",
        description: "Its inputSchema is no JSON Schema.",
        inputSchema: { type: "object", properties: { path: { type: "file" } } },
    },
    { name: "Read", description: "Named like AgentDesk's built-in Read.", inputSchema: object },
    { name: "fails", description: "Answers with isError.", inputSchema: object },
    { name: "huge", description: "Answers 300,000 characters.", inputSchema: object },
    { name: "image", description: "Answers with two images.", inputSchema: object },
    { name: "add-tool", description: "Adds the tool \"added\".", inputSchema: object },
    { name: "add-prompt", description: "Adds the prompt \"added\".", inputSchema: object },
];
const prompts = [
    { name: "review", description: "Review a file.", arguments: [{ name: "file", required: true }] },
    { name: "mixed", description: "Text, an image and an embedded resource." },
    { name: "empty", description: "Answers without messages." },
    { name: "broken", arguments: "not a list" },
];

server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools }));

server.setRequestHandler(types.CallToolRequestSchema, async (request) => {
    if (mode === "exit-on-call") {
        process.stderr.write("fault server: exiting on the first call\n");
        process.exit(7);
    }
    switch (request.params.name) {
    case "Read":
        return { content: [{ type: "text", text: "the fault server's Read" }] };
    case "fails":
        return { content: [{ type: "text", text: "the fault server failed on purpose" }], isError: true };
    case "huge":
        return { content: [{ type: "text", text: "y".repeat(300_000) }] };
    case "image":
        return {
            content: [
                { type: "text", text: "two images:" },
                { type: "image", data: png, mimeType: "image/png" },
                { type: "image", data: "A".repeat(3 * 1024 * 1024), mimeType: "image/png" },
            ],
        };
    case "added":
        return { content: [{ type: "text", text: "the added tool ran" }] };
    case "add-tool":
        tools.push({ name: "added", description: "Added at run time.", inputSchema: object });
        await server.sendToolListChanged();
        return { content: [{ type: "text", text: "added a tool" }] };
    case "add-prompt":
        prompts.push({ name: "added", description: "Added at run time." });
        await server.sendPromptListChanged();
        return { content: [{ type: "text", text: "added a prompt" }] };
    default:
        throw new types.McpError(types.ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    }
});

// Three pages of resources; the second holds one without a uri.
const pages = [
    [
        { uri: "fault://one", name: "one", mimeType: "text/plain" },
        { uri: "fault://big", name: "big", mimeType: "text/plain", size: 1024 * 1024 },
    ],
    [{ name: "no-uri" }, { uri: "fault://blob", name: "blob", mimeType: "application/octet-stream" }],
    [{ uri: "fault://three", name: "three" }],
];
server.setRequestHandler(types.ListResourcesRequestSchema, async (request) => {
    const page = Number(request.params?.cursor ?? "0");
    return {
        resources: pages[page],
        ...(page + 1 < pages.length ? { nextCursor: String(page + 1) } : {}),
    };
});
server.setRequestHandler(types.ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [{ uriTemplate: "fault://numbers/{n}", name: "numbers" }],
}));
server.setRequestHandler(types.ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    if (uri === "fault://big")
        return { contents: [{ uri, mimeType: "text/plain", text: "z".repeat(1024 * 1024) }] };
    if (uri === "fault://blob")
        return { contents: [{ uri, mimeType: "application/octet-stream", blob: Buffer.from([0, 1, 2, 255]).toString("base64") }] };
    if (uri === "fault://one" || uri === "fault://three")
        return { contents: [{ uri, mimeType: "text/plain", text: `the text of ${uri}` }] };
    throw new types.McpError(-32002, `Resource not found: ${uri}`);
});

server.setRequestHandler(types.ListPromptsRequestSchema, async () => ({ prompts }));
server.setRequestHandler(types.GetPromptRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    if (name === "review")
        return {
            description: "A review",
            messages: [
                { role: "user", content: { type: "text", text: `Please review ${args?.file}.` } },
                { role: "assistant", content: { type: "text", text: "Which aspects matter most?" } },
            ],
        };
    if (name === "mixed")
        return {
            messages: [
                { role: "user", content: { type: "text", text: "Look at these:" } },
                { role: "user", content: { type: "image", data: png, mimeType: "image/png" } },
                {
                    role: "user",
                    content: { type: "resource", resource: { uri: "fault://one", mimeType: "text/plain", text: "embedded text" } },
                },
            ],
        };
    if (name === "empty")
        return { description: "no messages" };
    if (name === "added")
        return { messages: [{ role: "user", content: { type: "text", text: "added prompt" } }] };
    throw new types.McpError(types.ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
});

await server.connect(new StdioServerTransport());
