import { A2A_METHODS } from '../../../../common/a2a-protocol';
import { resolveA2aMethod } from '../../protocol/methods';
import { restCallParams } from './rest-params';
import { matchRestRoute, REST_ROUTES, RestMatch } from './rest-routes';

const routeOf = (method: string, path: string) => {
  const match: RestMatch = matchRestRoute(method, path);
  if (match.kind !== 'route') throw new Error(`${method} ${path}: ${match.kind}`);
  return { a2aMethod: match.route.a2aMethod, vars: match.vars, route: match.route };
};

describe('HTTP+JSON routes', () => {
  it.each<[string, string, string, Record<string, string>]>([
    ['POST', '/message:send', A2A_METHODS.sendMessage, {}],
    ['POST', '/message:stream', 'SendStreamingMessage', {}],
    ['GET', '/tasks/t-1', A2A_METHODS.getTask, { id: 't-1' }],
    ['GET', '/tasks', A2A_METHODS.listTasks, {}],
    ['GET', '/tasks/', A2A_METHODS.listTasks, {}],
    ['POST', '/tasks/t-1:cancel', A2A_METHODS.cancelTask, { id: 't-1' }],
    ['GET', '/tasks/t-1:subscribe', 'SubscribeToTask', { id: 't-1' }],
    ['POST', '/tasks/t-1:subscribe', 'SubscribeToTask', { id: 't-1' }],
    ['POST', '/tasks/t-1/pushNotificationConfigs', 'CreateTaskPushNotificationConfig', { taskId: 't-1' }],
    ['GET', '/tasks/t-1/pushNotificationConfigs', 'ListTaskPushNotificationConfigs', { taskId: 't-1' }],
    ['GET', '/tasks/t-1/pushNotificationConfigs/c-1', 'GetTaskPushNotificationConfig', { taskId: 't-1', id: 'c-1' }],
    ['DELETE', '/tasks/t-1/pushNotificationConfigs/c-1', 'DeleteTaskPushNotificationConfig', { taskId: 't-1', id: 'c-1' }],
    ['GET', '/extendedAgentCard', A2A_METHODS.getExtendedAgentCard, {}],
  ])('%s %s is %s', (method, path, a2aMethod, vars) => {
    expect(routeOf(method, path)).toMatchObject({ a2aMethod, vars });
  });

  it('matches the /{tenant} form of every route after the plain one', () => {
    expect(routeOf('POST', '/acme/message:send')).toMatchObject({ a2aMethod: A2A_METHODS.sendMessage, vars: { tenant: 'acme' } });
    expect(routeOf('GET', '/acme/tasks/t-1')).toMatchObject({ a2aMethod: A2A_METHODS.getTask, vars: { tenant: 'acme', id: 't-1' } });
    expect(routeOf('GET', '/acme/tasks')).toMatchObject({ a2aMethod: A2A_METHODS.listTasks, vars: { tenant: 'acme' } });
    // Ambiguous: the plain template wins, so this is the task "tasks", not the list of tenant "tasks".
    expect(routeOf('GET', '/tasks/tasks')).toMatchObject({ a2aMethod: A2A_METHODS.getTask, vars: { id: 'tasks' } });
  });

  it('decodes path variables; an encoded ":" is part of the id, a literal one starts the verb', () => {
    expect(routeOf('GET', '/tasks/a%3Ab%20c').vars).toEqual({ id: 'a:b c' });
    expect(routeOf('POST', '/tasks/a%3Acancel:cancel').vars).toEqual({ id: 'a:cancel' });
    expect(matchRestRoute('GET', '/tasks/a:b')).toEqual({ kind: 'not-found' });
    expect(matchRestRoute('GET', '/tasks/%E0%A4%A')).toEqual({ kind: 'bad-encoding' });
  });

  it('tells a wrong HTTP method (405 with the allowed ones) from a path that is no operation (404)', () => {
    expect(matchRestRoute('DELETE', '/tasks/t-1')).toEqual({ kind: 'method-not-allowed', allow: ['GET'] });
    expect(matchRestRoute('GET', '/message:send')).toEqual({ kind: 'method-not-allowed', allow: ['POST'] });
    expect(matchRestRoute('PUT', '/tasks/t-1/pushNotificationConfigs/c')).toEqual({ kind: 'method-not-allowed', allow: ['GET', 'DELETE'] });
    expect(matchRestRoute('HEAD', '/tasks')).toEqual({ kind: 'method-not-allowed', allow: ['GET'] });
    for (const path of ['/', '/message', '/message:frobnicate', '/tasks//x', '/tasks/t-1:', '/a/b/c/d/e/f', '/Tasks']) {
      expect(matchRestRoute('GET', path)).toEqual({ kind: 'not-found' });
    }
  });

  it('routes every A2A 1.0 method this gateway implements', () => {
    const routed = new Set(REST_ROUTES.map((r) => r.a2aMethod));
    for (const name of Object.values(A2A_METHODS)) {
      expect(resolveA2aMethod(name)).toBeDefined();
      expect(routed).toContain(name);
    }
  });

  it('routes the push-notification config methods, so each answers as it does over JSON-RPC', () => {
    const push = [
      'CreateTaskPushNotificationConfig',
      'GetTaskPushNotificationConfig',
      'ListTaskPushNotificationConfigs',
      'DeleteTaskPushNotificationConfig',
    ];
    const routed = new Set(REST_ROUTES.map((r) => r.a2aMethod));
    for (const name of push) {
      expect(resolveA2aMethod(name)).toBeDefined();
      expect(routed).toContain(name);
    }
  });
});

describe('HTTP+JSON params', () => {
  const params = (method: string, path: string, query: string, body?: unknown) => {
    const { route, vars } = routeOf(method, path);
    return restCallParams(route, vars, query, body);
  };

  it('types query values the way the specification writes them, and leaves ill-typed text for the validator to name', () => {
    expect(params('GET', '/tasks', 'pageSize=2&includeArtifacts=true&status=TASK_STATE_WORKING&contextId=c+1')).toEqual({
      pageSize: 2,
      includeArtifacts: true,
      status: 'TASK_STATE_WORKING',
      contextId: 'c 1',
    });
    expect(params('GET', '/tasks', 'pageSize=two&includeArtifacts=yes&historyLength=1.5')).toEqual({
      pageSize: 'two',
      includeArtifacts: 'yes',
      historyLength: '1.5',
    });
    // Empty is unset; A2A-Version is a service parameter, not a field.
    expect(params('GET', '/tasks/t-1', 'historyLength=&a2a-version=1.0')).toEqual({ id: 't-1' });
    expect(params('GET', '/acme/tasks', 'tenant=acme')).toEqual({ tenant: 'acme' });
  });

  it('takes a query parameter under its proto field name too, and leaves it for the validator to read', () => {
    expect(params('GET', '/tasks/t-1', 'history_length=1')).toEqual({ id: 't-1', history_length: 1 });
    expect(params('GET', '/tasks', 'page_size=2&include_artifacts=true&context_id=c')).toEqual({
      page_size: 2,
      include_artifacts: true,
      context_id: 'c',
    });
    expect(() => params('GET', '/tasks', 'pagesize_=2')).toThrow('unknown query parameter "pagesize_"');
  });

  it('refuses unknown and repeated query parameters, naming them', () => {
    expect(() => params('GET', '/tasks', 'pagesize=2')).toThrow(
      'Invalid params: unknown query parameter "pagesize" for GET /tasks: it takes contextId, status, pageSize, pageToken, historyLength, statusTimestampAfter, includeArtifacts, tenant',
    );
    expect(() => params('POST', '/message:send', 'x=1', {})).toThrow('unknown query parameter "x" for POST /message:send: it takes none');
    expect(() => params('GET', '/tasks', 'pageSize=1&pageSize=2')).toThrow('query parameter pageSize is given more than once');
    expect(() => params('GET', '/tasks', 'constructor=1')).toThrow('unknown query parameter "constructor"');
    expect(() => params('GET', '/extendedAgentCard', 'verbose=1')).toThrow(
      'unknown query parameter "verbose" for GET /extendedAgentCard: it takes none',
    );
    expect(params('GET', '/acme/extendedAgentCard', '')).toEqual({ tenant: 'acme' });
  });

  it('takes the body as the params object, with the path naming the resource', () => {
    expect(params('POST', '/message:send', '', { message: { messageId: 'm' } })).toEqual({ message: { messageId: 'm' } });
    expect(params('POST', '/message:send', '', undefined)).toEqual({});
    expect(params('POST', '/tasks/t-1:cancel', '', { id: 'other', metadata: {} })).toEqual({ id: 't-1', metadata: {} });
    expect(params('POST', '/tasks/t-1:cancel', '', undefined)).toEqual({ id: 't-1' });
    for (const body of ['text', [1], null, 3]) {
      expect(() => params('POST', '/message:send', '', body)).toThrow('Invalid params: the request body must be a JSON object');
    }
  });
});
