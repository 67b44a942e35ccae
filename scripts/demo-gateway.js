// The bundled demo that `npm start` and `npm run start:dev` both run. Its state dir is ./data (git-ignored)
// and its config is ./data/openclaw.json: a copy of the template config/openclaw.json made at the first start
// and never overwritten, so the README's tour (hand edits, the admin API, the CLI) changes a file of the
// user's, not a tracked one that the tests read. The config inside the state dir is also where the CLI looks
// once OPENCLAW_STATE_DIR names that dir, so one `export` points the CLI at what `npm start` runs.
//
// The demo tokens below are defaults for a local, loopback-only demo; any value already in the environment
// wins. They are not secrets.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const TEMPLATE = path.join(root, 'config', 'openclaw.json');

/** The environment of the demo gateway: the caller's, with the demo tokens filled in where unset. */
function demoEnv() {
  return {
    ...process.env,
    CLAWGATE_DEMO_PEER_TOKEN: process.env.CLAWGATE_DEMO_PEER_TOKEN || 'demo-peer-token',
    CLAWGATE_DEMO_HTTP_TOKEN: process.env.CLAWGATE_DEMO_HTTP_TOKEN || 'demo-http-token',
    // For the README's OpenAI-compatible endpoint, which the tour switches on with a key naming this variable.
    CLAWGATE_DEMO_OPENAI_KEY: process.env.CLAWGATE_DEMO_OPENAI_KEY || 'demo-openai-key',
  };
}

/** The demo's state dir and config: OPENCLAW_STATE_DIR / OPENCLAW_CONFIG_PATH win, as for the gateway itself. */
function demoPaths(env = process.env) {
  const stateDir = path.resolve(env.OPENCLAW_STATE_DIR || path.join(root, 'data'));
  const configPath = path.resolve(env.OPENCLAW_CONFIG_PATH || path.join(stateDir, 'openclaw.json'));
  return { stateDir, configPath };
}

/**
 * Copies the template to `configPath` when nothing is there yet (an OPENCLAW_CONFIG_PATH of the caller's is
 * never created: a typo there should fail the start, not start an empty demo). The `$schema` reference is
 * rewritten relative to the copy so editors keep finding the committed schema. Returns whether it copied.
 */
function prepareDemoConfig(paths = demoPaths(), env = process.env) {
  if (env.OPENCLAW_CONFIG_PATH || fs.existsSync(paths.configPath)) return false;
  const schema = path.relative(path.dirname(paths.configPath), path.join(root, 'schemas', 'openclaw.schema.json'));
  const text = fs
    .readFileSync(TEMPLATE, 'utf8')
    .replace('"$schema": "../schemas/openclaw.schema.json"', `"$schema": ${JSON.stringify(schema.split(path.sep).join('/'))}`);
  fs.mkdirSync(path.dirname(paths.configPath), { recursive: true, mode: 0o700 });
  // wx: a config another start created in the meantime is the user's from then on.
  try {
    fs.writeFileSync(paths.configPath, text, { flag: 'wx' });
  } catch (err) {
    if (err.code === 'EEXIST') return false;
    throw err;
  }
  return true;
}

/**
 * `clawgate gateway` with the demo's config and state dir, then whatever the caller added (e.g. `--port 0`).
 * Prepares the config first and says where it is, and how to point the CLI at it.
 */
function demoGatewayArgs(extra) {
  const paths = demoPaths();
  const rel = (p) => path.relative(process.cwd(), p) || '.';
  if (prepareDemoConfig(paths)) {
    process.stdout.write(
      `demo config: ${rel(paths.configPath)}, copied from config/openclaw.json (edit the copy; the template stays as committed)\n`,
    );
  }
  const cliEnv = [`OPENCLAW_STATE_DIR=${paths.stateDir}`];
  if (paths.configPath !== path.join(paths.stateDir, 'openclaw.json')) cliEnv.push(`OPENCLAW_CONFIG_PATH=${paths.configPath}`);
  process.stdout.write(`the CLI on this demo: export ${cliEnv.join(' ')}\n`);
  return ['gateway', '--config', paths.configPath, '--state-dir', paths.stateDir, ...extra];
}

/** Runs the child until it ends, passing Ctrl+C and SIGTERM on, and exits with its status. */
function exitWith(child) {
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
}

module.exports = { root, demoEnv, demoPaths, prepareDemoConfig, demoGatewayArgs, exitWith };
