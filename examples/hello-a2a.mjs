// An A2A v1.0 client (@a2a-js/sdk) says "hello" to the `npm start` demo as its peer `demo` and prints the reply.
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { Role } from '@a2a-js/sdk';

const url = process.env.CLAWGATE_URL ?? 'http://127.0.0.1:18789';
const token = process.env.CLAWGATE_DEMO_PEER_TOKEN ?? 'demo-peer-token';
const fetchImpl = (input, init = {}) => fetch(input, { ...init, headers: { ...init.headers, Authorization: `Bearer ${token}` } });
const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl })] });
const client = await new ClientFactory(options).createFromUrl(url); // reads /.well-known/agent-card.json
const parts = [{ content: { $case: 'text', value: 'hello' } }];
const task = await client.sendMessage({ message: { messageId: crypto.randomUUID(), role: Role.ROLE_USER, parts } });
console.log(task.artifacts.flatMap((a) => a.parts.map((p) => p.content.value)).join('')); // [main] hello
