import type { ChannelSetupField, EditPlan } from '../modules/config';
import { isPlainObject } from '../common/is-record';

/** What `channels add <id> …` understood: the values by field key (a secret as its `${VAR}` reference). */
export interface SetupValues {
  values: Array<{ field: ChannelSetupField; value: string }>;
  /** Read from stdin: which flag wants it. */
  stdinFlag?: string;
}

/**
 * Reads `--<flag> value`, and for a sensitive field only `--<flag>-env NAME` (written as `${NAME}`) or
 * `--<flag>-stdin`: a secret is never taken from the command line, where it would sit in the shell's history and
 * the process list. Returns what is wrong as a message naming the flag.
 */
export function parseSetupArgs(fields: readonly ChannelSetupField[], args: readonly string[]): SetupValues | { error: string } {
  const values: SetupValues['values'] = [];
  let stdinFlag: string | undefined;
  const flags = fields.flatMap((f) => (f.sensitive ? [`--${f.flag}-env`, `--${f.flag}-stdin`] : [`--${f.flag}`]));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const take = (): string | undefined => inline ?? args[++i];
    const plain = fields.find((f) => name === `--${f.flag}`);
    if (plain?.sensitive) {
      return { error: `${name} is a secret: give --${plain.flag}-env <VARIABLE> (written as \${VARIABLE}) or --${plain.flag}-stdin` };
    }
    const env = fields.find((f) => f.sensitive && name === `--${f.flag}-env`);
    const stdin = fields.find((f) => f.sensitive && name === `--${f.flag}-stdin`);
    const field = plain ?? env ?? stdin;
    if (!field) return { error: `unknown option ${name}; this channel's setup takes ${flags.join(', ') || 'no options'}` };
    if (values.some((v) => v.field === field)) return { error: `${name} is given twice` };
    if (stdin) {
      stdinFlag = name;
      values.push({ field, value: '' });
      continue;
    }
    const value = take();
    if (value === undefined || value === '' || (inline === undefined && value.startsWith('--'))) return { error: `${name} needs a value` };
    if (env) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) return { error: `${name}: "${value}" is not an environment variable name` };
      values.push({ field, value: `\${${value}}` });
    } else values.push({ field, value });
  }
  const missing = fields.find((f) => f.required && !values.some((v) => v.field === f));
  if (missing) return { error: `--${missing.flag}${missing.sensitive ? '-env' : ''} is required` };
  return { values, ...(stdinFlag ? { stdinFlag } : {}) };
}

/**
 * The keys to write below `channels.<id>`: a field whose key ends in `.*` names the entry the `*` of the others stand
 * for; `enabled: true` unless set otherwise. A string: what is wrong.
 */
export function setupPatch(values: SetupValues['values']): Record<string, unknown> | string {
  const namer = values.find((v) => v.field.key.endsWith('.*'));
  const patch: Record<string, unknown> = { enabled: true };
  for (const { field, value } of values) {
    if (field === namer?.field) continue;
    let key = field.key;
    if (key.includes('*')) {
      if (!namer) return `--${field.flag} needs the entry it belongs to`;
      key = key.replace('*', namer.value);
    }
    setPath(patch, key.split('.'), value);
  }
  if (namer && !values.some((v) => v !== namer && v.field.key.includes('*')))
    setPath(patch, namer.field.key.replace('*', namer.value).split('.'), {});
  return patch;
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (!isPlainObject(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
}

/** Merges `patch` into `channels.<id>` of the file: only the keys given change; comments and other keys stay. */
export function planChannelSetup(id: string, patch: Record<string, unknown>): EditPlan {
  return (root) => mergeOps(root, [], { channels: { [id]: patch } });
}

function mergeOps(node: unknown, at: string[], patch: Record<string, unknown>): Array<{ op: 'set'; path: string[]; value: unknown }> {
  const ops: Array<{ op: 'set'; path: string[]; value: unknown }> = [];
  for (const [key, value] of Object.entries(patch)) {
    const current = isPlainObject(node) ? node[key] : undefined;
    if (isPlainObject(current) && isPlainObject(value)) ops.push(...mergeOps(current, [...at, key], value));
    else ops.push({ op: 'set', path: [...at, key], value });
  }
  return ops;
}
