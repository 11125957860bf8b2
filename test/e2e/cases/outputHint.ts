/**
 * Case 51: a warning the node adds under its output (an execution hint) as n8n shows it. The workflow runs
 * Image > Moderate with Route by Verdict and no threshold; n8n's record of the execution holds the hint, and
 * the editor, opened on that execution in headless Chromium, shows it in the node's output pane.
 */
import type { Frame, Page } from 'playwright-core';

import { EditorLogin, TIMEOUT, withEditor } from '../../../dev/n8n/editor';
import { runManually } from '../../../dev/n8n/summary';
import { assert, E2eContext } from '../context';

export const HINT_WORKFLOW = 'cmE2eHintNoThr01';
const NODE = 'Moderate';
const HINT = "Route by Verdict has no threshold set: only the service's isSafe and suggestedActions.reject decide what is Flagged.";

/** The page or frame showing the execution's canvas (n8n may draw an execution's preview in an iframe). */
async function canvasOf(page: Page): Promise<Page | Frame> {
	const node = `[data-test-id="canvas-node"][data-node-name="${NODE}"]`;
	for (let waited = 0; waited < TIMEOUT; waited += 500) {
		for (const frame of [page, ...page.frames()]) {
			if ((await frame.locator(node).count()) > 0) return frame;
		}
		await page.waitForTimeout(500);
	}
	throw new Error(`no canvas shows the node "${NODE}"`);
}

async function hintInEditor(login: EditorLogin, executionUrl: string): Promise<{ shown: string; screenshot: string }> {
	return await withEditor(login, 'output-hint', async ({ page, shot, consoleErrors }) => {
		await page.goto(executionUrl, { timeout: 90_000 });
		const canvas = await canvasOf(page);
		await canvas.locator(`[data-test-id="canvas-node"][data-node-name="${NODE}"]`).dblclick();
		const hint = canvas.getByText(HINT.slice(0, 60));
		await hint.first().waitFor({ state: 'visible', timeout: TIMEOUT });
		const shown = (await hint.first().innerText()).trim();
		const screenshot = await shot('output-hint');
		assert(consoleErrors.length === 0, `browser console errors: ${consoleErrors.slice(0, 3).join(' | ')}`);
		return { shown, screenshot };
	});
}

export async function outputHint(ctx: E2eContext): Promise<string> {
	const id = await runManually(ctx.stack.rest, ctx.db, HINT_WORKFLOW, 180_000);
	const run = await ctx.db.execution(id);
	assert(run.status === 'success', `execution #${id} status ${run.status}`);
	const hints: Array<{ message: string; location?: string }> = run.raw.resultData.runData[NODE]?.[0]?.hints ?? [];
	assert(
		hints.length === 1 && hints[0].message.startsWith(HINT) && hints[0].location === 'outputPane',
		`n8n recorded the hints ${JSON.stringify(hints)}`,
	);
	const login = { url: ctx.stack.n8n.url, email: ctx.stack.owner.email, password: ctx.stack.owner.password, log: ctx.log };
	const { shown, screenshot } = await hintInEditor(login, `/workflow/${HINT_WORKFLOW}/executions/${id}`);
	return `execution #${id}: n8n recorded the hint and the editor shows "${shown.slice(0, 70)}…" under the output (${screenshot})`;
}
