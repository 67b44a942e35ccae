import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { INestApplication, Logger as NestLogger } from '@nestjs/common';
import { StrictValidationPipe } from './common/http/strict-validation-pipe';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import express, { NextFunction, Request, Response } from 'express';
import { AppModule } from './app.module';
import { GatewayLogger } from './common/logging/gateway-logger';
import { LOG_LEVELS, logSettingsFrom } from './common/logging/log-settings';
import { gatewayLogging } from './common/logging/logging.module';
import { startupBanner } from './startup-banner';
import { listenerTlsOptions } from './listener-tls';
import { problem, writeProblem } from './common/errors/problem-details';
import { ProblemDetailsFilter } from './common/errors/problem-details.filter';
import { lockStateDir, type StateDirLock } from './common/fs/state-dir-lock';
import { jsonDepthExceeds } from './common/json-depth';
import { mountA2aEndpoint } from './modules/a2a-channel';
import { ADMIN_HTTP_PATHS, AdminGate, SecretShield, swaggerClientHeader, undeclaredAdminOperations } from './modules/admin';
import { mountMcpEndpoint } from './modules/mcp-server';
import { composeConfigSchema, ConfigStore, ConfigWatcher, reservedKeyIssues, type GatewayOptions } from './modules/config';
import { TelemetryService } from './modules/telemetry';
import { ClusterService } from './modules/cluster';
import { mountConsole } from './modules/console';
import { mountPluginRoutes } from './modules/plugins';
import { traceInboundHttp } from './common/telemetry/inbound-http';
import { Tracing } from './common/telemetry/tracing';
import { buildOpenApiDocument } from './openapi-document';
import { recordResponses, responseLogDir, writeServedDocument } from './common/http/response-recorder';

export interface RunningGateway {
  app: INestApplication;
  /** e.g. http://127.0.0.1:18789 */
  url: string;
  port: number;
  /** The startup banner went to the log (its level shows info lines): the CLI need not print its own line. */
  bannerLogged: boolean;
  close(): Promise<void>;
}

/** The state-dir locks of the gateways running in this process (see startGateway). */
const HELD_LOCKS = new Set<StateDirLock>();

/** Admin JSON bodies (config validation) may be as large as a config file. */
const ADMIN_BODY_LIMIT = '2mb';
/**
 * Deepest JSON body accepted: far more than any admin or channel body (or config) needs, far less than
 * what makes the recursive DTO transformation and validation overflow the stack.
 */
export const MAX_BODY_DEPTH = 64;

/**
 * Builds and starts the gateway: lock the state dir (throws StateDirInUseError when another gateway has it —
 * the CLI exits 75), load the config (throws ConfigLoadError when invalid — the CLI exits 78), build the module
 * graph (its stores open as `gateway.state` says: throws PostgresUnavailableError — the CLI exits 69), join the
 * cluster when gateway.cluster is set (throws ClusterRedisUnreachableError — the CLI exits 69), wire HTTP,
 * start watching, listen on gateway.bind:gateway.port (or `--port`).
 */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  // Before anything else: from the config's load on (it writes the last-good copy), the state dir is read and
  // written, and from the first constructor on modules do too (on init the A2A task service fails every unsettled
  // task); a second gateway must stop before all of that.
  // First of all: a log setting it does not take stops the gateway before it touches anything (LogSettingsError).
  const logSettings = logSettingsFrom(options);
  const lock = await lockStateDir(options.stateDir);
  // The lock is an open SQLite connection: garbage-collected, it would close and let go of the state dir. The
  // CLI keeps nothing of the RunningGateway, so the lock is held here until close() releases it.
  HELD_LOCKS.add(lock);
  let app: NestExpressApplication;
  try {
    // The gateway's logger from here on. Lines wait in Nest's buffer until the gateway listens (as the framework's own
    // do: NestFactory's bufferLogs), so a start that fails writes none but Nest's report of a failed graph.
    const logging = gatewayLogging(logSettings);
    NestLogger.overrideLogger(logging.logger);
    NestLogger.attachBuffer();
    // Before the module graph, so that its providers' factories can read the config (each store reads gateway.state
    // once, to open the SQLite or the PostgreSQL implementation).
    const config = new ConfigStore(options);
    await config.init();
    const httpsOptions = await listenerTlsOptions(config.current().config.gateway.tls);
    app = await NestFactory.create<NestExpressApplication>(AppModule.register(options, config, logging), {
      ...(httpsOptions ? { httpsOptions } : {}),
      bodyParser: false,
      bufferLogs: true,
      abortOnError: false,
    });
  } catch (err) {
    await lock.release();
    HELD_LOCKS.delete(lock);
    throw err;
  }
  // The lock is let go only once the app has closed, so every last write (sessions, audit log) happens under it.
  // On a signal, Nest's shutdown hook closes the app and the process ends, which releases the lock.
  const close = async () => {
    try {
      await app.close();
    } finally {
      await lock.release();
      HELD_LOCKS.delete(lock);
    }
  };
  app.useLogger(app.get(GatewayLogger));
  app.enableShutdownHooks();
  try {
    const snapshot = app.get(ConfigStore).current();
    // Before the HTTP setup: whether requests get server spans depends on it.
    await app.get(TelemetryService).start();
    // Before anything serves: with gateway.cluster the shared rate limits and membership need Redis, and a
    // replica that cannot reach it does not start (ClusterRedisUnreachableError; the CLI exits 69).
    await app.get(ClusterService).start();
    configureHttp(app);
    await app.get(ConfigWatcher).start();
    const { port, bind } = snapshot.config.gateway;
    await app.listen(options.portOverride ?? port, bind);
    const address = app.getHttpServer().address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const scheme = snapshot.config.gateway.tls.enabled ? 'https' : 'http';
    const url = `${scheme}://${host}:${address.port}`;
    const banner = startupBanner(url, app.get(ConfigStore).current(), {
      configPath: options.configPath,
      stateDir: options.stateDir,
      logFormat: logSettings.format,
    });
    new NestLogger('gateway').log(banner.fields, banner.message);
    const bannerLogged = LOG_LEVELS.indexOf(logSettings.level) <= LOG_LEVELS.indexOf('info');
    return { app, url, port: address.port, bannerLogged, close };
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
}

function configureHttp(app: NestExpressApplication): void {
  app.disable('x-powered-by');
  // First: every response body passes the secret masker; then the admin gate, before any body is parsed.
  app.use(app.get(SecretShield).responseMasker);
  app.use(ADMIN_HTTP_PATHS, app.get(AdminGate).handler);
  // Before the global parsers: /a2a reads its own raw body under its own 1 MiB limit.
  mountA2aEndpoint(app);
  // And the MCP server: its key is checked and its body read by its own code, answered in JSON-RPC.
  mountMcpEndpoint(app);
  // Plugins' routes under /plugins/<id>/ (and bundled plugins' own paths: the http channel's /channels/http/messages,
  // the OpenAI-compatible endpoint's /v1): each route checks its caller (public, or an admin role, or its precheck and
  // key gate) before it reads its own body.
  mountPluginRoutes(app);
  // The web console's static files (no data in them; the page calls /admin with the caller's credentials).
  const configStore = app.get(ConfigStore);
  mountConsole(app, () => {
    const snapshot = configStore.current();
    return snapshot.plugins.size ? composeConfigSchema(snapshot) : undefined;
  });
  // Last of the 'request' listeners, so it wraps them all (the /a2a fast path included); only when tracing is on.
  const tracing = app.get(Tracing);
  if (tracing.enabled) traceInboundHttp(app.getHttpServer(), tracing);
  app.use(express.json({ limit: ADMIN_BODY_LIMIT, type: ['application/json', 'application/merge-patch+json'] }));
  app.use(express.text({ limit: ADMIN_BODY_LIMIT, type: ['text/plain', 'application/json5'] }));
  app.use(bodyShapeLimits);
  app.use(bodyParserErrors);
  app.useGlobalFilters(new ProblemDetailsFilter());
  // DTOs are strict like the config: unknown fields are rejected with their names, and a did-you-mean.
  app.useGlobalPipes(new StrictValidationPipe());
  const document = buildOpenApiDocument(app);
  const undeclared = undeclaredAdminOperations(document);
  if (undeclared.length) {
    new NestLogger('admin-auth').warn(`admin routes without @RequiresRole (they require "admin"): ${undeclared.join(', ')}`);
  }
  // JSON only: the YAML copy would be one more URL to protect for no gain. "Try it out" sends the header a body-less
  // admin write needs (request-forgery.ts).
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    raw: ['json'],
    swaggerOptions: { requestInterceptor: swaggerClientHeader },
  });
  // The test suite's record of every answer, checked against this document (off unless the suite sets it).
  const recordDir = responseLogDir();
  if (recordDir) {
    writeServedDocument(recordDir, document);
    recordResponses(app.getHttpServer(), recordDir);
  }
}

/**
 * Bodies that are config documents: the config loader judges their depth itself (with its own limit) and
 * answers like it answers for the file, 422 naming the path.
 */
const CONFIG_DOCUMENT_PATHS = new Set(['/admin/config/validate']);

/** Refuses a parsed JSON body nested deeper than MAX_BODY_DEPTH, or holding a reserved key name, before any DTO is built from it. */
function bodyShapeLimits(req: Request, res: Response, next: NextFunction): void {
  const body: unknown = req.body;
  if (CONFIG_DOCUMENT_PATHS.has(req.path.toLowerCase().replace(/\/+$/, ''))) return next();
  if (body === null || typeof body !== 'object') return next();
  if (jsonDepthExceeds(body, MAX_BODY_DEPTH)) {
    return writeProblem(res, problem(400, `request body is nested more than ${MAX_BODY_DEPTH} levels deep`));
  }
  // Like the config: a key named __proto__, constructor, toString... would be dropped by the DTO
  // transformation without a word, so the write would silently do less than was asked.
  const reserved = reservedKeyIssues(body);
  if (reserved.length) {
    const items = reserved.map((issue) => ({ path: issue.path, message: issue.message }));
    return writeProblem(res, problem(400, `request body: ${items.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { errors: items }));
  }
  next();
}

/** Body-parser failures happen before Nest routing; answer them in the same problem+json shape. */
function bodyParserErrors(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  const e = err as { status?: number; type?: string; message?: string };
  if (!e || typeof e.status !== 'number') return next(err);
  const detail =
    e.type === 'entity.too.large'
      ? `request body exceeds the ${ADMIN_BODY_LIMIT} limit`
      : e.type === 'entity.parse.failed'
        ? `request body is not valid JSON: ${e.message ?? ''}`.trim()
        : (e.message ?? 'bad request body');
  writeProblem(res, problem(e.status, detail));
}
