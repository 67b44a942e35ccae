import * as vm from 'node:vm';
import type * as Jose from 'jose';
import { provideJose } from '../../src/common/auth/jose-loader';

/**
 * jose 6 is ESM-only. Jest's module sandbox cannot load ESM without --experimental-vm-modules (the jest
 * config is shared and stays as it is), and it intercepts `require`, `createRequire` and
 * `process.getBuiltinModule`. The host realm's `process` — reached through vm.runInThisContext — still has
 * Node's own `getBuiltinModule`, whose `createRequire` loads jose natively (Node ≥ 20.19 can require ESM).
 * The gateway under test is handed the same instance through provideJose; in production it imports jose.
 */
export function hostJose(): typeof Jose {
  const hostProcess = vm.runInThisContext('process') as NodeJS.Process & {
    getBuiltinModule(id: 'node:module'): typeof import('node:module');
  };
  const jose = hostProcess.getBuiltinModule('node:module').createRequire(__filename)('jose') as typeof Jose;
  provideJose(jose);
  return jose;
}
