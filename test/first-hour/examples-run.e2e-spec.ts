import { listExamples, runStep } from '../support/example-steps';
import { startExample } from '../support/example-gateways';

/**
 * Each example run as its README says: its gateway(s) booted on its own config with the README's exports
 * (real HTTP, real temp state dirs, the offline echo model and bundled embeddings), then every request of its
 * requests.json — the ones the README shows as curl commands (test/first-hour/examples.e2e-spec.ts checks that) — in
 * order, each answer checked against what the README says it prints.
 */

describe.each(listExamples().map((e) => [e.name, e] as const))('examples/%s, as its README runs it', (_name, example) => {
  it('answers every request as the README says', async () => {
    const running = await startExample(example);
    try {
      for (const step of example.requests.steps) {
        const gatewayName = step.gateway ?? example.requests.gateways[0].name;
        await runStep(running.gateways.get(gatewayName)!.url, example.requests.env, step);
      }
    } finally {
      await running.stop();
    }
  }, 90_000);
});
