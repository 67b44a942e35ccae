import type { OpenAPIObject } from '@nestjs/swagger';
import request from 'supertest';
import type { AdminRole } from '../../src/common/auth/roles';
import { adminOperations, undeclaredAdminOperations } from '../../src/modules/admin/route-roles';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * Every admin route × every caller, generated from the running app: the OpenAPI document (with each
 * operation's x-clawgate-role) cross-checked against the routes express actually registered, so a route
 * added tomorrow is in the matrix without anyone editing this file — and one missing from the document, or
 * declaring no role, fails here by name.
 */

const TOKENS: Record<AdminRole, string> = {
  viewer: 'matrix-viewer-token-1a2b3c',
  operator: 'matrix-operator-token-4d5e6f',
  admin: 'matrix-admin-token-7a8b9c',
};
const CALLERS = ['none', 'viewer', 'operator', 'admin'] as const;
const RANK = { none: 0, viewer: 1, operator: 2, admin: 3 } as const;

/** Dummy values for path parameters: anything that routes; the handler may then answer 400/404/422. */
const PARAM_VALUES: Record<string, string> = { key: encodeURIComponent('agent:main:main'), index: '0' };

interface ExpressLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
}

/** `METHOD /path` (OpenAPI `{param}` form) of every admin route express knows. */
function expressAdminRoutes(gw: TestGateway): string[] {
  const app = gw.app.getHttpAdapter().getInstance() as { router: { stack: ExpressLayer[] } };
  const out = new Set<string>();
  for (const layer of app.router.stack) {
    if (!layer.route) continue;
    for (const p of ([] as string[]).concat(layer.route.path)) {
      if (!/^\/admin(\/|$)/i.test(p)) continue;
      for (const [method, on] of Object.entries(layer.route.methods)) {
        if (on && method !== '_all') out.add(`${method.toUpperCase()} ${p.replace(/:(\w+)/g, '{$1}')}`);
      }
    }
  }
  return [...out].sort();
}

describe('admin role matrix (e2e, generated from the route table)', () => {
  let gw: TestGateway;
  let doc: OpenAPIObject;
  beforeAll(async () => {
    gw = await startTestGateway(`{
      agents: { list: [{ id: "main" }] },
      gateway: { admin: { tokens: [
        { name: "v", token: "${TOKENS.viewer}", role: "viewer" },
        { name: "o", token: "${TOKENS.operator}", role: "operator" },
        { name: "a", token: "${TOKENS.admin}", role: "admin" },
      ] } },
    }`);
    doc = (await request(gw.url).get('/docs-json').set('Authorization', `Bearer ${TOKENS.viewer}`).expect(200)).body;
  });
  afterAll(() => gw.stop());

  it('documents exactly the admin routes express serves', () => {
    const documented = adminOperations(doc)
      .map((op) => `${op.method} ${op.path}`)
      .sort();
    const served = expressAdminRoutes(gw);
    expect(served.length).toBeGreaterThanOrEqual(20);
    expect({ servedButUndocumented: served.filter((r) => !documented.includes(r)) }).toEqual({ servedButUndocumented: [] });
    expect({ documentedButNotServed: documented.filter((r) => !served.includes(r)) }).toEqual({ documentedButNotServed: [] });
  });

  it('lists no admin route without @RequiresRole (such a route is locked to admin until it declares one)', () => {
    expect({ withoutRequiresRole: undeclaredAdminOperations(doc) }).toEqual({ withoutRequiresRole: [] });
  });

  it('declares the intended roles for the core routes', () => {
    const role = (method: string, path: string) => adminOperations(doc).find((op) => op.method === method && op.path === path)?.declared;
    expect(role('GET', '/admin/config')).toBe('viewer');
    expect(role('POST', '/admin/config/validate')).toBe('admin');
    expect(role('POST', '/admin/config/plan')).toBe('admin');
    expect(role('POST', '/admin/config/reload')).toBe('operator');
    expect(role('POST', '/admin/sessions/{key}/send')).toBe('operator');
    expect(role('POST', '/admin/sessions/{key}/spawn')).toBe('operator');
    expect(role('POST', '/admin/routing/resolve')).toBe('viewer');
    expect(role('GET', '/admin/cluster')).toBe('viewer');
    expect(role('GET', '/admin/topology')).toBe('viewer');
    expect(role('GET', '/admin/topology.svg')).toBe('viewer');
    // The plan pictures expand ${VAR} of the candidate, like the config plan.
    expect(role('POST', '/admin/topology/plan')).toBe('admin');
    expect(role('POST', '/admin/topology/plan.svg')).toBe('admin');
    expect(role('DELETE', '/admin/agents/{id}')).toBe('admin');
    expect(role('GET', '/admin/audit')).toBe('admin');
    // The run routes share one role: a run's report sits next to its cancel.
    expect(role('GET', '/admin/runs/{runId}')).toBe('operator');
    expect(role('POST', '/admin/runs/{runId}/cancel')).toBe('operator');
    // Every GET is at least viewer, every write at least operator.
    for (const op of adminOperations(doc)) {
      if (op.method !== 'GET' && op.path !== '/admin/routing/resolve') expect(RANK[op.enforced]).toBeGreaterThanOrEqual(RANK.operator);
    }
  });

  it('answers 401 without identity, 403 below the declared role, and lets everyone else through', async () => {
    const failures: string[] = [];
    let cells = 0;
    for (const op of adminOperations(doc)) {
      const url = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => PARAM_VALUES[name] ?? 'matrix-probe');
      for (const caller of CALLERS) {
        let req = request(gw.url)[op.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](url);
        if (caller !== 'none') req = req.set('Authorization', `Bearer ${TOKENS[caller]}`);
        // No If-Match and an empty body: writes that get through stop at 428/400/422 and change nothing.
        const res = op.method === 'GET' ? await req : await req.send({});
        cells++;
        const expected = caller === 'none' ? 401 : RANK[caller] < RANK[op.enforced] ? 403 : 'allowed';
        const ok =
          expected === 'allowed'
            ? res.status !== 401 && res.status !== 403
            : res.status === expected && (expected === 401 || String(res.body.detail).includes(`requires the "${op.enforced}" role`));
        if (!ok) failures.push(`${op.method} ${op.path} as ${caller}: expected ${expected}, got ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    expect(cells).toBe(adminOperations(doc).length * CALLERS.length);
    expect(failures).toEqual([]);
  });
});
