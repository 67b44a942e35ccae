import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync, ValidationError } from 'class-validator';
import { OpenClawConfig } from '../schema/openclaw.schema';
import { isPlainRecord } from '../schema/schema-decorators';
import { ConfigIssue, toDottedPath } from './config-issue';
import { arraysWhereObjectsBelong } from './misplaced-arrays';
import { reservedKeyIssues } from './reserved-keys';
import { suggestClosest } from '../../../common/text/did-you-mean';
import { stableJson } from './stable-json';
import { isSecretConfigPath } from '../../../common/secrets/secret-paths';
import { QUOTED_MESSAGE, type QuotedMessage } from '../schema/schema-decorators';
import { ConfigValueQuoter, QUOTE_LITERALLY } from './config-value-quoter';
import { nodeAt } from '../openclaw/openclaw-key-tree';
import { OPENCLAW_KEYS } from '../openclaw/openclaw-keys';

export interface ValidateResult {
  /** The validated document as schema class instances (maps as `Map`); undefined when there are errors. */
  config?: OpenClawConfig;
  errors: ConfigIssue[];
}

/**
 * Strict validation of the whole config surface. Unknown keys anywhere are errors with a "did you mean"
 * hint; every error carries its dotted path. `tolerated` lists paths whose absence is allowed because an
 * earlier step already reported them (a secret whose ${VAR} is unset). Values are shown through `quoter`.
 */
export function validateConfig(
  doc: unknown,
  tolerated: ReadonlySet<string> = new Set(),
  quoter: ConfigValueQuoter = QUOTE_LITERALLY,
): ValidateResult {
  if (!isPlainRecord(doc)) {
    return { errors: [{ path: '', message: 'the config must be a JSON5 object' }] };
  }
  // Reserved names first: the schema classes cannot even be built from a document that has them.
  const reserved = reservedKeyIssues(doc);
  if (reserved.length) return { errors: reserved };
  const shapeErrors = checkContainerShapes(doc);
  if (shapeErrors.length) return { errors: shapeErrors };
  const misplaced = arraysWhereObjectsBelong(doc);
  if (misplaced.length) return { errors: misplaced };

  const instance = new OpenClawConfig();
  const errors: ConfigIssue[] = [];
  for (const key of Object.keys(doc)) {
    const section = validateSection(key, doc[key], quoter);
    errors.push(...section.errors.filter((issue) => !tolerated.has(issue.path)));
    // Only this key: schema class fields exist (as undefined) on every instance and would overwrite others.
    (instance as unknown as Record<string, unknown>)[key] = (section.instance as unknown as Record<string, unknown>)[key];
  }
  return errors.length ? { errors } : { config: instance, errors: [] };
}

interface SectionResult {
  /** An OpenClawConfig holding only this top-level key. */
  instance: OpenClawConfig;
  errors: ConfigIssue[];
}

/**
 * The last result per top-level key, by the section's exact content and the `${VAR}` references its values
 * came from (its messages name those). A typical edit touches one section (an agent, a peer), so a reload of
 * a large config re-validates only that section; results are plain data derived from both, so reuse cannot
 * change an answer.
 */
const sectionCache = new Map<string, { content: string; result: SectionResult }>();

function validateSection(key: string, value: unknown, quoter: ConfigValueQuoter): SectionResult {
  const content = `${stableJson(value)}\n${quoter.fingerprintBelow(toDottedPath([key]))}`;
  const cached = sectionCache.get(key);
  if (cached && cached.content === content) return cached.result;
  const instance = plainToInstance(OpenClawConfig, { [key]: value }, { enableImplicitConversion: false });
  const raw = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: true, value: true },
  });
  const result = { instance, errors: flattenErrors(raw, [], quoter) };
  sectionCache.set(key, { content, result });
  return result;
}

/**
 * class-transformer silently turns a string where a map/array of objects is expected into garbage
 * (a Map of characters, say), so the containers are checked for the right JSON type first.
 */
function checkContainerShapes(doc: Record<string, unknown>): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const expectObject = (path: (string | number)[], value: unknown) => {
    if (value !== undefined && !isPlainRecord(value)) {
      issues.push({ path: toDottedPath(path), message: `must be an object, got ${describeType(value)}` });
      return false;
    }
    return value !== undefined;
  };
  const expectArray = (path: (string | number)[], value: unknown) => {
    if (value !== undefined && !Array.isArray(value)) {
      issues.push({ path: toDottedPath(path), message: `must be an array, got ${describeType(value)}` });
    }
  };
  const get = (obj: unknown, key: string) => (isPlainRecord(obj) ? obj[key] : undefined);

  for (const key of ['gateway', 'agents', 'tools', 'session', 'memory', 'models', 'channels', 'plugins']) {
    expectObject([key], doc[key]);
  }
  expectArray(['bindings'], doc.bindings);
  expectArray(['agents', 'list'], get(doc.agents, 'list'));
  expectObject(['agents', 'entries'], get(doc.agents, 'entries'));
  expectObject(['models', 'providers'], get(doc.models, 'providers'));
  expectObject(['plugins', 'load'], get(doc.plugins, 'load'));
  expectObject(['plugins', 'entries'], get(doc.plugins, 'entries'));
  const a2a = get(doc.channels, 'a2a');
  const http = get(doc.channels, 'http');
  expectObject(['channels', 'a2a', 'peers'], get(a2a, 'peers'));
  expectObject(['channels', 'http', 'accounts'], get(http, 'accounts'));
  return issues;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** Constraints that say the value has the wrong type; when one fails, range/format messages are noise. */
const TYPE_CONSTRAINTS = new Set(['isInt', 'isNumber', 'isString', 'isBoolean', 'isArray', 'isObject', 'isIn', 'isUrl', 'isIp', 'nestedValidation']);

function flattenErrors(errors: ValidationError[], parent: (string | number)[], quoter: ConfigValueQuoter): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const error of errors) {
    const segment = Array.isArray(error.target) ? Number(error.property) : error.property;
    const path = [...parent, segment];
    for (const message of messagesFor(error, path, quoter)) out.push({ path: toDottedPath(path), message });
    if (error.children?.length) out.push(...flattenErrors(error.children, path, quoter));
  }
  return out;
}

function messagesFor(error: ValidationError, path: (string | number)[], quoter: ConfigValueQuoter): string[] {
  const constraints = Object.entries(error.constraints ?? {});
  if (!constraints.length) return [];
  if (constraints.some(([name]) => name === 'whitelistValidation')) {
    const candidates = [...knownKeysOf(error.target), ...openClawKeysBeside(path)].filter((k) => k !== error.property);
    const hint = suggestClosest(error.property, candidates);
    return [`unknown key${hint ? ` (did you mean "${hint}"?)` : ''}`];
  }
  if (error.value === undefined || error.value === null) {
    if (constraints.some(([name]) => name === 'isDefined')) return ['is required'];
  }
  const typeFailure = constraints.filter(([name]) => TYPE_CONSTRAINTS.has(name));
  // For arrays of objects both isArray and nestedValidation fail on a string; "must be an array" is the truth.
  const arrayFailure = typeFailure.find(([name]) => name === 'isArray');
  const chosen = arrayFailure ? [arrayFailure] : typeFailure.length ? typeFailure.slice(-1) : constraints;
  const shown = holdsSecrets(path) ? '' : describeGot(error.value, path, quoter);
  return chosen.map(([name, message]) => {
    // A check of each entry of a list builds its message from the entries it refuses, each quoted at its own path.
    const context = error.contexts?.[name] as Record<string, unknown> | undefined;
    const quoted = context?.[QUOTED_MESSAGE] as QuotedMessage | undefined;
    if (quoted) return quoted(error.value, (index) => describeEntry(error.value, path, index, quoter));
    // Where a container was expected, only the type is shown: a string there is typically a credential
    // written one level too high (`peers: { hermes: "<token>" }`, `tokens: "<token>"`), and messages
    // must never echo secrets.
    if (name === 'nestedValidation') return `must be an object (got ${describeType(error.value)})`;
    if (name === 'isArray') return `must be an array (got ${describeType(error.value)})`;
    // Quoting the URL would print the very credentials the message is about.
    if (name === 'noUrlCredentials') return message;
    // class-validator messages start with the property name; the path already says it.
    const prefix = `${error.property} `;
    const text = (message.startsWith(prefix) ? message.slice(prefix.length) : message).replace(
      'must be one of the following values: ',
      'must be one of: ',
    );
    // "(got an array)" only helps when an array is the wrong type; per-element and list checks (each
    // value, CIDR blocks) already name what is wrong inside it.
    const perElement = Array.isArray(error.value) && (!TYPE_CONSTRAINTS.has(name) || text.startsWith('each value'));
    return `${text}${perElement ? '' : shown}`;
  });
}

/**
 * True where the value is a secret or a map of secrets (`models.providers.<name>.headers` written as a
 * string is typically the header value itself, `"Bearer sk-…"`): such values are never quoted.
 */
function holdsSecrets(path: ReadonlyArray<string | number>): boolean {
  return isSecretConfigPath(path) || isSecretConfigPath([...path, '*']);
}

function describeGot(value: unknown, path: (string | number)[], quoter: ConfigValueQuoter): string {
  if (value === null) return ' (got null)';
  if (typeof value === 'string') return ` (got ${quoter.quote(path, value)})`;
  if (typeof value === 'number' || typeof value === 'boolean') return ` (got ${String(value)})`;
  if (Array.isArray(value)) return ' (got an array)';
  return '';
}

/** Entry `index` of the list `value` at `path`, as a per-entry message shows it; only strings come from `${VAR}`. */
function describeEntry(value: unknown, path: (string | number)[], index: number, quoter: ConfigValueQuoter): string {
  const entry = Array.isArray(value) ? (value[index] as unknown) : undefined;
  return typeof entry === 'string' ? quoter.quote([...path, index], entry) : String(JSON.stringify(entry));
}

/**
 * The keys OpenClaw documents next to an unknown key (openclaw-keys.ts): a misspelt OpenClaw setting
 * (`gateway.contrlUi`) is then pointed at its right name, whether clawgate implements it or not.
 */
function openClawKeysBeside(path: ReadonlyArray<string | number>): string[] {
  return [...(nodeAt(OPENCLAW_KEYS, path.slice(0, -1))?.keys?.keys() ?? [])];
}

function knownKeysOf(target: unknown): string[] {
  if (!target || typeof target !== 'object') return [];
  const metas = getMetadataStorage().getTargetValidationMetadatas(target.constructor, '', true, false);
  return [...new Set(metas.map((m) => m.propertyName))];
}
