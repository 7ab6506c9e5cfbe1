// Parses and assembles the benchmark streams with the JavaScript peers AgentDesk is compared
// with: eventsource-parser (SSE parsing only) and the official SDKs' streaming helpers (the same
// calls that produced the fixtures' expectations). Prints one JSON line per measurement.
// Two clocks, each the best of REPEATS, as bench_stream reports them: "cpuSeconds" (the process's
// CPU time, user + system, from process.cpuUsage(): Node's helper threads included, as the C++
// side's process clock includes all of its threads) and "wallSeconds".
//
// usage: node stream-peers.mjs STREAM_DIR [REPEATS]
// The packages are resolved from AGENTDESK_NODE_MODULES (scripts/bench installs them there).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const require = createRequire(path.join(process.env.AGENTDESK_NODE_MODULES ?? process.cwd(), 'x.js'));
const { createParser } = require('eventsource-parser');
const OpenAI = require('openai').default ?? require('openai');
const AnthropicModule = require('@anthropic-ai/sdk');
const Anthropic = AnthropicModule.default ?? AnthropicModule;

const [streamDir, repeatsArg] = process.argv.slice(2);
const repeats = Number(repeatsArg ?? 3);
const chunkSize = 64 * 1024;

function bodyOf(bytes) {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}

function fakeFetch(bytes) {
  return async () =>
    new Response(bodyOf(bytes), { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

async function eventsourceParser(bytes) {
  let events = 0;
  const parser = createParser({ onEvent: () => { events += 1; } });
  const decoder = new TextDecoder();
  for (let offset = 0; offset < bytes.length; offset += chunkSize)
    parser.feed(decoder.decode(bytes.subarray(offset, offset + chunkSize), { stream: true }));
  parser.feed(decoder.decode());
  return events;
}

async function anthropicSdk(bytes) {
  const client = new Anthropic({ apiKey: 'x', fetch: fakeFetch(bytes), maxRetries: 0 });
  const message = await client.messages
    .stream({ model: 'claude-opus-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
    .finalMessage();
  return message.content.length;
}

async function openaiChatSdk(bytes) {
  const client = new OpenAI({ apiKey: 'x', fetch: fakeFetch(bytes), maxRetries: 0 });
  const completion = await client.chat.completions
    .stream({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] })
    .finalChatCompletion();
  return completion.choices.length;
}

async function openaiResponsesSdk(bytes) {
  const client = new OpenAI({ apiKey: 'x', fetch: fakeFetch(bytes), maxRetries: 0 });
  const response = await client.responses.stream({ model: 'gpt-4o-mini', input: 'x' }).finalResponse();
  return response.output.length;
}

const sdkFor = {
  anthropic: ['@anthropic-ai/sdk@0.137.0', anthropicSdk],
  'openai-chat': ['openai@6.30.1', openaiChatSdk],
  'openai-responses': ['openai@6.30.1', openaiResponsesSdk],
};

// eventsource-parser does what bench_stream's "parse" mode does (SSE to events, nothing
// assembled); the SDKs what its "assemble" mode does.
for (const provider of Object.keys(sdkFor)) {
  const bytes = readFileSync(path.join(streamDir, `${provider}.sse`));
  const [sdkName, sdk] = sdkFor[provider];
  for (const [peer, mode, run] of [['eventsource-parser@3.0.6', 'parse', eventsourceParser],
                                   [sdkName, 'assemble', sdk]]) {
    let bestCpu = Infinity;
    let bestWall = Infinity;
    let events = 0;
    for (let i = 0; i < repeats; ++i) {
      const cpuStart = process.cpuUsage();
      const start = process.hrtime.bigint();
      events = await run(bytes);
      const wall = Number(process.hrtime.bigint() - start) / 1e9;
      const cpu = process.cpuUsage(cpuStart);
      bestWall = Math.min(bestWall, wall);
      bestCpu = Math.min(bestCpu, (cpu.user + cpu.system) / 1e6);
    }
    const megabytes = bytes.length / 1e6;
    console.log(JSON.stringify({ provider, peer, mode, node: process.version, bytes: bytes.length,
                                 repeats, cpuSeconds: bestCpu, wallSeconds: bestWall,
                                 cpuMbPerSecond: megabytes / bestCpu,
                                 wallMbPerSecond: megabytes / bestWall, events }));
  }
}
