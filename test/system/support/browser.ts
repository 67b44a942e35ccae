import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { requireProgram } from './system-program';

// The functions given to page.evaluate run in the browser. Their globals, declared for this file only (the
// DOM library would type the whole program's fetch and streams as the browser's).
declare const document: any;
declare const location: any;

/** Where the console suite saves its screenshots (git-ignored). */
export const SCREENSHOT_DIR = path.join(__dirname, '..', '..', '..', 'test-output', 'console');

/** Debian's chromium, headless. `--no-sandbox`: CI runs as root, where Chromium's sandbox cannot start. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = await requireProgram('chromium', 'sudo apt-get install -y chromium  (Debian/Ubuntu)');
  return puppeteer.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--no-first-run'],
    defaultViewport: { width: 1280, height: 900 },
  });
}

/**
 * A page that records what the browser complains about: script errors, console errors (a CSP violation is
 * reported there) and requests to any other origin than the gateway's.
 */
export async function watchedPage(browser: Browser, origin: string): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${String(err)}`));
  page.on('console', (msg) => {
    // Answers the console expects and shows (400 a refused approval note, 401/403 sign-in and viewer refusals, 404 a missing
    // picture or plugin, 409/412 a config write or decision refused, 422 an invalid config as you type) are logged by
    // Chromium as failed loads.
    if (msg.type() === 'error' && !/status of (40[01349]|412|422)/.test(msg.text())) problems.push(`console: ${msg.text()}`);
  });
  page.on('request', (req) => {
    const url = req.url();
    if (!url.startsWith(origin) && !url.startsWith('blob:') && !url.startsWith('data:')) problems.push(`foreign request: ${url}`);
  });
  return { page, problems };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await fs.mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Opens a console page by its hash route and waits until it has drawn its heading. */
export async function visit(page: Page, route: string): Promise<void> {
  await page.evaluate((hash) => {
    location.hash = hash;
  }, route);
  await page.waitForFunction(
    (name) => document.getElementById('main')?.dataset.page === name && !!document.querySelector('#main h1'),
    {},
    route.split('/')[1],
  );
}

/** Types a token into the sign-in form and waits for the navigation to appear. */
export async function signIn(page: Page, token: string): Promise<void> {
  await page.waitForSelector('#login-form', { visible: true });
  await page.type('#login-token', token);
  await page.click('#login-form button[type=submit]');
  await page.waitForSelector('#nav', { visible: true });
}

export const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent ?? '');
