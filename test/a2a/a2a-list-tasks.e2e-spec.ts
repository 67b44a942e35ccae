import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * ListTasks (and its 0.3 name tasks/list) as a peer uses it: its own tasks only, newest status first, cursor
 * pages that end with nextPageToken "", the specification's filters, artifacts only when asked for, and a
 * -32602 for every bad parameter.
 */
const HERMES = 'hermes-token-0123456789abcdef';
const IRIS = 'iris-token-fedcba9876543210';

interface WireTask {
  id: string;
  contextId: string;
  status: { state: string; timestamp: string };
  artifacts?: Array<{ parts: Array<{ text: string }> }>;
}

describe('A2A ListTasks (e2e)', () => {
  let gw: TestGateway;
  const rpc = (token: string, method: string, params: unknown) => a2aRpc(gw.url, token, method, params);
  const send = async (token: string, text: string, contextId?: string): Promise<WireTask> =>
    ((await rpc(token, 'SendMessage', userMessage(text, contextId))).result as { task: WireTask }).task;
  const sent: WireTask[] = [];

  beforeAll(async () => {
    gw = await startTestGateway(`{
      agents: { list: [{ id: "main", default: true }] },
      channels: { a2a: { enabled: true, peers: { hermes: { token: "${HERMES}" }, iris: { token: "${IRIS}" } } } },
    }`);
    for (let i = 0; i < 7; i++) sent.push(await send(HERMES, `hermes ${i}`, i % 2 ? 'ctx-odd' : undefined));
    await send(IRIS, 'iris 0');
    // A slash command is REJECTED: a second state to filter on.
    sent.push(await send(HERMES, '/reset'));
  });
  afterAll(() => gw?.stop());

  it("pages through the peer's own tasks, newest status first, and ends with an empty nextPageToken", async () => {
    const seen: WireTask[] = [];
    let pageToken = '';
    let pages = 0;
    do {
      const { result } = await rpc(HERMES, 'ListTasks', { pageSize: 3, ...(pageToken ? { pageToken } : {}) });
      const page = result as { tasks: WireTask[]; nextPageToken: string; pageSize: number; totalSize: number };
      expect(page).toMatchObject({ pageSize: 3, totalSize: 8 });
      seen.push(...page.tasks);
      pageToken = page.nextPageToken;
      pages++;
    } while (pageToken);
    expect(pages).toBe(3);
    expect(seen.map((t) => t.id).sort()).toEqual(sent.map((t) => t.id).sort());
    const times = seen.map((t) => Date.parse(t.status.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // Artifacts are left out entirely unless asked for.
    expect(seen.every((t) => !('artifacts' in t))).toBe(true);
  });

  it('filters by contextId, status and statusTimestampAfter, and includes artifacts on request (0.3 name too)', async () => {
    const odd = (await rpc(HERMES, 'ListTasks', { contextId: 'ctx-odd' })).result as { tasks: WireTask[]; totalSize: number };
    expect(odd.totalSize).toBe(3);
    expect(odd.tasks.every((t) => t.contextId === 'ctx-odd')).toBe(true);
    const rejected = (await rpc(HERMES, 'tasks/list', { status: 'TASK_STATE_REJECTED' })).result as { tasks: WireTask[] };
    expect(rejected.tasks.map((t) => t.id)).toEqual([sent[7].id]);
    const future = (await rpc(HERMES, 'ListTasks', { statusTimestampAfter: '2999-01-01T00:00:00Z' })).result as { tasks: WireTask[] };
    expect(future.tasks).toEqual([]);
    const withArtifacts = (await rpc(HERMES, 'ListTasks', { status: 'TASK_STATE_COMPLETED', pageSize: 1, includeArtifacts: true }))
      .result as { tasks: WireTask[] };
    expect(withArtifacts.tasks[0].artifacts?.[0].parts[0].text).toMatch(/^\[main\] hermes /);
    // Another peer sees only its own.
    const iris = (await rpc(IRIS, 'ListTasks', {})).result as { tasks: WireTask[]; nextPageToken: string };
    expect(iris.tasks).toHaveLength(1);
    expect(iris.nextPageToken).toBe('');
  });

  it.each([
    [{ pageSize: 0 }, 'pageSize'],
    [{ pageSize: 101 }, 'pageSize'],
    [{ pageSize: 2.5 }, 'pageSize'],
    [{ pageToken: 'not-a-token' }, 'pageToken'],
    [{ pageToken: 7 }, 'pageToken'],
    [{ status: 'DONE' }, 'status'],
    [{ contextId: 'a b' }, 'contextId'],
    [{ historyLength: -1 }, 'historyLength'],
    [{ statusTimestampAfter: 'yesterday' }, 'statusTimestampAfter'],
    [{ includeArtifacts: 'yes' }, 'includeArtifacts'],
    [[1], 'params'],
  ])('refuses %j with -32602 naming %s', async (params, field) => {
    const { error } = await rpc(HERMES, 'ListTasks', params);
    expect(error?.code).toBe(-32602);
    expect(error?.message).toContain(field);
  });
});
