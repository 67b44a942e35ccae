import { once } from 'node:events';
import * as net from 'node:net';
import request from 'supertest';
import { startTestGateway, waitFor } from '../support/gateway-harness';

const SECRET_URL = 'postgres://clawgate:s3cret-db-pass@db.internal:5432/clawgate';

describe('gateway.state config (e2e)', () => {
  it.each([
    ['an unknown backend', '{ backend: "mysql" }', 'gateway.state.backend: must be one of: sqlite, postgres (got "mysql")'],
    ['postgres without a url', '{ backend: "postgres" }', 'gateway.state.url: is required with backend "postgres"'],
    [
      'a url that is not postgres://',
      '{ backend: "postgres", url: "mysql://db/x" }',
      'gateway.state.url: must be a postgres:// or postgresql://',
    ],
    ['a url that is not a string', '{ backend: "postgres", url: 5432 }', 'gateway.state.url: must be a string'],
    ['an unknown key', '{ backend: "sqlite", pool: 4 }', 'gateway.state.pool'],
  ])('refuses %s with a message naming the key', async (_what, state, message) => {
    await expect(startTestGateway(`{ gateway: { state: ${state} } }`)).rejects.toThrow(message);
  });

  it('says when the url variable is unset, without quoting anything', async () => {
    await expect(startTestGateway('{ gateway: { state: { backend: "postgres", url: "${DATABASE_URL}" } } }')).rejects.toThrow(
      'gateway.state.url: is required with backend "postgres", and its environment variable is not set',
    );
  });

  it('never quotes the url (it carries the password) when refusing it', async () => {
    const bad = 'mysql://clawgate:s3cret-db-pass@db.internal/clawgate';
    const err = await startTestGateway(`{ gateway: { state: { backend: "postgres", url: "${bad}" } } }`).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toContain('gateway.state.url');
    expect(err?.message).not.toContain('s3cret-db-pass');
  });

  it('does not start when PostgreSQL is unreachable, naming the server and never the password', async () => {
    // A port that was just free: nothing listens there.
    const server = net.createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as net.AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const url = `postgres://clawgate:s3cret-db-pass@127.0.0.1:${port}/clawgate`;
    const err = await startTestGateway('{ gateway: { state: { backend: "postgres", url: "${DATABASE_URL}" } } }', {
      env: { DATABASE_URL: url },
    }).then(
      (gw) => gw.stop().then(() => undefined),
      (e: Error) => e,
    );
    // The session store connects first (at module init), before the A2A task store's first call.
    expect(err?.message).toContain(`the session store could not start: PostgreSQL at 127.0.0.1:${port}/clawgate is unreachable or refused`);
    expect(err?.message).not.toContain('s3cret-db-pass');
  });

  it('sqlite (the default) ignores a url; switching backends waits for a restart, and a bad edit is rejected live', async () => {
    const gw = await startTestGateway('{ gateway: { state: { url: "${DATABASE_URL}" } } }', { env: { DATABASE_URL: SECRET_URL } });
    try {
      const status = async () => (await request(gw.url).get('/admin/config/status').expect(200)).body;
      expect((await status()).pendingRestart).toEqual([]);

      await gw.writeConfig('{ gateway: { state: { backend: "mysql" } } }');
      const rejected = await waitFor('the rejected edit', async () => ((await status()).lastError ? await status() : undefined));
      expect(JSON.stringify(rejected.lastError)).toContain('gateway.state.backend');
      expect(rejected.pendingRestart).toEqual([]);

      await gw.writeConfig('{ gateway: { state: { backend: "postgres", url: "${DATABASE_URL}" } } }');
      const pending = await waitFor('the reload', async () => {
        const body = await status();
        return body.pendingRestart.length ? body : undefined;
      });
      expect(pending.pendingRestart).toEqual(['gateway.state.backend', 'gateway.state.url']);
      expect(pending.lastError).toBeNull();
      const config = await request(gw.url).get('/admin/config').expect(200);
      expect(JSON.stringify(config.body)).not.toContain('s3cret-db-pass');
    } finally {
      await gw.stop();
    }
  });
});
