// The MCP scenarios of tests/bench/bench_mcp.cpp through the official TypeScript SDK's Client
// (@modelcontextprotocol/sdk, the version tests/mcp/servers pins): the same 5 stdio servers
// (server-everything three times, server-filesystem twice) connected and their tools listed, all
// at once (Promise.all) and one after another; and server-everything's echo called N times over
// stdio and Streamable HTTP. One JSON line per measurement, as bench_mcp prints them.
//
// usage: node mcp-peer.mjs start SERVERS_DIR [ROUNDS]
//        node mcp-peer.mjs calls SERVERS_DIR [CALLS]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [mode, serversDir, countArg] = process.argv.slice(2);
const modules = path.join(serversDir, 'node_modules');
const sdk = path.join(modules, '@modelcontextprotocol/sdk/dist/esm/client');
const { Client } = await import(pathToFileURL(path.join(sdk, 'index.js')).href);
const { StdioClientTransport } = await import(pathToFileURL(path.join(sdk, 'stdio.js')).href);
const { StreamableHTTPClientTransport } = await import(
  pathToFileURL(path.join(sdk, 'streamableHttp.js')).href);
const everything = path.join(modules, '@modelcontextprotocol/server-everything/dist/index.js');
const filesystem = path.join(modules, '@modelcontextprotocol/server-filesystem/dist/index.js');

const now = () => Number(process.hrtime.bigint()) / 1e6;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
const min = (xs) => Math.min(...xs);
const print = (o) => console.log(JSON.stringify({ ...o, side: 'TypeScript SDK', node: process.version }));

function servers(folder) {
  const list = [];
  for (let i = 0; i < 5; ++i) {
    list.push(i < 3 ? { name: `everything${i}`, args: [everything, 'stdio'] }
                    : { name: `filesystem${i - 3}`, args: [filesystem, folder] });
  }
  return list;
}

// Connect (initialize) and list the tools: the SDK's equivalent of a server being Ready.
async function ready(server) {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: 'node', args: server.args, stderr: 'ignore' }));
  const { tools } = await client.listTools();
  if (!tools.length) throw new Error(`${server.name} listed no tools`);
  return client;
}

async function round(list, parallel) {
  const started = now();
  const each = new Array(list.length);
  const clients = [];
  const one = async (server, i) => {
    clients.push(await ready(server));
    each[i] = now() - started;
  };
  if (parallel) {
    await Promise.all(list.map(one));
  } else {
    for (let i = 0; i < list.length; ++i) await one(list[i], i);
  }
  const all = now() - started;
  await Promise.all(clients.map((c) => c.close()));
  return { each, all };
}

async function benchStart(rounds) {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'mcp-peer-'));
  const list = servers(folder);
  await round(list, true); // warm, not counted
  const parallelAll = [], sequentialAll = [];
  const parallelEach = list.map(() => []), alone = list.map(() => []);
  for (let r = 0; r < rounds; ++r) {
    const p = await round(list, true);
    const s = await round(list, false);
    parallelAll.push(p.all);
    sequentialAll.push(s.all);
    list.forEach((_, i) => {
      parallelEach[i].push(p.each[i]);
      alone[i].push(s.each[i] - (i ? s.each[i - 1] : 0));
    });
  }
  rmSync(folder, { recursive: true, force: true });
  print({
    bench: 'start', servers: list.length, rounds,
    parallelMsMedian: median(parallelAll), parallelMsMin: min(parallelAll),
    sequentialMsMedian: median(sequentialAll), sequentialMsMin: min(sequentialAll),
    slowestAloneMsMedian: Math.max(...alone.map(median)),
    each: list.map((s, i) => ({
      name: s.name, parallelMsMedian: median(parallelEach[i]), parallelMsMin: min(parallelEach[i]),
      aloneMsMedian: median(alone[i]), aloneMsMin: min(alone[i]),
    })),
  });
}

async function timeEcho(client, variant, calls) {
  const call = async (n) => {
    const result = await client.callTool({ name: 'echo', arguments: { message: `hello ${n}` } });
    if (result.isError || result.content?.[0]?.text !== `Echo: hello ${n}`) {
      throw new Error(`echo failed: ${JSON.stringify(result)}`);
    }
  };
  for (let i = 0; i < 10; ++i) await call(i);
  const ms = [];
  for (let i = 0; i < calls; ++i) {
    const started = now();
    await call(i);
    ms.push(now() - started);
  }
  print({ bench: 'calls', variant, calls, msMedian: median(ms), msMin: min(ms) });
}

function freePort() {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function benchCalls(calls) {
  const stdio = new Client({ name: 'bench', version: '1' });
  await stdio.connect(new StdioClientTransport({ command: 'node', args: [everything, 'stdio'], stderr: 'ignore' }));
  await timeEcho(stdio, 'echo, stdio', calls);
  await stdio.close();

  const port = await freePort();
  const server = spawn('node', [everything, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no start: ${output}`)), 60000);
    const seen = (chunk) => {
      output += chunk;
      if (output.includes('listening on port')) { clearTimeout(timer); resolve(); }
    };
    server.stdout.on('data', seen);
    server.stderr.on('data', seen);
  });
  const http = new Client({ name: 'bench', version: '1' });
  await http.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  await timeEcho(http, 'echo, Streamable HTTP', calls);
  await http.close();
  server.kill();
}

if (mode === 'start') await benchStart(Number(countArg ?? 5));
else if (mode === 'calls') await benchCalls(Number(countArg ?? 200));
else {
  console.error('usage: node mcp-peer.mjs start|calls SERVERS_DIR [COUNT]');
  process.exit(2);
}
process.exit(0);
