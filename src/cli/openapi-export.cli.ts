import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * `npm run openapi`: writes schemas/openapi.json, the document a gateway serves at /docs-json (the same
 * bytes, pretty-printed), from a gateway booted for the purpose on a loopback port with a throwaway config
 * and state dir. test/openapi/openapi-document.e2e-spec.ts fails when the file is stale.
 */
export const OPENAPI_FILE = path.resolve(__dirname, '..', '..', 'schemas', 'openapi.json');

export function serializeOpenApi(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

async function main(): Promise<void> {
  // Loaded here, after the log level is set: the logger reads it when its module loads.
  const { startGateway } = await import('../bootstrap');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-openapi-'));
  try {
    const configPath = path.join(dir, 'openclaw.json');
    await fs.writeFile(configPath, '{ agents: { list: [{ id: "main" }] } }\n');
    const gateway = await startGateway({ configPath, stateDir: path.join(dir, 'state'), portOverride: 0, env: { HOME: dir } });
    try {
      const res = await fetch(`${gateway.url}/docs-json`);
      if (!res.ok) throw new Error(`/docs-json answered HTTP ${res.status}`);
      await fs.writeFile(OPENAPI_FILE, serializeOpenApi(await res.json()));
    } finally {
      await gateway.close();
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
  process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
}

if (require.main === module) {
  process.env.CLAWGATE_LOG_LEVEL = process.env.CLAWGATE_LOG_LEVEL || 'silent';
  main().catch((err: Error) => {
    process.stderr.write(`openapi: ${err.message}\n`);
    process.exit(1);
  });
}
