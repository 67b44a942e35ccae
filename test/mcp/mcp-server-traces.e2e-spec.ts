import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { OtlpReceiver, SPAN_KIND } from '../support/otlp-receiver';

/** With tracing on, every request to /mcp has its server span, continuing the client's trace, and the run is its child. */
const KEY = 'mcp-traced-0123456789abcdef';
const TRACE = '5cf92f3577b34da6a3ce929d0e0e4737';
const CALLER_SPAN = '10f067aa0ba902b8';

describe('MCP server traces (e2e)', () => {
  const saved = { ...process.env };
  let receiver: OtlpReceiver;
  let gw: TestGateway;

  beforeAll(async () => {
    receiver = await new OtlpReceiver().start();
    process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = receiver.tracesUrl;
    process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL = 'http/json';
    process.env.OTEL_BSP_SCHEDULE_DELAY = '50';
    gw = await startTestGateway(
      `{
        gateway: {
          telemetry: { enabled: true, serviceName: "gw-mcp", sampleRatio: 1 },
          http: { endpoints: { mcp: { enabled: true, keys: [{ name: "traced", token: "\${KEY}", agents: ["main"] }] } } },
        },
        agents: { list: [{ id: "main" }] },
      }`,
      { env: { KEY } },
    );
  }, 60_000);
  afterAll(async () => {
    await gw?.stop();
    await receiver?.close();
    process.env = saved;
  });

  it('names the server span POST /mcp, continues the traceparent, and the run of ask_main is its child', async () => {
    const client = new Client({ name: 'traced', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${KEY}`, traceparent: `00-${TRACE}-${CALLER_SPAN}-01` } },
      }),
    );
    const result = await client.callTool({ name: 'ask_main', arguments: { message: 'traced hello' } });
    expect(result.content).toEqual([{ type: 'text', text: '[main] traced hello' }]);
    await client.close();
    const inTrace = () => receiver.spans.filter((s) => s.traceId === TRACE);
    const run = await waitFor('the run span', async () => inTrace().find((s) => s.name === 'clawgate.run'));
    const parent = inTrace().find((s) => s.spanId === run.parentSpanId);
    expect(parent).toMatchObject({ name: 'POST /mcp', kind: SPAN_KIND.server, parentSpanId: CALLER_SPAN });
    expect(JSON.stringify(receiver.spans)).not.toContain(KEY);
    expect(JSON.stringify(receiver.spans)).not.toContain('traced hello');
  });
});
