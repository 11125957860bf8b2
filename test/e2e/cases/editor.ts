/**
 * Case 6: the editor in headless Chromium. Signs in through the form, opens a workflow holding both nodes as
 * a user adds them today, checks each node's icon on the canvas, opens each node's panel and switches through
 * every resource and operation; then reads what the panels show: Image > Moderate's one Options collection
 * (with the request settings), Text > Moderate's modes and its Options (Banned Words), and the trigger's
 * Events with the verdict filter beside them (no token field). Any browser console error or page error
 * fails the case. Screenshots go to test/e2e/screenshots/.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Page } from 'playwright-core';
import { addOptionButton, closePanel, collectionItems, collectionsShown, EditorLogin, hasParam, SCREENSHOT_DIR, TIMEOUT, withEditor } from '../../../dev/n8n/editor';
import { assert } from '../context';

interface PanelNode {
	name: string;
	/** the icon file name the canvas node must show */
	icon: string;
	isTrigger: boolean;
}

interface PanelSeen {
	/** resource -> operations offered; for the trigger, its Events */
	switched: Record<string, string[]>;
	/** Image > Moderate: the collections shown, and what its Options collection offers */
	collections?: string[];
	options?: string[];
	/** Text > Moderate: its modes and what its Options collection offers */
	textModes?: string[];
	textOptions?: string[];
	/** The trigger: its verdict filter (Results), the Events that hide it, and whether a token field shows */
	results?: string[];
	resultsHiddenFor?: string[];
	callbackToken?: boolean;
}

async function comboOptions(page: Page, param: string): Promise<string[]> {
	const combo = page.getByTestId('node-parameters').getByTestId(`parameter-input-${param}`).getByRole('combobox');
	await combo.click({ timeout: TIMEOUT });
	const options = page.getByRole('option');
	await options.first().waitFor({ state: 'visible', timeout: TIMEOUT });
	const names = (await options.allInnerTexts()).map((t) => t.split('\n')[0].trim()).filter(Boolean);
	await page.keyboard.press('Escape');
	return names;
}

/** Picks the option at `index` (names can repeat inside descriptions, so not by name) and checks the field. */
async function choose(page: Page, param: string, index: number, option: string): Promise<void> {
	const combo = page.getByTestId('node-parameters').getByTestId(`parameter-input-${param}`).getByRole('combobox');
	await combo.click({ timeout: TIMEOUT });
	const options = page.getByRole('option');
	await options.first().waitFor({ state: 'visible', timeout: TIMEOUT });
	await options.nth(index).click({ timeout: TIMEOUT });
	// The panel re-renders the parameters of the new choice.
	await page.waitForTimeout(300);
	const value = await combo.inputValue();
	if (value !== option) throw new Error(`${param}: chose "${option}" but the panel shows "${value}"`);
}

async function iconLoaded(page: Page, name: string, icon: string): Promise<boolean> {
	const img = page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"] img[src*="${icon}"]`).first();
	if ((await img.count()) === 0) return false;
	await img.waitFor({ state: 'visible', timeout: TIMEOUT });
	// The page's DOM types are not in this project's lib; the image is read as a plain object.
	return img.evaluate((el: any) => el.complete === true && el.naturalWidth > 0);
}

/** What the Options collection's "Add Option" list offers (opened, read, closed). */
async function addOptionList(page: Page, shot: () => Promise<unknown>): Promise<string[]> {
	const index = (await collectionsShown(page)).indexOf('Options');
	if (index < 0) throw new Error('the panel shows no Options collection');
	await addOptionButton(collectionItems(page).nth(index)).click();
	const offered = page.getByRole('option');
	await offered.first().waitFor({ state: 'visible', timeout: TIMEOUT });
	const names = (await offered.allInnerTexts()).map((t) => t.split('\n')[0].trim()).filter(Boolean);
	await shot();
	await page.keyboard.press('Escape');
	return names;
}

async function switchThroughAll(page: Page): Promise<Record<string, string[]>> {
	const seen: Record<string, string[]> = {};
	const resources = await comboOptions(page, 'resource');
	for (const [ri, resource] of resources.entries()) {
		await choose(page, 'resource', ri, resource);
		const ops = (await hasParam(page, 'operation')) ? await comboOptions(page, 'operation') : [];
		for (const [oi, op] of ops.entries()) await choose(page, 'operation', oi, op);
		seen[resource] = ops;
	}
	return seen;
}

async function checkPanels(c: EditorLogin & { workflowId: string; nodes: PanelNode[] }) {
	mkdirSync(SCREENSHOT_DIR, { recursive: true });
	for (const f of readdirSync(SCREENSHOT_DIR)) if (f.endsWith('.png')) rmSync(join(SCREENSHOT_DIR, f));
	return withEditor(c, 'editor', async ({ page, consoleErrors, shot }) => {
		await page.goto(`/workflow/${c.workflowId}`);
		for (const n of c.nodes) {
			await page.locator(`[data-test-id="canvas-node"][data-node-name="${n.name}"]`).waitFor({ state: 'visible', timeout: 30_000 });
			if (!(await iconLoaded(page, n.name, n.icon))) throw new Error(`canvas node "${n.name}" does not show icon ${n.icon}`);
		}
		const screenshots = [await shot('canvas')];
		const seen: Record<string, PanelSeen> = {};
		for (const n of c.nodes) {
			const slug = n.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
			await page.locator(`[data-test-id="canvas-node"][data-node-name="${n.name}"]`).dblclick();
			await page.getByTestId('node-parameters').waitFor({ state: 'visible' });
			const panel: PanelSeen = { switched: {} };
			if (n.isTrigger) {
				// The trigger has no resource/operation: switch through its Events; the verdict filter is for results.
				const events = await comboOptions(page, 'eventTypes');
				panel.resultsHiddenFor = [];
				for (const [ei, ev] of events.entries()) {
					await choose(page, 'eventTypes', ei, ev);
					if (!(await hasParam(page, 'events'))) panel.resultsHiddenFor.push(ev);
				}
				await choose(page, 'eventTypes', 0, events[0]);
				panel.switched.events = events;
				panel.results = await comboOptions(page, 'events');
				panel.callbackToken = await hasParam(page, 'callbackToken');
			} else {
				panel.switched = await switchThroughAll(page);
				// Text > Moderate: its modes, and its Options with Banned Words.
				await choose(page, 'resource', Object.keys(panel.switched).indexOf('Text'), 'Text');
				await choose(page, 'operation', panel.switched.Text.indexOf('Moderate'), 'Moderate');
				panel.textModes = await comboOptions(page, 'mode');
				panel.textOptions = await addOptionList(page, async () => screenshots.push(await shot(`panel-${slug}-text-options`)));
				screenshots.push(await shot(`panel-${slug}-text-moderate`));
				// Image > Moderate, the operation with the most options, for the screenshot and the collections.
				await choose(page, 'resource', Object.keys(panel.switched).indexOf('Image'), 'Image');
				await choose(page, 'operation', panel.switched.Image.indexOf('Moderate'), 'Moderate');
				panel.collections = await collectionsShown(page);
				panel.options = await addOptionList(page, async () => screenshots.push(await shot(`panel-${slug}-options`)));
			}
			screenshots.push(await shot(`panel-${slug}`));
			seen[n.name] = panel;
			await closePanel(page);
		}
		return { seen, consoleErrors: [...consoleErrors], screenshots };
	});
}

/** resource display name -> operation display names, from the node description n8n serves. */
function expectedOptions(desc: any): Record<string, string[]> {
	const props: any[] = desc?.properties ?? [];
	const resource = props.find((p) => p.name === 'resource');
	const out: Record<string, string[]> = {};
	for (const r of resource?.options ?? []) {
		const op = props.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(r.value));
		out[r.name] = (op?.options ?? []).map((o: any) => o.name);
	}
	if (Object.keys(out).length === 0) throw new Error('the node description declares no resources');
	return out;
}

/** The e2e wiring: workflow `cmE2eEditor00001` (test/e2e/workflows/editor.json) holds both nodes. */
export async function editor(ctx: import('../context').E2eContext): Promise<string> {
	const { ACTION_TYPE, TRIGGER_TYPE } = await import('../../../dev/n8n/package');
	const wf = ctx.stack.workflows.find((w) => w.id === 'cmE2eEditor00001');
	if (!wf) throw new Error('workflow cmE2eEditor00001 was not imported');
	const types: any[] = await ctx.stack.rest.get('/types/nodes.json');
	const nodes: PanelNode[] = wf.nodes.map((node: any) => {
		const desc = types.filter((t) => t.name === node.type).pop();
		if (!desc) throw new Error(`${node.type} missing from the catalogue`);
		const url: string = typeof desc.iconUrl === 'string' ? desc.iconUrl : desc.iconUrl?.light;
		return { name: node.name, icon: url.split('/').pop()!, isTrigger: node.type === TRIGGER_TYPE };
	});
	assert(nodes.filter((n) => n.isTrigger).length === 1 && nodes.length === 2, 'the editor workflow must hold the action node and the trigger');

	const r = await checkPanels({ url: ctx.stack.n8n.url, email: ctx.stack.owner.email, password: ctx.stack.owner.password, log: ctx.log, workflowId: wf.id, nodes });
	// Every resource and operation the node declares must have been offered and chosen in the panel.
	const declared = expectedOptions(types.filter((t) => t.name === ACTION_TYPE).pop());
	for (const n of nodes.filter((node) => !node.isTrigger)) {
		const panel = r.seen[n.name].switched;
		for (const [resource, ops] of Object.entries(declared)) {
			const missing = ops.filter((o) => !(panel[resource] ?? []).includes(o));
			assert(missing.length === 0, `${n.name}: resource "${resource}": operations ${missing.join(', ')} not offered`);
		}
		const { collections, options, textModes, textOptions } = r.seen[n.name];
		assert(collections?.join() === 'Options', `${n.name}, Image > Moderate shows collections ${collections?.join(', ')}; expected Options`);
		const settings = ['Actor ID', 'Fixed Concurrency', 'Max Concurrency', 'Max Image Size (MB)', 'Max Retries', 'Metadata (JSON)'];
		assert(settings.every((s) => options?.includes(s)), `${n.name}: Options offers ${options?.join(', ')}; expected ${settings.join(', ')}`);
		const modes = 'Immediate,Deferred,Wait for Callback';
		assert(textModes?.join() === modes, `${n.name}: Text > Moderate offers modes ${textModes?.join(', ')}; expected ${modes}`);
		const textSettings = ['Actor ID', 'Banned Words', 'Metadata (JSON)', 'Max Retries'];
		assert(textSettings.every((s) => textOptions?.includes(s)), `${n.name}: Text > Moderate's Options offers ${textOptions?.join(', ')}; expected ${textSettings.join(', ')}`);
	}
	for (const n of nodes.filter((node) => node.isTrigger)) {
		const { switched, results, resultsHiddenFor, callbackToken } = r.seen[n.name];
		const events = 'Results and Review Decisions,Results Only,Review Decisions Only,Every Event';
		assert(switched.events?.join() === events, `${n.name} offers Events ${switched.events?.join(', ')}; expected ${events}`);
		assert(results?.join() === 'All,Flagged Only,Review Only,Safe Only', `${n.name} offers Results ${results?.join(', ')}`);
		assert(resultsHiddenFor?.join() === 'Review Decisions Only', `${n.name} hides Results for ${resultsHiddenFor?.join(', ')}; expected Review Decisions Only`);
		assert(callbackToken === false, `${n.name} shows a Callback Token field`);
	}
	if (r.consoleErrors.length) {
		// n8n's editor asks for <node dir>/__schema__/v<version>.json (output schema preview) of input nodes.
		const schema = r.consoleErrors.some((e) => /\/schemas\/n8n-nodes-content-moderation\./.test(e))
			? ' (the package ships no output schema: n8n serves dist/nodes/<Node>/__schema__/v<version>.0.0[/<resource>/<operation>].json)'
			: '';
		throw new Error(`${r.consoleErrors.length} browser console error(s): ${r.consoleErrors.slice(0, 5).join(' | ')}${schema}`);
	}
	const summary = nodes
		.map((n) => {
			const p = r.seen[n.name];
			const extra = n.isTrigger
				? `Results [${p.results?.join('/')}]`
				: `Image > Moderate collections [${p.collections?.join('/')}], Text > Moderate modes [${p.textModes?.join('/')}]`;
			return `${n.name}: ${Object.entries(p.switched).map(([k, ops]) => `${k}[${ops.join('/')}]`).join(' ')} ${extra}`;
		})
		.join('; ');
	return `${summary}; ${r.screenshots.length} screenshots in ${SCREENSHOT_DIR}`;
}
