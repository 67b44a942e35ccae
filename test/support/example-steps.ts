import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The runnable examples in examples/<name>/: each has its openclaw.json (or one per gateway), a README.md
 * and a requests.json listing what the README tells the reader to do. This module renders every request as
 * the exact curl command (and expected-output comment) the README shows, and runs it over HTTP the way curl
 * would, so test/first-hour/examples.e2e-spec.ts keeps the README, the config and the gateway's behaviour in step.
 */

export const EXAMPLES_DIR = path.resolve(__dirname, '../../examples');

/** One gateway of an example, started as the README says. */
export interface ExampleGateway {
  name: string;
  /** Config file, relative to the example's folder. */
  config: string;
  /** The `--state-dir` the README uses. */
  stateDir: string;
  /** `gateway.port` of that config: the port the README's curl commands talk to. */
  port: number;
}

/** What a request must answer. */
export interface StepExpectation {
  /** HTTP status [200]. Alone (without json/lines) the README's curl prints only the status code. */
  status?: number;
  /** A subset of the JSON body: every key given must match; arrays must match element by element. */
  json?: unknown;
  /** Exactly the lines `grep -o <step.grep>` prints for the body. */
  lines?: string[];
}

export interface ExampleStep {
  /** The README comment above the command. */
  title: string;
  /** Which gateway (by name) [the first]. */
  gateway?: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** Header values may name environment variables as $NAME (the README's shell expands them). */
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** A `grep -o` pattern applied to the body; only literal characters, `[...]` and `*`. */
  grep?: string;
  /** The answer appears after background work (indexing, a ping-pong): the test polls until it matches. */
  eventually?: boolean;
  expect: StepExpectation;
}

export interface ExampleRequests {
  /** The variables the README exports before starting the gateway(s). */
  env: Record<string, string>;
  gateways: ExampleGateway[];
  steps: ExampleStep[];
}

export interface Example {
  name: string;
  dir: string;
  readme: string;
  requests: ExampleRequests;
}

/** Every folder of examples/ that holds a requests.json, by name. */
export function listExamples(): Example[] {
  return (
    readdirSync(EXAMPLES_DIR, { withFileTypes: true })
      // examples/plugins/ holds example plugins, not gateways: each has its own test in test/plugins/.
      .filter((d) => d.isDirectory() && d.name !== 'plugins')
      .map((d) => d.name)
      .sort()
      .map((name) => readExample(name))
  );
}

export function readExample(name: string): Example {
  const dir = path.join(EXAMPLES_DIR, name);
  return {
    name,
    dir,
    readme: readFileSync(path.join(dir, 'README.md'), 'utf8'),
    requests: JSON.parse(readFileSync(path.join(dir, 'requests.json'), 'utf8')) as ExampleRequests,
  };
}

/** The command the README gives to start one gateway of the example (from the repository root). */
export function renderStart(example: Example, gateway: ExampleGateway): string {
  const config = path.posix.join('examples', example.name, gateway.config);
  return `node dist/cli.js gateway --config ${config} --state-dir ${gateway.stateDir}`;
}

export function renderExports(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([k, v]) => `export ${k}=${v}`)
    .join('\n');
}

/** Characters a grep pattern may use so that `grep -o` (basic regex) and a JS RegExp agree on it. */
const PORTABLE_PATTERN = /^[A-Za-z0-9 "':,_\-[\]*]+$/;

export function grepPattern(pattern: string): RegExp {
  if (!PORTABLE_PATTERN.test(pattern)) throw new Error(`grep pattern ${pattern} uses characters grep and RegExp may read differently`);
  return new RegExp(pattern, 'g');
}

function gatewayOf(requests: ExampleRequests, step: ExampleStep): ExampleGateway {
  const gw = step.gateway ? requests.gateways.find((g) => g.name === step.gateway) : requests.gateways[0];
  if (!gw) throw new Error(`step "${step.title}" names an unknown gateway ${step.gateway}`);
  return gw;
}

const statusOnly = (step: ExampleStep) => step.expect.json === undefined && step.expect.lines === undefined;

/** A shell word: single-quoted when it holds characters the shell would interpret. */
function shellWord(text: string): string {
  if (/^[A-Za-z0-9_./:=-]+$/.test(text)) return text;
  if (text.includes("'")) throw new Error(`cannot single-quote ${text}`);
  return `'${text}'`;
}

/** A header argument: double quotes when it names a $VARIABLE for the shell to expand. */
function headerArg(name: string, value: string): string {
  const text = `${name}: ${value}`;
  if (text.includes('$')) {
    if (/["\\`]/.test(text)) throw new Error(`cannot double-quote header ${name}`);
    return `-H "${text}"`;
  }
  return `-H ${shellWord(text)}`;
}

/** The curl command for a step, exactly as the README shows it. */
export function renderCurl(requests: ExampleRequests, step: ExampleStep): string {
  const gw = gatewayOf(requests, step);
  const method = step.method ?? (step.body === undefined ? 'GET' : 'POST');
  const parts = ['curl -s'];
  if (statusOnly(step)) parts.push("-o /dev/null -w '%{http_code}\\n'");
  const impliedMethod = step.body === undefined ? 'GET' : 'POST';
  if (method !== impliedMethod) parts.push(`-X ${method}`);
  parts.push(shellWord(`localhost:${gw.port}${step.path}`));
  for (const [name, value] of Object.entries(step.headers ?? {})) parts.push(headerArg(name, value));
  if (step.body !== undefined) parts.push("-H 'Content-Type: application/json'", `-d ${shellWord(JSON.stringify(step.body))}`);
  let command = parts.join(' ');
  if (step.grep) command += ` | grep -o ${shellWord(step.grep)}`;
  return command;
}

/** The comment lines under the command that say what it prints. */
export function renderExpectation(step: ExampleStep): string[] {
  const lead = step.eventually ? '# → (within a few seconds) ' : '# → ';
  if (step.expect.lines) {
    const [first = '(nothing)', ...rest] = step.expect.lines;
    return [`${lead}${first}`, ...rest.map((l) => `#   ${l}`)];
  }
  if (step.expect.json !== undefined) return [`${lead}${JSON.stringify(step.expect.json)}`];
  return [`${lead}${step.expect.status ?? 200}`];
}

/** The README block of one step: title comment, command, expected output. */
export function renderStep(requests: ExampleRequests, step: ExampleStep): string {
  return [`# ${step.title}`, renderCurl(requests, step), ...renderExpectation(step)].join('\n');
}

/** `$NAME` in a header value → the variable's value, as the README's shell does it. */
export function expandVariables(value: string, env: Record<string, string>): string {
  return value.replace(/\$([A-Z_][A-Z0-9_]*)/g, (_m, name: string) => {
    const v = env[name];
    if (v === undefined) throw new Error(`$${name} is used but not exported by the example`);
    return v;
  });
}

export interface StepAnswer {
  status: number;
  text: string;
}

/** Sends the step's request to the gateway at `baseUrl` as the README's curl command does. */
export async function sendStep(baseUrl: string, env: Record<string, string>, step: ExampleStep): Promise<StepAnswer> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(step.headers ?? {})) headers[name] = expandVariables(value, env);
  if (step.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${baseUrl}${step.path}`, {
    method: step.method ?? (step.body === undefined ? 'GET' : 'POST'),
    headers,
    body: step.body === undefined ? undefined : JSON.stringify(step.body),
  });
  return { status: res.status, text: await res.text() };
}

/** Why the answer is not what the README promises, or undefined when it is. */
export function mismatch(step: ExampleStep, answer: StepAnswer): string | undefined {
  const wanted = step.expect.status ?? 200;
  if (answer.status !== wanted) return `HTTP ${answer.status}, expected ${wanted}: ${answer.text.slice(0, 500)}`;
  if (step.expect.lines) {
    if (!step.grep) return 'expect.lines needs a grep pattern';
    const got = answer.text.match(grepPattern(step.grep)) ?? [];
    if (JSON.stringify(got) !== JSON.stringify(step.expect.lines)) return `grep -o printed ${JSON.stringify(got)}`;
  }
  if (step.expect.json !== undefined) {
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return `body is not JSON: ${answer.text.slice(0, 200)}`;
    }
    const where = subsetMismatch(body, step.expect.json, '');
    if (where !== undefined) return `${where} in ${answer.text.slice(0, 1000)}`;
  }
  return undefined;
}

/** The first path where `actual` does not contain `expected` (objects: a subset; arrays: element-wise). */
export function subsetMismatch(actual: unknown, expected: unknown, at: string): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return `${at || 'body'}: expected ${expected.length} element(s)`;
    for (let i = 0; i < expected.length; i++) {
      const m = subsetMismatch(actual[i], expected[i], `${at}[${i}]`);
      if (m) return m;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return `${at || 'body'}: expected an object`;
    for (const [key, value] of Object.entries(expected)) {
      const m = subsetMismatch((actual as Record<string, unknown>)[key], value, at ? `${at}.${key}` : key);
      if (m) return m;
    }
    return undefined;
  }
  return Object.is(actual, expected) ? undefined : `${at || 'body'}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`;
}

/** Runs one step; an `eventually` step is repeated until it matches or `timeoutMs` passes. */
export async function runStep(baseUrl: string, env: Record<string, string>, step: ExampleStep, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const problem = mismatch(step, await sendStep(baseUrl, env, step));
    if (problem === undefined) return;
    if (!step.eventually || Date.now() > deadline) throw new Error(`step "${step.title}": ${problem}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
