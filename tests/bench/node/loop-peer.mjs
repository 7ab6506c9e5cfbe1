// The loop-overhead scenario of tests/bench/bench_loop.cpp, run through the agentLoop of
// @mariozechner/pi-agent-core (the TypeScript loop AgentDesk's design descends from): a scripted,
// zero-latency stream function and a no-op tool; every event is consumed by a receiver iterating
// the loop's event stream. Prints one JSON line.
//
// usage: node loop-peer.mjs [RUNS] [TURNS_PER_RUN] [REPEATS] [long]
// long: one conversation of TURNS_PER_RUN turns, as bench_loop's long-* modes: the per-turn time
// of its first and last 10% (a turn: from one call of the model to the next), CPU time
// (process.cpuUsage()) and peak RSS (process.resourceUsage().maxRSS).
// The packages are resolved from AGENTDESK_NODE_MODULES (scripts/bench installs them there).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const base = path.join(process.env.AGENTDESK_NODE_MODULES ?? process.cwd(), 'node_modules');
// Both packages are ES modules whose exports only have an "import" condition: import the entry
// point their package.json names, from the folder scripts/bench installed them into.
async function importPackage(name) {
  const dir = path.join(base, name);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const entry = manifest.exports?.['.']?.import ?? manifest.main ?? 'index.js';
  return import(pathToFileURL(path.join(dir, entry)).href);
}
const { agentLoop } = await importPackage('@mariozechner/pi-agent-core');
const { createAssistantMessageEventStream } = await importPackage('@mariozechner/pi-ai');

const [runsArg, turnsArg, repeatsArg, modeArg] = process.argv.slice(2);
const long = modeArg === 'long';
const runs = long ? 1 : Number(runsArg ?? 1000);
const turnsPerRun = Number(turnsArg ?? 10);
const repeats = long ? 1 : Number(repeatsArg ?? 3);

const model = {
  id: 'scripted', name: 'scripted', api: 'scripted', provider: 'scripted', baseUrl: '',
  reasoning: false, input: ['text'], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1e9, maxTokens: 1e6,
};

function emptyMessage() {
  return {
    role: 'assistant', content: [], api: 'scripted', provider: 'scripted', model: 'scripted',
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0,
             cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: 'stop', timestamp: Date.now(),
  };
}

// The same script as the C++ side: turnsPerRun - 1 turns calling the no-op tool, then a final
// text answer. Every event is pushed at once: the model costs nothing.
let call = 0;
let callTimes = [];
function streamFn() {
  callTimes.push(process.hrtime.bigint());
  const stream = createAssistantMessageEventStream();
  const partial = emptyMessage();
  const turn = call++ % turnsPerRun;
  stream.push({ type: 'start', partial });
  if (turn < turnsPerRun - 1) {
    const id = `call_${call}`;
    const toolCall = { type: 'toolCall', id, name: 'noop', arguments: {} };
    partial.content.push(toolCall);
    stream.push({ type: 'toolcall_start', contentIndex: 0, partial });
    toolCall.arguments = { path: 'a.txt' };
    stream.push({ type: 'toolcall_delta', contentIndex: 0, delta: '{"path":"a.txt"}', partial });
    stream.push({ type: 'toolcall_end', contentIndex: 0, toolCall, partial });
    partial.stopReason = 'toolUse';
    stream.push({ type: 'done', reason: 'toolUse', message: partial });
  } else {
    const text = { type: 'text', text: '' };
    partial.content.push(text);
    stream.push({ type: 'text_start', contentIndex: 0, partial });
    text.text = 'done';
    stream.push({ type: 'text_delta', contentIndex: 0, delta: 'done', partial });
    stream.push({ type: 'text_end', contentIndex: 0, content: 'done', partial });
    stream.push({ type: 'done', reason: 'stop', message: partial });
  }
  stream.end(partial);
  return stream;
}

const noop = {
  name: 'noop', label: 'No-op', description: 'Does nothing.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  executionMode: 'parallel',
  execute: async () => ({ content: [{ type: 'text', text: 'ok' }], details: {} }),
};

const config = { model, convertToLlm: (messages) => messages, toolExecution: 'parallel' };

async function runAll() {
  let events = 0;
  let turns = 0;
  for (let r = 0; r < runs; ++r) {
    const context = { systemPrompt: 'bench', messages: [], tools: [noop] };
    const prompt = { role: 'user', content: [{ type: 'text', text: 'go' }], timestamp: Date.now() };
    const stream = agentLoop([prompt], context, config, undefined, streamFn);
    for await (const event of stream) {
      ++events;
      if (event.type === 'turn_end') ++turns;
    }
    const newMessages = await stream.result();
    if (newMessages.length !== 2 * turnsPerRun)
      throw new Error(`unexpected run: ${newMessages.length} new messages`);
  }
  return { events, turns };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

// The turns' times (µs) in the first and the last tenth, as bench_loop's turnTenths.
function tenths(times) {
  const turns = [];
  for (let i = 1; i < times.length; ++i) turns.push(Number(times[i] - times[i - 1]) / 1e3);
  const tenth = Math.floor(turns.length / 10);
  const first = turns.slice(0, tenth);
  const last = turns.slice(turns.length - tenth);
  return { firstMedian: median(first), lastMedian: median(last), firstMean: mean(first),
           lastMean: mean(last), slowest: Math.max(...turns) };
}

let best = Infinity;
let bestCpu = 0;
let bestTimes;
let counts;
for (let i = 0; i < repeats; ++i) {
  call = 0;
  callTimes = [];
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  counts = await runAll();
  const end = process.hrtime.bigint();
  const cpu = process.cpuUsage(cpuStart);
  callTimes.push(end);
  const seconds = Number(end - start) / 1e9;
  if (seconds < best) {
    best = seconds;
    bestCpu = (cpu.user + cpu.system) / 1e6;
    bestTimes = callTimes;
  }
}
const t = tenths(bestTimes);
const line = {
  bench: long ? 'long' : 'overhead', peer: '@mariozechner/pi-agent-core@0.73.1',
  node: process.version, runs, turnsPerRun, turns: counts.turns, events: counts.events,
  seconds: best, cpuSeconds: bestCpu, usPerTurn: (best * 1e6) / counts.turns,
  usPerTurnFirstTenthMedian: t.firstMedian, usPerTurnLastTenthMedian: t.lastMedian,
};
if (long) {
  Object.assign(line, {
    usPerTurnFirstTenthMean: t.firstMean, usPerTurnLastTenthMean: t.lastMean,
    usSlowestTurn: t.slowest, peakRssKiB: process.resourceUsage().maxRSS,
  });
}
console.log(JSON.stringify(line));
