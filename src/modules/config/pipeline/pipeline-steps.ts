/**
 * The steps `loadConfig` runs, in its order, for a tool that times or inspects them one at a time (the
 * reload benchmark's breakdown of where a reload's time goes). Loading a config is `loadConfig`'s job: it
 * also reads the files, keeps values from the environment out of messages and builds the snapshot.
 */
export { parseJson5 } from './parse-json5';
export { resolveIncludes } from './resolve-includes';
export { substituteEnv } from './substitute-env';
export { ConfigValueQuoter } from './config-value-quoter';
export { validateConfig } from './validate-config';
export { normalizeConfig } from '../normalize/normalize-config';
export { stableJson } from './stable-json';
