import { ConfigIssue, toDottedPath } from '../pipeline/config-issue';

/**
 * One warning per section for the recognised OpenClaw settings a load set aside: the settings inside a
 * section (`gateway.controlUi`, `agents.list[0].subagents`) under that section's path, whole top-level
 * sections (`meta`, `plugins`) together under the root. Each names its settings and how many there are,
 * so a real OpenClaw file gives a handful of lines, not one per key.
 */
export function unsupportedSettingWarnings(paths: ReadonlyArray<ReadonlyArray<string | number>>): ConfigIssue[] {
  const bySection = new Map<string, string[]>();
  for (const path of paths) {
    const section = path.length > 1 ? String(path[0]) : '';
    const list = bySection.get(section) ?? [];
    list.push(toDottedPath(path));
    bySection.set(section, list);
  }
  const sections = [...bySection.keys()].sort((a, b) => (a === '' ? -1 : b === '' ? 1 : 0));
  return sections.map((section) => ({ path: section === '' ? '' : toDottedPath([section]), message: describe(bySection.get(section)!) }));
}

function describe(settings: string[]): string {
  if (settings.length === 1) return `recognised OpenClaw setting, not supported by clawgate: ${settings[0]}`;
  return `recognised OpenClaw settings, not supported by clawgate (${settings.length}): ${settings.join(', ')}`;
}
