// Debian's Chromium driven by playwright-core (never a downloaded browser), with the flags that keep it
// quiet and deterministic on a CI machine.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { repoRoot } from './web-build';

export const screenshotDir = resolve(repoRoot, 'test-results/screenshots');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

export const laptop: BrowserContextOptions = { viewport: { width: 1280, height: 860 }, colorScheme: 'light' };
export const phone: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  colorScheme: 'light',
};

/** A PNG of the whole page for the CI artifacts (test-results/ is gitignored; docs/screenshots is a copy). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: resolve(screenshotDir, `${name}.png`), fullPage: true });
}

/** Logs in through the form, as a person would. */
export async function logIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page
    .getByLabel('E-mail')
    .fill(email)
    .catch(async (error: Error) => {
      // Say what the page showed instead of the form (an error page, "Loading…"), not only that it timed out.
      const shown = await page
        .locator('body')
        .textContent({ timeout: 1000 })
        .catch(() => '(unreadable)');
      await screenshot(page, 'login-form-missing').catch(() => undefined);
      throw new Error(
        `${error.message}\nThe page at ${page.url()} showed instead: ${(shown ?? '').slice(0, 500)}`,
      );
    });
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Incidents', exact: true }).waitFor();
}
