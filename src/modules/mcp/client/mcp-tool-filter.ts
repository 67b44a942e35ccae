import type { McpServerSettings } from '../../config';

/** Whether `toolFilter` keeps a tool of the server: on `include` (when set) and not on `exclude`; `*` globs. */
export function keptByFilter(filter: McpServerSettings['toolFilter'], tool: string): boolean {
  const matches = (pattern: string) => globRegExp(pattern).test(tool);
  if (filter.exclude.some(matches)) return false;
  return filter.include === undefined || filter.include.some(matches);
}

function globRegExp(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}
