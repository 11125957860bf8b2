/**
 * n8n's editor in headless Chromium for the e2e browser cases and `npm run pictures`: sign in through the
 * form, collect console and page errors, take screenshots into test/e2e/screenshots/, read the node panel.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, Locator, Page, selectors } from 'playwright-core';
import { N8N_MAJOR } from './install';
import { CHROMIUM, CHROMIUM_ARGS, ensureChromium } from './chromium';

export const SCREENSHOT_DIR = join(__dirname, '..', '..', 'test', 'e2e', 'screenshots');
export const TIMEOUT = 20_000;

export interface EditorLogin {
	url: string;
	email: string;
	password: string;
	log: (l: string) => void;
}

export interface EditorSession {
	page: Page;
	/** Console errors and page errors seen so far (n8n 1.x's own noise left out). */
	consoleErrors: string[];
	/** Screenshot of the page as `<name>.png`; returns its path. */
	shot(name: string): Promise<string>;
}

/**
 * Errors n8n 1.123's own editor logs after sign-in whatever nodes are installed: its versions store reads
 * settings it was never given, its AI assistant asks for session metadata without a licence (403), and it
 * asks for the last successful execution of a workflow never run (404). Ignored on n8n 1.x only, and only
 * when the error does not name this package.
 */
const N8N_1_EDITOR_NOISE = [
	/checkForNewVersions/,
	/\/rest\/ai\/sessions\/metadata|Failed to fetch sessions metadata: ResponseError: Plan lacks license/,
	/\/rest\/workflows\/[^/ ]+\/executions\/last-successful\b/,
];

function isN8n1EditorNoise(text: string): boolean {
	return N8N_MAJOR === 1 && !text.includes('n8n-nodes-content-moderation') && N8N_1_EDITOR_NOISE.some((re) => re.test(text));
}

/** Signs in, runs `work`, closes the browser; on a failure leaves `failure-<name>.png`. `deviceScaleFactor`: pixels per CSS px. */
export async function withEditor<T>(
	c: EditorLogin,
	name: string,
	work: (s: EditorSession) => Promise<T>,
	deviceScaleFactor = 1,
): Promise<T> {
	await ensureChromium(c.log);
	mkdirSync(SCREENSHOT_DIR, { recursive: true });
	// n8n's editor marks elements with data-test-id (Playwright's default is data-testid).
	selectors.setTestIdAttribute('data-test-id');
	const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, timeout: 60_000 });
	const context = await browser.newContext({ baseURL: c.url, viewport: { width: 1600, height: 1000 }, deviceScaleFactor });
	const page = await context.newPage();
	page.setDefaultTimeout(TIMEOUT);
	const consoleErrors: string[] = [];
	const shot = async (file: string) => {
		const path = join(SCREENSHOT_DIR, `${file}.png`);
		await page.screenshot({ path });
		return path;
	};
	try {
		let signedIn = false;
		page.on('console', (m) => {
			if (m.type() !== 'error') return;
			// The sign-in page first asks whether a session exists; the 401 it gets is n8n's normal answer.
			if (!signedIn && m.location().url.endsWith('/rest/login') && m.text().includes('401')) return;
			const line = `${m.text()} @ ${m.location().url}`;
			if (!isN8n1EditorNoise(line)) consoleErrors.push(line);
		});
		page.on('pageerror', (e) => {
			if (!isN8n1EditorNoise(`${e.stack}`)) consoleErrors.push(`pageerror: ${e.message}`);
		});
		// A loaded machine takes its time over the editor's first load.
		await page.goto('/signin', { timeout: 90_000 });
		// n8n 1.x's sign-in labels point at no input id, so its inputs are found by name there.
		await page.getByLabel('Email').or(page.locator('input[name="emailOrLdapLoginId"]')).first().fill(c.email);
		await page.getByLabel('Password').or(page.locator('input[name="password"]')).first().fill(c.password);
		await page.getByRole('button', { name: 'Sign in' }).click();
		await page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: 30_000 });
		signedIn = true;
		return await work({ page, consoleErrors, shot });
	} catch (e) {
		await shot(`failure-${name}`).catch(() => undefined);
		throw e;
	} finally {
		await browser.close();
	}
}

/** Whether the open node panel shows the parameter `param` (a field, not a collection). */
export async function hasParam(page: Page, param: string): Promise<boolean> {
	return (await page.getByTestId('node-parameters').getByTestId(`parameter-input-${param}`).count()) > 0;
}

/** The collections ("Add Option" fields) of the open node panel: n8n 2.x marks their button, 1.x their class. */
export function collectionItems(page: Page): Locator {
	return page
		.getByTestId('node-parameters')
		.getByTestId('parameter-item')
		.filter({ has: page.locator('[data-test-id="collection-parameter-add"], .collection-parameter') });
}

/** A collection's "Add Option" field. */
export function addOptionButton(item: Locator): Locator {
	return item.getByTestId('collection-parameter-add').or(item.locator('.collection-parameter .el-select')).first();
}

/** The labels of the collections the open node panel shows, top to bottom. */
export async function collectionsShown(page: Page): Promise<string[]> {
	const labels = await collectionItems(page).evaluateAll((els) => els.map((el) => el.querySelector('[data-test-id="input-label"]')?.textContent ?? ''));
	return labels.map((t) => t.trim());
}

/** Closes the node panel (n8n 1.x with its "Back to canvas" link). */
export async function closePanel(page: Page): Promise<void> {
	await page.getByTestId('ndv-close-button').or(page.getByTestId('back-to-canvas')).first().click();
	await page.getByTestId('node-parameters').waitFor({ state: 'hidden' });
}
