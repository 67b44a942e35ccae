import { Logger } from 'nestjs-pino';

/**
 * Nest's own boot chatter: one line per module, controller and route ("Mapped {/admin/agents, GET} route"). At
 * debug, so the info log of a boot is the gateway's banner, not a hundred lines of framework.
 */
export const FRAMEWORK_CONTEXTS: ReadonlySet<string> = new Set([
  'RoutesResolver',
  'RouterExplorer',
  'InstanceLoader',
  'NestFactory',
  'NestApplication',
]);

/** The Nest logger of the gateway: nestjs-pino's, with the framework's info lines moved down to debug. */
export class GatewayLogger extends Logger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams[optionalParams.length - 1];
    if (typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context)) return this.debug(message, ...optionalParams);
    super.log(message, ...optionalParams);
  }
}
