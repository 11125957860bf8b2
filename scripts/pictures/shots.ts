/**
 * The three README pictures, each taken from n8n's editor after the example it shows has run, cropped to the
 * part the README's text is about, with the labels checked where npm shows the picture (check.ts).
 */
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { call } from '../../dev/mock/client';
import type { MockService } from '../../dev/mock/server';
import type { ExecutionRecords } from '../../dev/n8n/db';
import { ACTION_TYPE, TRIGGER_TYPE } from '../../dev/n8n/package';
import { EXAMPLES_DIR, readWorkflow, type Stack, type WorkflowFile } from '../../dev/n8n/stack';
import { before, canvasNode, canvasPicture, CHROME, countsOutOf, node, openWorkflow, ran, RUN_TIMEOUT, targets, workingNodes } from './canvas';
import { type DrawnLabel, labelProblems, PICTURE_WIDTH, secretsIn } from './check';

export interface Context {
	stack: Stack;
	mock: MockService;
	db: ExecutionRecords;
	/** The Callback Secret and the service key: no picture may hold either. */
	secrets: string[];
	log: (line: string) => void;
}

/** The examples the pictures show, read at run time: ids and node names as the repository has them. */
const EXAMPLES = {
	routeByVerdict: '01-moderate-image-url.json',
	trigger: '03-deferred-moderation-trigger.json',
	loopModerate: '08-review-loop-moderate.json',
	loopDecision: '08b-review-loop-decision.json',
};
/** An image the mock flags (by the words in its URL): the completed moderation beside the trigger's panel. */
const FLAGGED_IMAGE = 'https://images.example.com/nude-figure-poster.jpg';

function example(file: string): WorkflowFile {
	return readWorkflow(join(EXAMPLES_DIR, file));
}

/** Refuses a page that holds a secret anywhere: its HTML, its text or a field's value. */
async function assertNoSecret(page: Page, secrets: string[], picture: string): Promise<void> {
	const values = await page.locator('input, textarea').evaluateAll((els) => els.map((el: any) => String(el.value ?? '')));
	const text = [await page.content(), await page.locator('body').innerText(), ...values].join('\n');
	const found = secretsIn(text, secrets);
	if (found.length) throw new Error(`${picture}: the page holds ${found.length} secret(s); no picture saved`);
}

function refuse(problems: string[]): void {
	if (problems.length) throw new Error(problems.join('; '));
}

/**
 * The nodes picture 1 shows: the whole of example 01, from the trigger and the nodes that make the items to what
 * Image > Moderate's Safe and Flagged outputs lead to, so that no arrow comes into the picture from outside.
 */
export function routeByVerdictNodes(wf: WorkflowFile): string[] {
	return workingNodes(wf);
}

/** Picture 1: example 01 after a run (routeByVerdictNodes). */
export async function routeByVerdict(page: Page, c: Context): Promise<Buffer> {
	const wf = example(EXAMPLES.routeByVerdict);
	const moderate = node(wf, ACTION_TYPE, 'moderate').name;
	const routed = targets(wf, moderate).flat();
	const shown = routeByVerdictNodes(wf);
	await openWorkflow(page, wf);
	await page.getByTestId('execute-workflow-button').click();
	await ran(page, shown);
	const counts = await countsOutOf(page, wf, moderate, routed.length);
	const countIn = await countsOutOf(page, wf, before(wf, moderate), 1);
	await assertNoSecret(page, c.secrets, 'route by verdict');
	const picture = await canvasPicture(page, shown);
	refuse(labelProblems('route-by-verdict.png', picture.labels, picture.clipWidth, ['Safe', 'Flagged', ...counts, ...countIn]));
	c.log(`example 01 ran in the editor: ${countIn.join(', ')} into ${moderate}, ${counts.join(', ')} out of it; ${sizes(picture.labels)}`);
	return picture.png;
}

/** The smallest label of a picture, for the log. */
function sizes(labels: DrawnLabel[]): string {
	const least = [...labels].sort((a, b) => a.px - b.px)[0];
	return least ? `smallest label "${least.text}" at ${least.px.toFixed(1)} px` : 'no label';
}

/** The font size and box of the first element in `scope` whose own text is `text`. */
async function drawnText(scope: Locator, text: string): Promise<(DrawnLabel & { bottom: number }) | undefined> {
	const found = scope.locator('*').filter({ hasText: text }).last();
	if ((await found.count()) === 0) return undefined;
	return found.evaluate((el: any, t: string) => {
		const r = el.getBoundingClientRect();
		return { text: t, px: parseFloat(el.ownerDocument.defaultView.getComputedStyle(el).fontSize), bottom: r.y + r.height };
	}, text);
}

/**
 * Picture 2: example 03's trigger panel, its Production URL and Events beside the output of a completed
 * moderation, `event` included: the panel listens for a test event and the mock calls the Test URL back with
 * a flagged result. The panel's own left column is cut off; the picture is the parameters and the output.
 */
export async function triggerPanel(page: Page, c: Context): Promise<Buffer> {
	const wf = example(EXAMPLES.trigger);
	const trigger = node(wf, TRIGGER_TYPE);
	const viewport = page.viewportSize();
	let width = PICTURE_WIDTH + 260;
	await page.setViewportSize({ width, height: 1500 });
	await openWorkflow(page, wf);
	await canvasNode(page, trigger.name).dblclick();
	await page.getByTestId('node-parameters').waitFor({ state: 'visible' });
	await page.getByTestId('trigger-execute-button').first().click();
	await page.getByTestId('trigger-listening').first().waitFor({ state: 'visible' });
	// What the Content Moderation node sends: the trigger's URL with the Callback Secret added as `token`.
	const callbackUrl = `${c.stack.n8n.url}/webhook-test/${trigger.webhookId}/callback?token=${encodeURIComponent(c.stack.callbackSecret)}`;
	const sent = await call(c.mock.url, 'POST', '/image', { token: c.mock.token, json: { image: FLAGGED_IMAGE, options: { callbackUrl } } });
	if (sent.status !== 202 && sent.status !== 200) throw new Error(`the mock answered the moderation ${sent.status}`);
	const output = page.getByTestId('ndv-data-container');
	await output.waitFor({ state: 'visible', timeout: RUN_TIMEOUT });
	await page.getByTestId('radio-button-json').click();
	await output.getByText(`"${sent.body.id}"`).waitFor({ state: 'visible' });

	await page.getByText('Webhook URLs').first().click();
	await page.getByTestId('radio-button-production').click();
	const urlItem = page.getByTestId('webhook-url-item').or(page.getByTestId('node-parameters').getByText('/webhook/')).first();
	const url = (await urlItem.innerText()).trim();
	if (!url.includes(`/webhook/${trigger.webhookId}/callback`)) throw new Error(`the trigger's panel shows the URL ${url}, not its Production URL`);
	const events = await page.getByTestId('parameter-input-eventTypes').locator('input').inputValue();
	if (!events) throw new Error("the trigger's panel shows no Events");

	// The parameters' left edge to the panel's right edge is made PICTURE_WIDTH wide: the viewport grows or
	// shrinks by what is missing, and the panel's own left column is dragged to its narrowest.
	const ndv = page.getByTestId('ndv');
	const params = page.getByTestId('tab-params');
	const column = async () => params.evaluate((el: any) => {
		const r = el.closest('[class*="_column"]').getBoundingClientRect();
		return { x: r.x, y: r.y };
	});
	const columnLeft = async () => (await column()).x;
	let clip = { x: 0, y: 0, width: 0, height: 0 };
	for (let step = 0; step < 4; step++) {
		const panel = await ndv.boundingBox();
		const handle = await page.getByTestId('panel-drag-button').boundingBox();
		if (!panel || !handle) throw new Error('the node panel is not on the page');
		const from = { x: handle.x + handle.width / 2, y: handle.y + handle.height / 2 };
		await page.mouse.move(from.x, from.y);
		await page.mouse.down();
		await page.mouse.move(from.x + panel.x + 120 - (await columnLeft()), from.y, { steps: 10 });
		await page.mouse.up();
		await page.mouse.move(0, 0);
		await page.waitForTimeout(300);
		const left = await columnLeft();
		const box = (await ndv.boundingBox())!;
		// From the parameters' top: the panel's title above them belongs to the left column cut off.
		const top = (await column()).y;
		clip = { x: Math.round(left), y: Math.round(top), width: PICTURE_WIDTH, height: Math.round(box.y + box.height - top) };
		const missing = PICTURE_WIDTH - (box.x + box.width - left);
		if (Math.abs(missing) <= 2) break;
		width += Math.round(missing);
		await page.setViewportSize({ width, height: 1500 });
		await page.waitForTimeout(500);
	}
	await page.getByTestId('node-parameters').evaluate((el: any) => el.scrollIntoView({ block: 'start' }));

	// The output shows `event` (it ends the item) and the verdict; the picture ends below `event`.
	const labels = await Promise.all(['"event"', '"isSafe"', '"description"'].map((t) => drawnText(output, t)));
	const eventLabel = labels[0];
	if (eventLabel) clip.height = Math.min(clip.height, Math.round(eventLabel.bottom + 40 - clip.y));
	const url1 = await drawnText(page.getByTestId('node-parameters'), url.slice(0, 20));
	const drawn = [...labels, url1].filter((l): l is DrawnLabel & { bottom: number } => l !== undefined && l.bottom <= clip.y + clip.height);
	refuse(labelProblems('trigger-panel.png', drawn, clip.width, ['"event"', '"isSafe"', '"description"']));

	await assertNoSecret(page, c.secrets, 'trigger panel');
	const chrome = await page.addStyleTag({ content: CHROME });
	const png = await page.screenshot({ clip });
	await chrome.evaluate((el: any) => el.remove());
	c.log(`example 03's trigger panel: Production URL ${url}, Events "${events}", moderation ${sent.body.id}; ${sizes(drawn)}`);
	await page.getByTestId('ndv-close-button').click();
	if (viewport) await page.setViewportSize(viewport);
	return png;
}

/** Picture 3: the review loop, example 08 (A) after a run above example 08b (B) after a reviewer's decision. */
export async function reviewLoop(page: Page, c: Context): Promise<Buffer> {
	const a = example(EXAMPLES.loopModerate);
	const moderate = node(a, ACTION_TYPE, 'moderate').name;
	const addItem = node(a, ACTION_TYPE, 'addItem');
	await openWorkflow(page, a);
	await page.getByTestId('execute-workflow-button').click();
	await ran(page, [moderate, ...targets(a, moderate).flat(), ...targets(a, addItem.name).flat()]);
	const countsA = await countsOutOf(page, a, moderate, 3);
	await assertNoSecret(page, c.secrets, 'review loop A');
	const pictureA = await canvasPicture(page, [moderate, ...targets(a, moderate).flat(), ...targets(a, addItem.name).flat()]);
	refuse(labelProblems('review-loop.png (A)', pictureA.labels, pictureA.clipWidth, ['Safe', 'Flagged', 'Review', ...countsA]));

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
	const decision = node(b, ACTION_TYPE, 'getItem').name;
	await openWorkflow(page, b);
	await page.getByTestId('execute-workflow-button').click();
	await page.getByTestId('stop-execution-waiting-for-webhook-button').waitFor({ state: 'visible' });
	// The account webhook URL (the dashboard's setting) is B's trigger test URL while the editor listens.
	c.mock.configure({
		webhookUrl: `${c.stack.n8n.url}/webhook-test/${trigger.webhookId}/callback?token=${encodeURIComponent(c.stack.callbackSecret)}`,
	});
	c.mock.decide(queueId, String(queued.id), 'accepted');
	const [accepted] = targets(b, decision);
	await ran(page, [trigger.name, decision, ...accepted]);
	const countsB = await countsOutOf(page, b, decision, 1);
	await assertNoSecret(page, c.secrets, 'review loop B');
	const pictureB = await canvasPicture(page, workingNodes(b));
	refuse(labelProblems('review-loop.png (B)', pictureB.labels, pictureB.clipWidth, ['Accepted', 'Rejected', 'Pending', ...countsB]));
	c.log(`example 08 ran (${countsA.join(', ')} out of ${moderate}; ${sizes(pictureA.labels)}); 08b got the decision (${countsB.join(', ')}; ${sizes(pictureB.labels)})`);
	return stacked(page, [
		{ label: 'A: moderates the comments and sends those marked for review to a review queue', png: pictureA.png },
		{ label: 'B: starts on the reviewer’s decision and publishes the accepted comment', png: pictureB.png },
	]);
}

/** Pictures one above the other, each under its label, as one picture (drawn by the browser at the same scale). */
async function stacked(page: Page, parts: Array<{ label: string; png: Buffer }>): Promise<Buffer> {
	const sheet = await page.context().newPage();
	try {
		const html = parts
			.map(
				(p) =>
					`<div style="padding:10px 16px 0;font:600 15px/1.4 sans-serif;color:#444">${p.label}</div>` +
					`<img style="display:block;width:${PICTURE_WIDTH}px" src="data:image/png;base64,${p.png.toString('base64')}">`,
			)
			.join('<div style="height:1px;background:#ddd"></div>');
		await sheet.setContent(`<div id="sheet" style="width:${PICTURE_WIDTH}px;background:#fff">${html}</div>`);
		return await sheet.locator('#sheet').screenshot();
	} finally {
		await sheet.close();
	}
}
