/**
 * `npm run pictures`: the package README's pictures, taken from n8n's editor. Starts the mock service and the
 * pinned n8n with the package, a credential and the example workflows (as `npm start` does), runs the examples
 * the pictures show from the editor in headless Chromium, and saves each picture into docs/pictures/, cropped to
 * what its README text is about. Before a picture is saved the page is checked: it shows what the README says
 * (item counts on the connections; the trigger's Production URL, Events and output) and holds neither the
 * Callback Secret nor the service's key. Run it again after a change to a node's panel.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { call } from '../dev/mock/client';
import { startMockService, type MockService } from '../dev/mock/server';
import { ExecutionRecords, N8nDb } from '../dev/n8n/db';
import { N8N_VERSION } from '../dev/n8n/install';
import { Running, teardownOnSignals } from '../dev/n8n/lifecycle';
import { ACTION_TYPE, TRIGGER_TYPE } from '../dev/n8n/package';
import { EXAMPLES_DIR, newCallbackSecret, readWorkflow, startStack, type Stack, type WorkflowFile } from '../dev/n8n/stack';
import { SCREENSHOT_DIR, withEditor } from '../test/e2e/browser';
import { ROOT } from './readme-links';

export const PICTURES_DIR = join(ROOT, 'docs', 'pictures');
/** The pictures this command makes, each shown once in the package README. */
export const PICTURES = ['route-by-verdict.png', 'trigger-panel.png', 'review-loop.png'] as const;
/** Width of every picture in pixels; a README column shows it scaled down. */
export const PICTURE_WIDTH = 1200;
export const PICTURE_MAX_BYTES = 200_000;

/** The examples the pictures show, read at run time: ids and node names as the repository has them. */
const EXAMPLES = {
	routeByVerdict: '05-wait-for-callback.json',
	trigger: '03-deferred-moderation-trigger.json',
	loopModerate: '08-review-loop-moderate.json',
	loopDecision: '08b-review-loop-decision.json',
};
/** An image the mock flags (by the words in its URL): the completed moderation beside the trigger's panel. */
const FLAGGED_IMAGE = 'https://images.example.com/explicit-nsfw-poster.jpg';
const RUN_TIMEOUT = 90_000;

/** What a picture shows that the package should change; printed at the end, the pictures are still saved. */
const warnings: string[] = [];
const started = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}`);

interface Context {
	stack: Stack;
	mock: MockService;
	db: ExecutionRecords;
	/** The Callback Secret and the service key: no picture may hold either. */
	secrets: string[];
}

interface Box {
	x: number;
	y: number;
	width: number;
	height: number;
}

/** Width and height of a PNG, from its header. */
export function pngSize(png: Buffer): { width: number; height: number } {
	if (png.length < 24 || png.toString('latin1', 1, 4) !== 'PNG' || png.toString('latin1', 12, 16) !== 'IHDR') {
		throw new Error('not a PNG');
	}
	return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The secrets a text holds, plain or URL-encoded. */
export function secretsIn(text: string, secrets: string[]): string[] {
	return secrets.filter((s) => [s, encodeURIComponent(s)].some((form) => text.includes(form)));
}

function example(file: string): WorkflowFile {
	return readWorkflow(join(EXAMPLES_DIR, file));
}

/** A workflow's nodes that are not sticky notes: what a canvas picture is cropped to. */
function workingNodes(wf: WorkflowFile): string[] {
	return wf.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote').map((n) => n.name);
}

function node(wf: WorkflowFile, type: string, operation?: string): any {
	const found = wf.nodes.find((n) => n.type === type && (!operation || n.parameters?.operation === operation));
	if (!found) throw new Error(`${wf.name} has no ${type} node${operation ? ` with operation ${operation}` : ''}`);
	return found;
}

/** The nodes each output of `from` leads to, by output index. */
function targets(wf: WorkflowFile, from: string): string[][] {
	return (wf.connections[from]?.main ?? []).map((out: any[] | null) => (out ?? []).map((t) => t.node));
}

function union(boxes: Box[]): Box {
	const x = Math.min(...boxes.map((b) => b.x));
	const y = Math.min(...boxes.map((b) => b.y));
	return { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y };
}

const canvasNode = (page: Page, name: string) => page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);

/** Refuses a page that holds a secret anywhere: its HTML, its text or a field's value. */
async function assertNoSecret(page: Page, secrets: string[], picture: string): Promise<void> {
	const values = await page.locator('input, textarea').evaluateAll((els) => els.map((el: any) => String(el.value ?? '')));
	const text = [await page.content(), await page.locator('body').innerText(), ...values].join('\n');
	const found = secretsIn(text, secrets);
	if (found.length) throw new Error(`${picture}: the page holds ${found.length} secret(s); no picture saved`);
}

async function openWorkflow(page: Page, wf: WorkflowFile): Promise<void> {
	await page.goto(`/workflow/${wf.id}`);
	for (const name of workingNodes(wf)) await canvasNode(page, name).waitFor({ state: 'visible', timeout: 30_000 });
}

/** Waits until each named canvas node shows it ran successfully. */
async function ran(page: Page, names: string[]): Promise<void> {
	for (const name of names) {
		await canvasNode(page, name).getByTestId('canvas-node-status-success').waitFor({ state: 'visible', timeout: RUN_TIMEOUT });
	}
}

/** The connection labels n8n draws after a run ("1 item", "3 items") and where they are. */
async function itemCounts(page: Page): Promise<Array<{ text: string; box: Box }>> {
	const labels = await page.getByTestId('edge-label').evaluateAll((els) =>
		els.map((el: any) => {
			const r = el.getBoundingClientRect();
			return { text: String(el.textContent ?? '').trim(), box: { x: r.x, y: r.y, width: r.width, height: r.height } };
		}),
	);
	return labels.filter((l) => /^\d+ items?$/.test(l.text));
}

/**
 * The item counts on the connections out of `from` (the labels between it and the nodes it leads to); fails
 * unless at least `expected` connections show one.
 */
async function countsOutOf(page: Page, wf: WorkflowFile, from: string, expected: number): Promise<string[]> {
	const source = await canvasNode(page, from).boundingBox();
	const next = targets(wf, from).flat();
	const lefts = await Promise.all(next.map(async (n) => (await canvasNode(page, n).boundingBox())?.x ?? Infinity));
	if (!source) throw new Error(`${from} is not on the canvas`);
	const between = (await itemCounts(page)).filter((l) => l.box.x > source.x + source.width && l.box.x + l.box.width < Math.min(...lefts));
	const shown = between.map((l) => l.text);
	if (shown.length < expected) {
		throw new Error(`${wf.name}: the connections out of ${from} show ${JSON.stringify(shown)}; expected an item count on ${expected}`);
	}
	return shown;
}

/** The box around the named nodes, their names and the connection labels. */
async function workingArea(page: Page, names: string[]): Promise<Box> {
	const boxes: Box[] = [];
	for (const name of names) {
		boxes.push(
			...(await canvasNode(page, name).evaluate((el: any) =>
				[el, ...el.querySelectorAll('*')]
					.map((e: any) => e.getBoundingClientRect())
					.filter((r: any) => r.width > 0 && r.height > 0)
					.map((r: any) => ({ x: r.x, y: r.y, width: r.width, height: r.height })),
			)),
		);
	}
	boxes.push(...(await itemCounts(page)).map((l) => l.box));
	if (boxes.length === 0) throw new Error(`none of ${names.join(', ')} is on the canvas`);
	return union(boxes);
}

/**
 * Zooms and pans the canvas until `zoomBy()` answers 1 and the named nodes sit in the middle of it. Over the
 * canvas, ctrl + wheel zooms by 2^(-deltaY / 500) around the pointer and the wheel alone pans by half its
 * delta; everything is measured again after each step, so a few steps converge whatever the exact factors.
 */
async function frame(page: Page, names: string[], zoomBy: (area: Box) => Promise<number>): Promise<Box> {
	await page.getByTestId('zoom-to-fit').click();
	await page.waitForTimeout(500);
	const canvas = await page.getByTestId('canvas').boundingBox();
	if (!canvas) throw new Error('the canvas is not on the page');
	const middle = { x: canvas.x + canvas.width / 2, y: canvas.y + canvas.height / 2 };
	let area = await workingArea(page, names);
	for (let step = 0; step < 10; step++) {
		const factor = await zoomBy(area);
		const off = { x: area.x + area.width / 2 - middle.x, y: area.y + area.height / 2 - middle.y };
		const zoomed = Math.abs(factor - 1) < 0.004;
		if (zoomed && Math.abs(off.x) <= 4 && Math.abs(off.y) <= 4) break;
		await page.mouse.move(area.x + area.width / 2, area.y + area.height / 2);
		if (!zoomed) {
			await page.keyboard.down('Control');
			await page.mouse.wheel(0, -500 * Math.log2(factor));
			await page.keyboard.up('Control');
		} else {
			await page.mouse.wheel(2 * off.x, 2 * off.y);
		}
		await page.waitForTimeout(400);
		area = await workingArea(page, names);
	}
	// Away from the nodes, so that no node shows its hover toolbar.
	await page.mouse.move(canvas.x + 2, canvas.y + 2);
	return area;
}

/** What n8n draws over the canvas or the panel (controls, the run button, the logs bar, toasts) is left out. */
const CHROME =
	'.vue-flow__panel, [data-test-id="canvas-controls"], [data-test-id="execute-workflow-button"], [data-test-id="logs-panel"], ' +
	'.el-notification, [data-test-id="floating-nodes"] { visibility: hidden !important; }';
/** The examples' sticky notes, which say what the README says beside the picture, are left out of canvas pictures. */
const NOTES = '.vue-flow__node:has([data-test-id="sticky"]) { visibility: hidden !important; }';

interface CanvasPicture {
	png: Buffer;
	/** How wide the workflow's first Content Moderation node is drawn: another picture at the same scale matches it. */
	unit: number;
}

/**
 * A picture of the canvas around the workflow's nodes (sticky notes aside), PICTURE_WIDTH wide: the nodes fill
 * it, or, given `unit`, they are drawn at the scale of the picture that measured it.
 */
async function canvasPicture(page: Page, wf: WorkflowFile, unit?: number): Promise<CanvasPicture> {
	const margin = 24;
	const names = workingNodes(wf);
	const reference = canvasNode(page, node(wf, ACTION_TYPE).name);
	const drawn = async () => (await reference.boundingBox())?.width ?? 0;
	const area = await frame(page, names, async (box) => (unit ? unit / (await drawn()) : (PICTURE_WIDTH - 2 * margin) / box.width));
	const chrome = await page.addStyleTag({ content: CHROME + NOTES });
	const clip = {
		x: Math.round(area.x + area.width / 2 - PICTURE_WIDTH / 2),
		y: Math.round(area.y - margin),
		width: PICTURE_WIDTH,
		height: Math.round(area.height + 2 * margin),
	};
	const png = await page.screenshot({ clip });
	await chrome.evaluate((el: any) => el.remove());
	// A node's subtitle built from a parameter its settings hide reads "undefined": worth fixing in the node.
	for (const name of names) {
		const text = (await canvasNode(page, name).innerText()).replace(/\s+/g, ' ');
		if (/\bundefined\b/.test(text)) warnings.push(`${wf.name}: the canvas node "${name}" reads "${text}"`);
	}
	return { png, unit: await drawn() };
}

/** Picture 1: example 05 after a run, its Image > Moderate routing one image to each of Safe, Flagged and Review. */
async function routeByVerdict(page: Page, c: Context): Promise<Buffer> {
	const wf = example(EXAMPLES.routeByVerdict);
	const moderate = node(wf, ACTION_TYPE, 'moderate');
	// Wait for Callback's outputs: Timed Out, then Safe, Flagged and Review, where the three images go.
	const [, ...routed] = targets(wf, moderate.name);
	await openWorkflow(page, wf);
	await page.getByTestId('execute-workflow-button').click();
	await ran(page, [moderate.name, ...routed.flat()]);
	const counts = await countsOutOf(page, wf, moderate.name, routed.length);
	await assertNoSecret(page, c.secrets, 'route by verdict');
	log(`example 05 ran in the editor: ${counts.join(', ')} out of ${moderate.name}`);
	return (await canvasPicture(page, wf)).png;
}

/** The trigger panel is drawn this wide: the picture is the whole panel. */
const PANEL_VIEWPORT = { width: PICTURE_WIDTH + 48, height: 900 };
/** Width left to the trigger panel's own left column ("Pull in events ..."), enough for its text. */
const PANEL_LEFT_COLUMN = 200;

/**
 * Picture 2: example 03's trigger panel with its Production URL and Events, beside the output of a completed
 * moderation: the panel listens for a test event, and the mock calls the test URL back with a flagged result.
 */
async function triggerPanel(page: Page, c: Context): Promise<Buffer> {
	const wf = example(EXAMPLES.trigger);
	const trigger = node(wf, TRIGGER_TYPE);
	const viewport = page.viewportSize();
	await page.setViewportSize(PANEL_VIEWPORT);
	await openWorkflow(page, wf);
	await canvasNode(page, trigger.name).dblclick();
	await page.getByTestId('node-parameters').waitFor({ state: 'visible' });
	await page.getByTestId('trigger-execute-button').first().click();
	await page.getByTestId('trigger-listening').first().waitFor({ state: 'visible' });
	// What the Content Moderation node sends: the trigger's URL with the Callback Secret added as `token`.
	const callbackUrl = `${c.stack.n8n.url}/webhook-test/${trigger.webhookId}/callback?token=${encodeURIComponent(c.stack.callbackSecret)}`;
	const sent = await call(c.mock.url, 'POST', '/image', { token: c.mock.token, json: { image: FLAGGED_IMAGE, options: { callbackUrl } } });
	if (sent.status !== 202 && sent.status !== 200) throw new Error(`the mock answered the moderation ${sent.status}`);
	await page.getByTestId('ndv-data-container').waitFor({ state: 'visible', timeout: RUN_TIMEOUT });
	await page.getByTestId('radio-button-json').click();
	const output = page.getByTestId('ndv-data-container');
	await output.getByText(`"${sent.body.id}"`).waitFor({ state: 'visible' });

	await page.getByText('Webhook URLs').first().click();
	await page.getByTestId('radio-button-production').click();
	const url = (await page.getByTestId('webhook-url-item').or(page.getByTestId('node-parameters').getByText('/webhook/')).first().innerText()).trim();
	if (!url.includes(`/webhook/${trigger.webhookId}/callback`)) throw new Error(`the trigger's panel shows the URL ${url}, not its Production URL`);
	const events = await page.getByTestId('parameter-input-eventTypes').locator('input').inputValue();
	if (!events) throw new Error("the trigger's panel shows no Events");

	// The panel's own left column is narrowed to its text, so that the parameters and the output have the room.
	const ndv = page.getByTestId('ndv');
	const column = async () => page.getByTestId('tab-params').evaluate((el: any) => el.closest('[class*="_column"]').getBoundingClientRect().x);
	const panel = await ndv.boundingBox();
	const handle = await page.getByTestId('panel-drag-button').boundingBox();
	if (!panel || !handle) throw new Error('the node panel is not on the page');
	const from = { x: handle.x + handle.width / 2, y: handle.y + handle.height / 2 };
	await page.mouse.move(from.x, from.y);
	await page.mouse.down();
	await page.mouse.move(from.x + panel.x + PANEL_LEFT_COLUMN - (await column()), from.y, { steps: 10 });
	await page.mouse.up();
	await page.mouse.move(0, 0);
	await page.getByTestId('node-parameters').evaluate((el: any) => el.scrollIntoView({ block: 'start' }));
	await page.waitForTimeout(500);

	await assertNoSecret(page, c.secrets, 'trigger panel');
	const chrome = await page.addStyleTag({ content: CHROME });
	const png = await page.screenshot({ clip: (await ndv.boundingBox()) ?? panel });
	await chrome.evaluate((el: any) => el.remove());
	log(`example 03's trigger panel: Production URL ${url}, Events "${events}", the output of moderation ${sent.body.id}`);
	await page.getByTestId('ndv-close-button').click();
	if (viewport) await page.setViewportSize(viewport);
	return png;
}

/** Picture 3: the review loop, example 08 (A) after a run above example 08b (B) after a reviewer's decision. */
async function reviewLoop(page: Page, c: Context): Promise<Buffer> {
	const a = example(EXAMPLES.loopModerate);
	const moderate = node(a, ACTION_TYPE, 'moderate');
	const addItem = node(a, ACTION_TYPE, 'addItem');
	await openWorkflow(page, a);
	await page.getByTestId('execute-workflow-button').click();
	await ran(page, [moderate.name, ...targets(a, moderate.name).flat(), ...targets(a, addItem.name).flat()]);
	const countsA = await countsOutOf(page, a, moderate.name, 3);
	await assertNoSecret(page, c.secrets, 'review loop A');
	const pictureA = await canvasPicture(page, a);

	// The comment A sent for review: a person accepts it once the service has moderated it (pending).
	const [runA] = (await c.db.executions(a.id)).slice(-1);
	const [queued] = (await c.db.execution(runA.id)).items[addItem.name] ?? [];
	if (!queued?.id) throw new Error(`example 08 sent no item to the review queue (execution ${runA?.id})`);
	const queueId = String(addItem.parameters.queueId);
	for (let i = 0; i < 150; i++) {
		const item = await call(c.mock.url, 'GET', `/queues/${queueId}/items/${queued.id}`, { token: c.mock.token });
		if (item.body?.status === 'pending') break;
		await page.waitForTimeout(200);
	}

	const b = example(EXAMPLES.loopDecision);
	const trigger = node(b, TRIGGER_TYPE);
	const decision = node(b, ACTION_TYPE, 'getItem');
	await openWorkflow(page, b);
	await page.getByTestId('execute-workflow-button').click();
	await page.getByTestId('stop-execution-waiting-for-webhook-button').waitFor({ state: 'visible' });
	// The account webhook URL (the dashboard's setting) is B's trigger test URL while the editor listens.
	c.mock.configure({
		webhookUrl: `${c.stack.n8n.url}/webhook-test/${trigger.webhookId}/callback?token=${encodeURIComponent(c.stack.callbackSecret)}`,
	});
	c.mock.decide(queueId, String(queued.id), 'accepted');
	const [accepted] = targets(b, decision.name);
	await ran(page, [trigger.name, decision.name, ...accepted]);
	const countsB = await countsOutOf(page, b, decision.name, 1);
	await assertNoSecret(page, c.secrets, 'review loop B');
	// B at A's scale: the two read as one loop.
	const pictureB = await canvasPicture(page, b, pictureA.unit);
	log(`example 08 ran in the editor (${countsA.join(', ')} out of ${moderate.name}); 08b got the decision (${countsB.join(', ')})`);
	return stacked(page, [
		{ label: `A: ${EXAMPLES.loopModerate} after a run`, png: pictureA.png },
		{ label: `B: ${EXAMPLES.loopDecision} after a person accepted the comment A sent for review`, png: pictureB.png },
	]);
}

/** Pictures one above the other, each under its label, as one picture (drawn by the browser). */
async function stacked(page: Page, parts: Array<{ label: string; png: Buffer }>): Promise<Buffer> {
	const sheet = await page.context().newPage();
	try {
		const html = parts
			.map(
				(p) =>
					`<div style="padding:10px 24px 0;font:600 15px/1.4 sans-serif;color:#555">${p.label}</div>` +
					`<img style="display:block" src="data:image/png;base64,${p.png.toString('base64')}">`,
			)
			.join('<div style="height:1px;background:#ddd"></div>');
		await sheet.setContent(`<div id="sheet" style="width:${PICTURE_WIDTH}px;background:#fff">${html}</div>`);
		return await sheet.locator('#sheet').screenshot();
	} finally {
		await sheet.close();
	}
}

/** What stops a picture from being saved: its size. */
export function pictureProblems(name: string, png: Buffer): string[] {
	const { width } = pngSize(png);
	const problems: string[] = [];
	if (Math.abs(width - PICTURE_WIDTH) > 100) problems.push(`${name} is ${width} px wide, not about ${PICTURE_WIDTH}`);
	if (png.length > PICTURE_MAX_BYTES) problems.push(`${name} has ${png.length} bytes, more than ${PICTURE_MAX_BYTES}`);
	return problems;
}

const running: Running = {};

async function main(): Promise<void> {
	// The README shows the n8n users get with the package's tested version, the pinned one.
	if (process.env.N8N_VERSION) throw new Error(`the pictures are taken with the pinned n8n; unset N8N_VERSION (${N8N_VERSION})`);
	const mock = (running.mock = await startMockService({ token: `pictures-${randomBytes(12).toString('hex')}` }));
	const stack = (running.stack = await startStack({
		serviceUrl: mock.url,
		serviceToken: mock.token,
		callbackSecret: newCallbackSecret('pictures-cb'),
		log,
	}));
	const db = (running.db = N8nDb.forUserFolder(stack.n8n.userFolder));
	const c: Context = { stack, mock, db, secrets: [stack.callbackSecret, mock.token] };
	const login = { url: stack.n8n.url, email: stack.owner.email, password: stack.owner.password, log };
	const pictures: Record<(typeof PICTURES)[number], Buffer> = await withEditor(login, 'pictures', async ({ page }) => ({
		'route-by-verdict.png': await routeByVerdict(page, c),
		'trigger-panel.png': await triggerPanel(page, c),
		'review-loop.png': await reviewLoop(page, c),
	}));
	const problems = Object.entries(pictures).flatMap(([name, png]) => pictureProblems(name, png));
	if (problems.length) throw new Error(problems.join('; '));
	mkdirSync(PICTURES_DIR, { recursive: true });
	for (const [name, png] of Object.entries(pictures)) {
		writeFileSync(join(PICTURES_DIR, name), png);
		const { width, height } = pngSize(png);
		log(`docs/pictures/${name}: ${width} x ${height} px, ${(png.length / 1000).toFixed(1)} kB`);
	}
	for (const warning of warnings) log(`WARNING ${warning}`);
}

if (require.main === module) {
	const cleanup = teardownOnSignals(running, { log, onSignal: () => process.exit(130) });
	main().then(
		() => cleanup().then(() => process.exit(0)),
		async (e) => {
			console.error(`npm run pictures failed: ${e instanceof Error ? e.stack : e}`);
			console.error(`the page at the failure: ${join(SCREENSHOT_DIR, 'failure-pictures.png')}`);
			await cleanup();
			process.exit(1);
		},
	);
}
