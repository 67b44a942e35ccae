import { registerDecorator, ValidationArguments } from 'class-validator';
import { isRecord } from '../../../common/is-record';

/**
 * OpenClaw's SecretRef: a credential named by where it lives instead of written out. clawgate resolves the
 * `env` source (the variable `id`, read when the config loads, like `${VAR}`); OpenClaw's `file`, `exec` and
 * `store` sources need its secret providers, which clawgate does not have.
 */
export interface SecretRefConfig {
  source: 'env';
  id: string;
  /** OpenClaw's secret provider name; for `env` there is only its default. */
  provider?: string;
}

/** OpenClaw's pattern for an `env` SecretRef id (docs/gateway/configuration-reference.md#secretref). */
export const ENV_SECRET_ID = /^[A-Z][A-Z0-9_]{0,127}$/;
const OPENCLAW_ONLY_SOURCES = ['file', 'exec', 'store'];
const SECRET_REF_KEYS = new Set(['source', 'id', 'provider']);

/** Why `value` is not a usable SecretRef, or undefined when it is one. Never quotes the value (it sits at a secret path). */
export function secretRefProblem(value: Record<string, unknown>): string | undefined {
  const extra = Object.keys(value).filter((k) => !SECRET_REF_KEYS.has(k));
  if (extra.length) return `a SecretRef has only source, id and provider (unknown: ${extra.join(', ')})`;
  const { source, id, provider } = value;
  if (typeof source === 'string' && OPENCLAW_ONLY_SOURCES.includes(source)) {
    return `SecretRef source "${source}" needs OpenClaw's secret providers, which clawgate does not have: use { source: "env", id: "VAR" } or "\${VAR}"`;
  }
  if (source !== 'env') return `a SecretRef's source must be "env" (got ${typeof source === 'string' ? JSON.stringify(source.slice(0, 40)) : typeof source})`;
  if (typeof id !== 'string' || !ENV_SECRET_ID.test(id)) return 'a SecretRef with source "env" needs id: the name of an environment variable ([A-Z][A-Z0-9_]*)';
  if (provider !== undefined && provider !== 'default') return 'an env SecretRef takes provider "default" or none';
  return undefined;
}

export function isSecretRef(value: unknown): value is SecretRefConfig {
  return isRecord(value) && secretRefProblem(value) === undefined;
}

/** A credential: a non-empty string (`"${VAR}"` included) or an env SecretRef `{ source: "env", id }`. */
export function IsSecretInput(): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'isSecretInput',
      target: target.constructor,
      propertyName: key as string,
      validator: {
        validate: (value: unknown) => (typeof value === 'string' ? value.length > 0 : isSecretRef(value)),
        defaultMessage: (args: ValidationArguments) => {
          if (typeof args.value === 'string') return 'must not be empty';
          if (isRecord(args.value)) return secretRefProblem(args.value) ?? 'must be a string or a SecretRef';
          return 'must be a string, "${VAR}", or a SecretRef { source: "env", id: "VAR" }';
        },
      },
    });
}
