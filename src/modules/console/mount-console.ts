import * as path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import express, { type Request, type Response } from 'express';
import { CONSOLE_HEADERS } from './console-headers';

/** Where the console is served. */
export const CONSOLE_PATH = '/console';

/**
 * The static files: `public/console/` at the package root. The same relative path from src/modules/console
 * (ts-node, tests) and from dist/modules/console (the build), so no copy step is needed.
 */
export const CONSOLE_ROOT = path.resolve(__dirname, '..', '..', '..', 'public', 'console');

/** The config's JSON Schema, served beside the console for the editor (a generated file, no data). */
export const CONFIG_SCHEMA_FILE = path.resolve(__dirname, '..', '..', '..', 'schemas', 'openclaw.schema.json');

function setConsoleHeaders(res: Response): void {
  for (const [name, value] of Object.entries(CONSOLE_HEADERS)) res.setHeader(name, value);
}

/**
 * Serves the web console's files at /console (GET and HEAD; anything else falls through to a 404). Outside the admin
 * gate on purpose: the files are the same for everyone, and every call the page makes goes to /admin, which
 * authenticates it. No directory listings, no dotfiles, `/console` redirects to `/console/`. `configSchema`
 * gives the config's JSON Schema with the running config's plugins in it, or undefined when there are none.
 */
export function mountConsole(app: INestApplication, configSchema?: () => Record<string, unknown> | undefined): void {
  app.use(CONSOLE_PATH + '/openclaw.schema.json', (req: Request, res: Response, next: () => void) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    setConsoleHeaders(res);
    // With plugins, the schema of the running config (their schemas in it); the generated file otherwise.
    const composed = configSchema?.();
    if (composed) res.type('application/schema+json').send(JSON.stringify(composed));
    else res.sendFile(CONFIG_SCHEMA_FILE, { headers: { 'Content-Type': 'application/schema+json' } });
  });
  app.use(
    CONSOLE_PATH,
    express.static(CONSOLE_ROOT, {
      dotfiles: 'ignore',
      index: 'index.html',
      redirect: true,
      fallthrough: true,
      etag: true,
      setHeaders: setConsoleHeaders,
    }),
  );
}
