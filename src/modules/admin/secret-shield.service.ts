import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { RequestHandler } from 'express';
import { containsSecret, maskSecrets, MIN_MASKED_SECRET_LENGTH, registerSecretSource } from '../../common/secrets/secret-mask';
import { registerSecretHeaderSource } from '../../common/secrets/secret-headers';
import { StandingWarnings } from '../../common/logging/standing-warnings';
import { ConfigStore, GATEWAY_OPTIONS, type GatewayOptions, type RuntimeSnapshot } from '../config';
import { configuredSecrets, configuredSecretValues } from './configured-secrets';

const NO_SECRETS: string[] = [];
const TEXTUAL = /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript)|application\/x-www-form-urlencoded)/i;

/**
 * Safety net under every endpoint and log line: feeds the current snapshot's secret values to the shared
 * masker (used by the log destination) and its SSO assertion header to the log's header redaction, and
 * offers an express middleware that masks them in every response body sent with `res.send`/`res.json` —
 * which is how Nest, the problem+json filter and the body-parser error handler all answer. Endpoints
 * still never put secrets in responses; this catches mistakes.
 */
@Injectable()
export class SecretShield implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('secrets');
  /** The paths of the secrets too short to mask last warned about. */
  private readonly shortSecretPaths = new StandingWarnings();
  private unregister?: () => void;
  private unregisterHeaders?: () => void;
  private unsubscribe?: () => void;

  constructor(
    private readonly config: ConfigStore,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
  ) {}

  onModuleInit(): void {
    this.unregister = registerSecretSource(() =>
      this.config.isLoaded() ? configuredSecretValues(this.config.current(), this.options.env) : NO_SECRETS,
    );
    // The SSO assertion is a bearer credential; its header is whatever the config names.
    this.unregisterHeaders = registerSecretHeaderSource(() => {
      const jwt = this.config.isLoaded() ? this.config.current().config.gateway.admin.sso.jwt : undefined;
      return jwt ? [jwt.header] : NO_SECRETS;
    });
    // The config is loaded before the module graph is built (bootstrap.ts), so the boot load's secrets are checked
    // here; later loads report through 'reloaded'.
    if (this.config.isLoaded()) this.warnShortSecrets(this.config.current());
    this.unsubscribe = this.config.onReloaded((outcome) => {
      if (outcome.status === 'applied') this.warnShortSecrets(this.config.current());
    });
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
    this.unregister?.();
    this.unregisterHeaders?.();
  }

  /** Express middleware: wraps res.send so every string or textual buffer body is masked. */
  readonly responseMasker: RequestHandler = (_req, res, next) => {
    const send = res.send;
    res.send = function maskedSend(this: typeof res, body?: unknown) {
      if (typeof body === 'string') return send.call(this, maskSecrets(body));
      if (Buffer.isBuffer(body) && TEXTUAL.test(String(this.getHeader('content-type') ?? ''))) {
        const text = body.toString('utf8');
        return send.call(this, containsSecret(text) ? Buffer.from(maskSecrets(text), 'utf8') : body);
      }
      return send.call(this, body); // objects come back here as a string through res.json
    } as typeof res.send;
    next();
  };

  /** Each short secret's path when it first appears, and again when it is long enough or gone: not every reload. */
  private warnShortSecrets(snapshot: RuntimeSnapshot): void {
    const short = configuredSecrets(snapshot, this.options.env).filter((s) => s.value.length < MIN_MASKED_SECRET_LENGTH);
    const { appeared, cleared } = this.shortSecretPaths.update(short.map((s) => s.path));
    if (appeared.length) {
      this.logger.warn(
        `${appeared.join(', ')}: shorter than ${MIN_MASKED_SECRET_LENGTH} characters — easy to guess, and ` +
          'too short to be masked in logs and responses; use long random values',
      );
    }
    if (cleared.length) this.logger.log(`${cleared.join(', ')}: no longer a secret too short to mask (lengthened or removed)`);
  }
}
