import { plainToInstance, Transform, TransformFnParams, Type } from 'class-transformer';
import { IsArray, IsObject, registerDecorator, ValidateNested, ValidationArguments, ValidationOptions } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { parseCidr } from '../../../common/net/cidr';
import { hasUrlCredentials } from '../../../common/net/url-credentials';
import { parseRedisUrl } from '../../../common/net/redis-url';
import { urlPatternProblem } from '../../../common/net/url-patterns';
import { isRecord } from '../../../common/is-record';
import { suggestClosest } from '../../../common/text/did-you-mean';
import { BIND_MODES, isBindValue } from '../normalize/gateway-bind';

/**
 * Decorators shared by the config schema classes. They exist so each class states its rules once and the
 * same metadata drives both runtime validation and the exported JSON Schema.
 */

/** CIDR parsing lives in common/net (the trusted-proxy matcher uses it too); re-exported for schema callers. */
export { parseCidr };

/**
 * How a check of each entry of a list says which entries it refuses. Its message names them, and values are
 * shown only through the config's quoter (a value from `${VAR}` is named by its variable,
 * pipeline/config-value-quoter.ts), which needs each entry's path; class-validator's messages know no path.
 * So such a check puts a `QuotedMessage` in its validation context under this key, and validation builds
 * the message with `quote(index)` for each entry it shows.
 */
export const QUOTED_MESSAGE = 'quotedMessage';
export type QuotedMessage = (value: unknown, quote: (index: number) => string) => string;

/** The message of a per-entry check: the refused entries of `value`, each quoted, put into `describe`. */
export function refusedEntries(isRefused: (entry: unknown) => boolean, describe: (quoted: string) => string): QuotedMessage {
  return (value, quote) => {
    const list = Array.isArray(value) ? (value as unknown[]) : [];
    return describe(list.flatMap((entry, i) => (isRefused(entry) ? [quote(i)] : [])).join(', '));
  };
}

/** Marks a config object as closed: unknown keys are rejected at runtime and in the JSON Schema. */
export function StrictObject(description?: string): ClassDecorator {
  return JSONSchema({ additionalProperties: false, ...(description ? { description } : {}) });
}

/** Documents a property in the JSON Schema (editors show it on hover). */
export function Describe(description: string, extra: Record<string, unknown> = {}): PropertyDecorator {
  return (target, key) => addToSchema(target, key, { description, ...extra });
}

/** A value CONFIG_DEFAULTS can hold: a primitive, a list of strings, or an empty list or map. */
export type ConfigDefaultValue = string | number | boolean | readonly string[] | readonly [] | Readonly<Record<string, never>>;

/**
 * The JSON Schema `default` of a property: the value the gateway uses when the key is absent. Pass it from
 * CONFIG_DEFAULTS (never a literal), so what editors show is what normalization fills in.
 */
export function Default(value: ConfigDefaultValue): PropertyDecorator {
  // A copy: the schema generator and its callers may change the nodes they get, the defaults are frozen.
  return (target, key) => addToSchema(target, key, { default: structuredClone(value) });
}

/**
 * JSONSchema() keeps one schema object per property, so a second call would silently replace the first
 * (a description lost under a type). Every decorator here adds its part through this merge instead.
 */
const propertySchemas = new WeakMap<object, Map<string | symbol, Record<string, unknown>>>();
function addToSchema(target: object, key: string | symbol, part: Record<string, unknown>): void {
  const byKey = propertySchemas.get(target) ?? new Map<string | symbol, Record<string, unknown>>();
  propertySchemas.set(target, byKey);
  const merged = { ...(byKey.get(key) ?? {}), ...part };
  byKey.set(key, merged);
  JSONSchema(merged)(target, key as string);
}

type SchemaClass = new () => object;

/** How a property nests schema objects: one, an array of them, or a map of them. */
export interface NestedShape {
  kind: 'object' | 'array' | 'map';
  cls: () => SchemaClass;
}

/**
 * The nested properties of each schema class, recorded by the decorators below. ValidateNested lets an
 * array through wherever an object belongs (it validates the array's elements instead), so validation
 * walks these to catch `sessions: [{ ... }]` or `list: [[ ... ]]` before that array reaches normalization.
 */
const nestedShapes = new Map<object, Map<string, NestedShape>>();

function recordShape(target: object, key: string | symbol, shape: NestedShape): void {
  const byKey = nestedShapes.get(target.constructor) ?? new Map<string, NestedShape>();
  nestedShapes.set(target.constructor, byKey);
  byKey.set(String(key), shape);
}

/** The nested properties of `cls`, its base classes' included. */
export function nestedShapesOf(cls: SchemaClass): ReadonlyMap<string, NestedShape> {
  const out = new Map<string, NestedShape>();
  for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    for (const [key, shape] of nestedShapes.get(c) ?? []) if (!out.has(key)) out.set(key, shape);
  }
  return out;
}

/** A nested config object of the given class. */
export function NestedObject(cls: () => new () => object): PropertyDecorator {
  return (target, key) => {
    ValidateNested()(target, key);
    Type(cls)(target, key);
    recordShape(target, key, { kind: 'object', cls });
  };
}

/**
 * An array of nested config objects of the given class. IsArray matters: without it an object given where
 * the array belongs passes validation (ValidateNested walks its values) and breaks normalization later.
 */
export function NestedArray(cls: () => new () => object): PropertyDecorator {
  return (target, key) => {
    IsArray()(target, key);
    ValidateNested({ each: true })(target, key);
    Type(cls)(target, key);
    recordShape(target, key, { kind: 'array', cls });
  };
}

/**
 * A map `{ <name>: Entry }`. Declared as `Map<string, Entry>` on the class so class-transformer builds
 * entry instances (a plain Record would not be validated). `keyPattern` restricts the names.
 */
export function NestedMap(cls: () => new () => object, refName: string, keyPattern?: RegExp, description?: string): PropertyDecorator {
  return (target, key) => {
    ValidateNested({ each: true })(target, key);
    Type(cls)(target, key);
    // class-transformer skips every name the Map class has a member of (`get`, `keys`, `size`, ...), so an
    // entry with such a name would vanish; the map is built here from the document, every name as written.
    Transform(({ value, obj }: TransformFnParams) => entryMap(cls(), (obj as Record<string | symbol, unknown>)[key], value), {
      toClassOnly: true,
    })(target, key);
    recordShape(target, key, { kind: 'map', cls });
    if (keyPattern) MapKeysMatch(keyPattern)(target, key);
    addToSchema(target, key, {
      type: 'object',
      additionalProperties: { $ref: `#/definitions/${refName}` },
      ...(keyPattern ? { propertyNames: { pattern: keyPattern.source } } : {}),
      ...(description ? { description } : {}),
    });
  };
}

/** A map `{ <name>: string }` (headers, role mappings). */
export function StringMap(valuePattern?: { enum: readonly string[] }, description?: string): PropertyDecorator {
  return (target, key) => {
    IsObject()(target, key);
    registerDecorator({
      name: 'stringMap',
      target: target.constructor,
      propertyName: key as string,
      validator: {
        validate: (value: unknown) =>
          isPlainRecord(value) &&
          Object.values(value).every((v) => typeof v === 'string' && (!valuePattern || valuePattern.enum.includes(v))),
        defaultMessage: (args: ValidationArguments) => {
          const bad = isPlainRecord(args.value)
            ? Object.keys(args.value).filter((k) => {
                const v = (args.value as Record<string, unknown>)[k];
                return typeof v !== 'string' || (valuePattern && !valuePattern.enum.includes(v));
              })
            : [];
          const names = bad.length ? ` (check ${bad.map((b) => JSON.stringify(b)).join(', ')})` : '';
          return valuePattern ? `must map names to one of: ${valuePattern.enum.join(', ')}${names}` : `must map names to strings${names}`;
        },
      },
    });
    addToSchema(target, key, {
      type: 'object',
      additionalProperties: valuePattern ? { type: 'string', enum: [...valuePattern.enum] } : { type: 'string' },
      ...(description ? { description } : {}),
    });
  };
}

/** The entries of a map as schema instances; anything but an object is left as class-transformer made it, for the validators. */
function entryMap(cls: new () => object, raw: unknown, transformed: unknown): unknown {
  if (!isPlainRecord(raw)) return transformed;
  return new Map(Object.entries(raw).map(([name, entry]) => [name, plainToInstance(cls, entry) as unknown]));
}

function MapKeysMatch(pattern: RegExp, options?: ValidationOptions): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'mapKeysMatch',
      target: target.constructor,
      propertyName: key as string,
      options,
      validator: {
        validate: (value: unknown) => !(value instanceof Map) || [...(value as Map<string, unknown>).keys()].every((k) => pattern.test(k)),
        defaultMessage: (args: ValidationArguments) => {
          const bad = [...(args.value as Map<string, unknown>).keys()].filter((k) => !pattern.test(k));
          return `invalid name ${bad.map((b) => JSON.stringify(b)).join(', ')}: names must match ${pattern.source}`;
        },
      },
    });
}

/**
 * An http(s) URL without credentials in it (`http://user:password@host`). A URL is shown as configuration
 * (`GET /admin/config`, the last-good copy, logs), not as a secret, so a password inside it would leak
 * everywhere; `hint` names the field the credential belongs in instead.
 */
export function NoUrlCredentials(hint: string): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'noUrlCredentials',
      target: target.constructor,
      propertyName: key as string,
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || !hasUrlCredentials(value),
        defaultMessage: () => `must not contain credentials (user:password@); ${hint}`,
      },
    });
}

/** `gateway.bind`: one of OpenClaw's bind modes or an IP address; a near miss of a mode gets a did-you-mean. */
export function IsBind(): PropertyDecorator {
  return (target, key) => {
    registerDecorator({
      name: 'isBind',
      target: target.constructor,
      propertyName: key as string,
      validator: {
        validate: (value: unknown) => isBindValue(value),
        defaultMessage: (args: ValidationArguments) => {
          const hint = typeof args.value === 'string' ? suggestClosest(args.value, BIND_MODES) : undefined;
          return `must be ${BIND_MODES.join(', ')} or an IP address${hint ? ` (did you mean "${hint}"?)` : ''}`;
        },
      },
    });
    addToSchema(target, key, { type: 'string', anyOf: [{ enum: [...BIND_MODES] }, { format: 'ipv4' }, { format: 'ipv6' }] });
  };
}

/** A `redis://` or `rediss://` URL (src/common/net/redis-url.ts); the message says what is wrong with it. */
export function IsRedisUrl(): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'isRedisUrl',
      target: target.constructor,
      propertyName: key as string,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && !('problem' in parseRedisUrl(value)),
        defaultMessage: (args: ValidationArguments) => {
          if (typeof args.value !== 'string') return 'must be a string such as "redis://127.0.0.1:6379"';
          const parsed = parseRedisUrl(args.value);
          return 'problem' in parsed ? parsed.problem : 'must be a redis:// or rediss:// URL';
        },
      },
    });
}

/** Each entry an http(s) URL pattern with `*` wildcards (src/common/net/url-patterns.ts); the message names the bad ones. */
export function IsUrlPatternList(): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'isUrlPatternList',
      target: target.constructor,
      propertyName: key as string,
      options: { context: { [QUOTED_MESSAGE]: urlPatternsMessage } },
      validator: {
        validate: (value: unknown) => Array.isArray(value) && value.every((p) => urlPatternProblem(p) === undefined),
        defaultMessage: () => URL_PATTERN_LIST,
      },
    });
}

const URL_PATTERN_LIST = 'must be a list of URL patterns such as "https://hooks.example.com/a2a/*"';

const urlPatternsMessage: QuotedMessage = (value, quote) => {
  if (!Array.isArray(value)) return URL_PATTERN_LIST;
  const problems = (value as unknown[]).flatMap((entry, i) => {
    const problem = urlPatternProblem(entry);
    return problem === undefined ? [] : [`${quote(i)} ${problem}`];
  });
  return `each entry must be an http(s) URL pattern such as "https://hooks.example.com/a2a/*": ${problems.join('; ')}`;
};

/** An IPv4/IPv6 address or CIDR block, e.g. `10.0.0.0/8`, `::1`, `fd00::/8`. */
export function IsCidr(options?: ValidationOptions): PropertyDecorator {
  return (target, key) => {
    registerDecorator({
      name: 'isCidr',
      target: target.constructor,
      propertyName: key as string,
      options: { ...options, context: { [QUOTED_MESSAGE]: cidrMessage } },
      validator: {
        validate: (value: unknown) => !Array.isArray(value) || value.every(isCidrText),
        defaultMessage: () => `each entry must be ${CIDR_EXAMPLE}`,
      },
    });
    addToSchema(target, key, { type: 'array', items: { type: 'string', description: 'IP address or CIDR block' } });
  };
}

const CIDR_EXAMPLE = 'an IP address or CIDR block (e.g. 10.0.0.0/8, ::1)';
const cidrMessage = refusedEntries((entry) => !isCidrText(entry), (quoted) => `${quoted}: not ${CIDR_EXAMPLE}`);

function isCidrText(value: unknown): boolean {
  return typeof value === 'string' && parseCidr(value) !== null;
}

export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && !(value instanceof Map);
}
