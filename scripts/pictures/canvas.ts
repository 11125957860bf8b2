/**
 * n8n's workflow canvas for the README pictures: open and run a workflow, read the labels n8n draws on it,
 * frame the nodes a picture is about and take it at the README's width.
 */
import type { Page } from 'playwright-core';
import type { WorkflowFile } from '../../dev/n8n/stack';
import { type DrawnLabel, PICTURE_WIDTH } from './check';

export interface Box {
	x: number;
	y: number;
	width: number;
	height: number;
}

export const RUN_TIMEOUT = 90_000;

function union(boxes: Box[]): Box {
	const x = Math.min(...boxes.map((b) => b.x));
	const y = Math.min(...boxes.map((b) => b.y));
	return { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y };
}

export const canvasNode = (page: Page, name: string) => page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);

/** A workflow's nodes that are not sticky notes. */
export function workingNodes(wf: WorkflowFile): string[] {
	return wf.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote').map((n) => n.name);
}

export function node(wf: WorkflowFile, type: string, operation?: string): any {
	const found = wf.nodes.find((n) => n.type === type && (!operation || n.parameters?.operation === operation));
	if (!found) throw new Error(`${wf.name} has no ${type} node${operation ? ` with operation ${operation}` : ''}`);
	return found;
}

/** The nodes each output of `from` leads to, by output index. */
export function targets(wf: WorkflowFile, from: string): string[][] {
	return (wf.connections[from]?.main ?? []).map((out: any[] | null) => (out ?? []).map((t) => t.node));
}

/** The node whose first output leads to `to`. */
export function before(wf: WorkflowFile, to: string): string {
	const found = Object.keys(wf.connections).find((from) => targets(wf, from).flat().includes(to));
	if (!found) throw new Error(`${wf.name}: nothing leads to ${to}`);
	return found;
}

/** The nodes outside `names` that lead into one of them: a picture of `names` would start at an arrow from nowhere. */
export function fromOutside(wf: WorkflowFile, names: string[]): string[] {
	return Object.keys(wf.connections).filter((from) => !names.includes(from) && targets(wf, from).flat().some((to) => names.includes(to)));
}

export async function openWorkflow(page: Page, wf: WorkflowFile): Promise<void> {
	await page.goto(`/workflow/${wf.id}`, { timeout: RUN_TIMEOUT });
	for (const name of workingNodes(wf)) await canvasNode(page, name).waitFor({ state: 'visible', timeout: RUN_TIMEOUT });
}

/** Waits until each named canvas node shows it ran successfully. */
export async function ran(page: Page, names: string[]): Promise<void> {
	for (const name of names) {
		await canvasNode(page, name).getByTestId('canvas-node-status-success').waitFor({ state: 'visible', timeout: RUN_TIMEOUT });
	}
}

/**
 * The labels n8n draws on the connections ("1 item") and on the outputs of the named nodes ("Safe"), each
 * with its font size after the canvas zoom (the box drawn over the box laid out) and where it is.
 */
export async function canvasLabels(page: Page, names: string[]): Promise<Array<DrawnLabel & { box: Box }>> {
	const selector = [
		'[data-test-id="edge-label"]',
		...names.map((n) => `[data-test-id="canvas-node"][data-node-name="${n}"] .canvas-node-handle-main-output div`),
	].join(', ');
	const labels = await page.locator(selector).evaluateAll((els) =>
		els
			.filter(
				(el: any) =>
					el.dataset.testId === 'edge-label' || [...el.childNodes].some((c: any) => c.nodeType === 3 && c.textContent.trim() !== ''),
			)
			.map((el: any) => {
				const r = el.getBoundingClientRect();
				const zoom = el.offsetHeight > 0 ? r.height / el.offsetHeight : 1;
				const px = parseFloat(el.ownerDocument.defaultView.getComputedStyle(el).fontSize) * zoom;
				return { text: String(el.textContent ?? '').trim(), px, box: { x: r.x, y: r.y, width: r.width, height: r.height } };
			}),
	);
	return labels.filter((l) => l.box.width > 0 && l.text !== '');
}

/** The item counts on the connections between `from` and the nodes it leads to; fails unless `expected` show one. */
export async function countsOutOf(page: Page, wf: WorkflowFile, from: string, expected: number): Promise<string[]> {
	const source = await canvasNode(page, from).boundingBox();
	const next = targets(wf, from).flat();
	const lefts = await Promise.all(next.map(async (n) => (await canvasNode(page, n).boundingBox())?.x ?? Infinity));
	if (!source) throw new Error(`${from} is not on the canvas`);
	const counts = (await canvasLabels(page, [])).filter((l) => /^\d+ items?$/.test(l.text));
	const shown = counts.filter((l) => l.box.x > source.x + source.width && l.box.x + l.box.width < Math.min(...lefts)).map((l) => l.text);
	if (shown.length < expected) {
		throw new Error(`${wf.name}: the connections out of ${from} show ${JSON.stringify(shown)}; expected an item count on ${expected}`);
	}
	return shown;
}

/**
 * The box around the named nodes (what is drawn of them: the node, its handles and icons, the text of its
 * labels) and the connection labels between them. Not the boxes that hold them: a node's label box is twice
 * the node's width whatever its text, and a trigger's box holds the Execute button n8n shows only on hover.
 */
async function workingArea(page: Page, names: string[]): Promise<Box> {
	const boxes: Box[] = [];
	for (const name of names) {
		boxes.push(
			...(await canvasNode(page, name).evaluate((el: any) => {
				// No helper functions here: tsx wraps a named one in its `__name` helper, which the page does not have.
				const doc = el.ownerDocument;
				const view = doc.defaultView;
				const shapes = [...el.querySelectorAll('*')]
					.filter((e: any) => e.children.length === 0 && String(e.textContent ?? '').trim() === '')
					.map((e: any) => ({ owner: e, rect: e.getBoundingClientRect() }));
				const texts = doc.createTreeWalker(el, view.NodeFilter.SHOW_TEXT);
				for (let t = texts.nextNode(); t; t = texts.nextNode()) {
					if (String(t.textContent).trim() === '') continue;
					const range = doc.createRange();
					range.selectNodeContents(t);
					shapes.push({ owner: t.parentElement, rect: range.getBoundingClientRect() });
				}
				const rects = [el.getBoundingClientRect()];
				for (const { owner, rect } of shapes) {
					// Not the toolbar n8n shows over a node on hover: it is wider than the node and never in the picture.
					let drawn = !owner.closest('[data-test-id="canvas-node-toolbar"]');
					for (let a = owner; drawn && a && a !== el.parentElement; a = a.parentElement) {
						const style = view.getComputedStyle(a);
						drawn = style.display !== 'none' && style.visibility !== 'hidden' && Number(style.opacity) !== 0;
					}
					if (drawn) rects.push(rect);
				}
				return rects.filter((r: any) => r.width > 0 && r.height > 0).map((r: any) => ({ x: r.x, y: r.y, width: r.width, height: r.height }));
			})),
		);
	}
	const nodes = union(boxes);
	// Connection labels count when they sit between the nodes (not those of connections leading out of the picture).
	const inside = (await canvasLabels(page, [])).filter((l) => l.box.x >= nodes.x && l.box.x + l.box.width <= nodes.x + nodes.width);
	if (boxes.length === 0) throw new Error(`none of ${names.join(', ')} is on the canvas`);
	return union([nodes, ...inside.map((l) => l.box)]);
}

/**
 * Zooms and pans the canvas until the named nodes fill PICTURE_WIDTH less the margins and sit in the middle of
 * it. Over the canvas, ctrl + wheel zooms by 2^(-deltaY / 500) around the pointer and the wheel alone pans by
 * half its delta; everything is measured again after each step, so a few steps converge whatever the exact
 * factors.
 */
async function frame(page: Page, names: string[], margin: number): Promise<Box> {
	await page.getByTestId('zoom-to-fit').click();
	await page.waitForTimeout(500);
	const canvas = await page.getByTestId('canvas').boundingBox();
	if (!canvas) throw new Error('the canvas is not on the page');
	const middle = { x: canvas.x + canvas.width / 2, y: canvas.y + canvas.height / 2 };
	let area = await workingArea(page, names);
	for (let step = 0; step < 10; step++) {
		const factor = (PICTURE_WIDTH - 2 * margin) / area.width;
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
export const CHROME =
	'.vue-flow__panel, [data-test-id="canvas-controls"], [data-test-id="execute-workflow-button"], [data-test-id="logs-panel"], ' +
	'.el-notification, [data-test-id="floating-nodes"] { visibility: hidden !important; }';
/**
 * Sticky notes (the README says beside the picture what they say) and the nodes outside the picture, with
 * their connections, are left out of a canvas picture.
 */
function hidden(names: string[]): string {
	const shown = names.map((n) => `[data-node-name="${n}"]`).join(', ');
	return `.vue-flow__node:not(:has(${shown})) { visibility: hidden !important; }`;
}

/** The loose ends after the last nodes (the add button, the count on an output that leads nowhere) are left out. */
const LOOSE_ENDS = '[data-test-id="canvas-handle-plus-wrapper"], [class*="_runDataLabel_"] { display: none !important; }';

export interface CanvasPicture {
	png: Buffer;
	labels: DrawnLabel[];
	clipWidth: number;
}

/** A picture of the named nodes, PICTURE_WIDTH CSS px wide, with the labels drawn on them. */
export async function canvasPicture(page: Page, names: string[]): Promise<CanvasPicture> {
	const margin = 16;
	const looseEnds = await page.addStyleTag({ content: LOOSE_ENDS });
	const area = await frame(page, names, margin);
	const labels = (await canvasLabels(page, names)).filter(
		(l) => l.box.x >= area.x - 1 && l.box.x + l.box.width <= area.x + area.width + 1 && l.box.y >= area.y - 1 && l.box.y <= area.y + area.height,
	);
	const chrome = await page.addStyleTag({ content: CHROME + hidden(names) });
	// The count of a connection coming in from a node outside the picture is left out with that node.
	await page.getByTestId('edge-label').evaluateAll((els, box) => {
		for (const el of els as any[]) {
			const r = el.getBoundingClientRect();
			if (r.x + r.width / 2 < box.x || r.x + r.width / 2 > box.x + box.width) el.style.visibility = 'hidden';
		}
	}, area);
	const clip = {
		x: Math.round(area.x + area.width / 2 - PICTURE_WIDTH / 2),
		y: Math.round(area.y - margin),
		width: PICTURE_WIDTH,
		height: Math.round(area.height + 2 * margin),
	};
	const png = await page.screenshot({ clip });
	await chrome.evaluate((el: any) => el.remove());
	await looseEnds.evaluate((el: any) => el.remove());
	await page.getByTestId('edge-label').evaluateAll((els) => els.forEach((el: any) => (el.style.visibility = '')));
	return { png, labels: labels.map(({ text, px }) => ({ text, px })), clipWidth: clip.width };
}
