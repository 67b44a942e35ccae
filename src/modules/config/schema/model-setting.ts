import { registerDecorator, ValidationArguments } from 'class-validator';
import { isRecord } from '../../../common/is-record';

/** `provider/model`, e.g. `echo/default`, `anthropic/claude-sonnet-4-6`, `ollama/qwen3:8b`. */
export const MODEL_REF_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*\/\S+$/;
/** An alias of agents.defaults.models (`opus`, `Kimi K2.5`: OpenClaw's own examples have spaces), usable wherever a model reference is. */
export const MODEL_ALIAS_PATTERN = /^[^\s/][^/]{0,63}$/;

/** `model` in its object form: the primary model and the ones tried, in order, when it fails. */
export interface ModelChainConfig {
  primary: string;
  fallbacks?: string[];
}

/** An agent's `model`: OpenClaw's string form (the primary only) or `{ primary, fallbacks }`. */
export type ModelSettingConfig = string | ModelChainConfig;

const REF_HINT = 'must be "provider/model" (e.g. "echo/default") or an alias of agents.defaults.models';
const CHAIN_KEYS = new Set(['primary', 'fallbacks']);

function isModelRefText(value: unknown): value is string {
  return typeof value === 'string' && (MODEL_REF_PATTERN.test(value) || MODEL_ALIAS_PATTERN.test(value));
}

/** What is wrong with a `model` value, or undefined. Names the part (`primary`, `fallbacks[1]`); values are quoted by the caller. */
export function modelSettingProblem(value: unknown): string | undefined {
  if (typeof value === 'string') return isModelRefText(value) ? undefined : REF_HINT;
  if (!isRecord(value)) return 'must be "provider/model" or { primary, fallbacks }';
  const extra = Object.keys(value).filter((k) => !CHAIN_KEYS.has(k));
  if (extra.length) return `unknown key ${extra.map((k) => JSON.stringify(k)).join(', ')} (the object form has primary and fallbacks)`;
  if (value.primary === undefined) return 'primary is required in the object form';
  if (!isModelRefText(value.primary)) return `primary ${REF_HINT}`;
  if (value.fallbacks === undefined) return undefined;
  if (!Array.isArray(value.fallbacks)) return 'fallbacks must be a list of "provider/model" references';
  const bad = value.fallbacks.findIndex((f) => !isModelRefText(f));
  return bad >= 0 ? `fallbacks[${bad}] ${REF_HINT}` : undefined;
}

/** An agent's `model`: a string, or `{ primary, fallbacks }` (docs/configuration.md#model-fallbacks). */
export function IsModelSetting(): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'isModelSetting',
      target: target.constructor,
      propertyName: key as string,
      validator: {
        validate: (value: unknown) => modelSettingProblem(value) === undefined,
        defaultMessage: (args: ValidationArguments) => modelSettingProblem(args.value) ?? REF_HINT,
      },
    });
}

const REF_SCHEMA = { type: 'string', minLength: 1 };
export const MODEL_SETTING_SCHEMA = {
  oneOf: [
    REF_SCHEMA,
    {
      type: 'object',
      additionalProperties: false,
      required: ['primary'],
      properties: { primary: REF_SCHEMA, fallbacks: { type: 'array', items: REF_SCHEMA } },
    },
  ],
};
