import request from 'supertest';

/** A JSON-RPC answer of POST /a2a/v1 (result typed loosely: each test reads the shape it asserts). */
export interface A2aAnswer {
  result?: any;
  error?: { code: number; message: string; data?: unknown[] };
}

/** One JSON-RPC call to a gateway's A2A endpoint as peer `token`; the HTTP status must be 200. */
export async function a2aRpc(gatewayUrl: string, token: string, method: string, params: unknown): Promise<A2aAnswer> {
  const res = await request(gatewayUrl)
    .post('/a2a/v1')
    .set('Authorization', `Bearer ${token}`)
    .send({ jsonrpc: '2.0', id: 1, method, params })
    .expect(200);
  return res.body as A2aAnswer;
}

/** SendMessage params for a user text message (`contextId` when given). */
export function userMessage(text: string, contextId?: string): { message: Record<string, unknown> } {
  return { message: { messageId: `m-${text}`, role: 'ROLE_USER', parts: [{ text }], ...(contextId ? { contextId } : {}) } };
}
