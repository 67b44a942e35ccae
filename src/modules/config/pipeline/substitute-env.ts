import { ConfigIssue, toDottedPath } from './config-issue';
import { isPlainObject } from '../../../common/is-record';

/**
 * Pipeline step 3: replace `${VAR}` references in string values with environment variables.
 * `${VAR:-default}` (the shell's form, which real OpenClaw files use for ports and URLs) takes `default` when
 * VAR is unset or empty; OpenClaw's own docs name only `${VAR}`, so this is clawgate's addition, and it never
 * makes a value out of nothing: the default is written in the file.
 *
 * Secrets are expected to come from the environment, and a missing one should not take the whole
 * gateway down: a peer whose token is unset is simply unusable until it is set. So a missing
 * variable in a secret field is a warning and the field is removed (never left as the literal
 * "${FOO}", which would otherwise be sent as a credential). Anywhere else a missing variable is an
 * error, because a half-substituted URL or port silently does the wrong thing.
 */

export interface SubstituteResult {
  /** The document with `${VAR}` replaced. */
  value: unknown;
  /** Missing/empty variable in a non-secret field. */
  errors: ConfigIssue[];
  /** Unresolved variable in a secret field. */
  warnings: ConfigIssue[];
  /** Dotted paths of secret fields left unresolved; they are absent from `value`. */
  unusableSecretPaths: string[];
  /** Every string that took a variable's value, for the messages' quoter (config-value-quoter.ts); absent when there is none. */
  substitutions?: Substitution[];
}

/** One string value that took the value of one or more variables. */
export interface Substitution {
  /** Dotted path of the value. */
  path: string;
  /** The variables it took values from, in order of first use. */
  names: string[];
  /** The value was exactly one `${VAR}`, nothing around it. */
  whole: boolean;
}

/** `${NAME}` or the escape `$${...}`; the name is validated separately so bad ones stay literal. */
const REFERENCE = /\$(\$?)\{([^}]*)\}/g;
/** `NAME`, or `NAME:-default` (the default may be empty; it cannot hold `}`). */
const VALID_NAME = /^([A-Z_][A-Z0-9_]*)(?::-(.*))?$/s;
const WHOLE_REFERENCE = /^\$\{[A-Z_][A-Z0-9_]*(?::-[^}]*)?\}$/;

/** Marks a value its parent must drop (an unresolved secret). */
const DROP = Symbol('drop');

export function substituteEnv(
  doc: unknown,
  env: NodeJS.ProcessEnv,
  isSecretPath: (segments: ReadonlyArray<string | number>) => boolean,
): SubstituteResult {
  const result: SubstituteResult = { value: undefined, errors: [], warnings: [], unusableSecretPaths: [] };

  const visitString = (text: string, segs: Array<string | number>): string | typeof DROP => {
    const missing: string[] = [];
    const used: string[] = [];
    // A replacer function, so `$&`-style patterns inside variable values are inserted literally.
    const replaced = text.replace(REFERENCE, (whole: string, escape: string, inside: string) => {
      if (escape) return `\${${inside}}`;
      const reference = VALID_NAME.exec(inside);
      if (!reference) return whole;
      const [, name, fallback] = reference;
      const value = env[name];
      // An empty variable is almost always a deployment mistake (`FOO=` in an env file), and an
      // empty token/URL is never what the config meant, so treat it like an unset one.
      if ((value === undefined || value === '') && fallback !== undefined) {
        if (!used.includes(name)) used.push(name);
        return fallback;
      }
      if (value === undefined || value === '') {
        if (!missing.includes(name)) missing.push(name);
        return whole;
      }
      if (!used.includes(name)) used.push(name);
      return value;
    });
    if (missing.length === 0) {
      if (used.length) {
        (result.substitutions ??= []).push({ path: toDottedPath(segs), names: used, whole: WHOLE_REFERENCE.test(text) });
      }
      return replaced;
    }

    const path = toDottedPath(segs);
    if (isSecretPath(segs)) {
      for (const name of missing) {
        result.warnings.push({
          path,
          message: `environment variable ${name} is not set; this entry is unusable until it is`,
        });
      }
      result.unusableSecretPaths.push(path);
      return DROP;
    }
    for (const name of missing) {
      result.errors.push({ path, message: `missing environment variable ${name}` });
    }
    // Left as written: the load fails anyway, and a partial substitution would be misleading.
    return text;
  };

  const visit = (node: unknown, segs: Array<string | number>): unknown => {
    if (typeof node === 'string') return visitString(node, segs);
    if (Array.isArray(node)) {
      // Array elements cannot be removed without shifting the indexes every other message refers
      // to, so an unresolved secret element becomes `undefined` in place.
      return node.map((item, i) => {
        const v = visit(item, [...segs, i]);
        return v === DROP ? undefined : v;
      });
    }
    if (isPlainObject(node)) {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(node)) {
        const v = visit(child, [...segs, key]);
        if (v === DROP) continue;
        // defineProperty keeps a `__proto__` key as plain data.
        Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    return node; // numbers, booleans, null: nothing to substitute
  };

  const top = visit(doc, []);
  result.value = top === DROP ? undefined : top;
  return result;
}
