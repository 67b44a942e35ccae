import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue, type Registry } from 'prom-client';
import { BUILT_IN_TOOL_NAMES } from '../../common/built-in-tools';
import { OTHER } from './bound-series';

/** The label values an anonymous scrape may see, per label that names something the operator configured. */
export interface PublicNames {
  /** The agents the public Agent Card lists (none while the A2A channel is off: then there is no card). */
  agents: ReadonlySet<string>;
}

type Metric = MetricObjectWithValues<MetricValue<string>>;

/**
 * Labels whose values are names from the config, and which of them the public Agent Card shows. Peers (inbound and
 * outbound A2A peers, the OpenAI-compatible endpoint's key names) and model provider keys never appear on it.
 */
const NAMING_LABELS: Record<string, (value: string, names: PublicNames) => boolean> = {
  agent: (value, names) => names.agents.has(value),
  peer: () => false,
  provider: () => false,
  plugin: () => false,
  // MCP servers and their tools are the operator's; the built-in tool names are the gateway's own.
  server: () => false,
  tool: (value) => (BUILT_IN_TOOL_NAMES as readonly string[]).includes(value),
};

/**
 * The Prometheus text of `registry` as an anonymous caller may read it (docs/operations.md#who-may-scrape): every
 * series, but a name the public Agent Card does not show becomes `other` — and the series that then share their
 * labels are added up (a gauge by its own aggregator: the memory lag takes the largest), as prom-client adds up the
 * series of cluster workers. Series without such a label pass through unchanged.
 */
export async function publicMetricsText(registry: Registry, names: PublicNames): Promise<string> {
  const metrics = (await registry.getMetricsAsJSON()).map((metric) => withPublicNames(metric, names));
  return AggregatorRegistry.aggregate([metrics]).metrics();
}

function withPublicNames(metric: Metric, names: PublicNames): Metric {
  let named = false;
  const values = metric.values.map((value) => {
    let labels = value.labels;
    for (const [label, isPublic] of Object.entries(NAMING_LABELS)) {
      const name = labels[label];
      if (name === undefined) continue;
      named = true;
      if (name !== OTHER && !isPublic(String(name), names)) labels = { ...labels, [label]: OTHER };
    }
    return labels === value.labels ? value : { ...value, labels };
  });
  // Without a naming label no two series merge: 'first' keeps each as it is (a default metric's own aggregator may be
  // 'omit', meant for cluster workers, which would drop it here).
  return { ...metric, values, aggregator: named ? metric.aggregator : 'first' };
}
