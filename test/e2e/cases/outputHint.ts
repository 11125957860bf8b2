/**
 * Case 51: warnings the node adds under its output (execution hints) as n8n shows them.
 * - No threshold: Image > Moderate with Route by Verdict and no threshold; n8n's record of the execution holds
 *   that hint (and no localhost one: the credential's Base URL is the mock on 127.0.0.1, a local host).
 * - Localhost: Image > Moderate, Mode Deferred, Callback URL http://localhost:5678/webhook/x/callback, with a
 *   second credential whose Base URL is the vendor's public https://api.contentmod.io. This machine has no
 *   network, so the request fails; the node's On Error is "Continue (regular output)", so the run succeeds
 *   with an error item and n8n keeps the hint (it keeps none for a failed node run).
 * The editor, opened on each execution in headless Chromium, shows the hint in the node's output pane.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';

import { EditorLogin, EditorSession, TIMEOUT, withEditor } from '../../../dev/n8n/editor';
import { CREDENTIAL_TYPE } from '../../../dev/n8n/package';
import { importIntoN8n } from '../../../dev/n8n/stack';
import { runManually } from '../../../dev/n8n/summary';
import { assert, E2eContext } from '../context';

export const HINT_WORKFLOW = 'cmE2eHintNoThr01';
export const LOCALHOST_WORKFLOW = 'cmE2eHintLocal01';
const LOCALHOST_FILE = join(__dirname, '..', 'workflows', 'hint-localhost.json');
/** The second credential: the vendor's public address, which this machine cannot reach. */
const PUBLIC_CREDENTIAL = { id: 'cmCredPublic0001', name: 'Content Moderation (public Base URL)', baseUrl: 'https://api.contentmod.io' };
const NODE = 'Moderate';
const HINT = "Route by Verdict has no threshold set: only the service's isSafe and suggestedActions.reject decide what is Flagged.";
const LOCALHOST_HINT = 'The Callback URL points at localhost, which the service at api.contentmod.io cannot reach: its callbacks will never arrive.';
/** What marks the localhost warning, whatever the callback's host. */
const LOCALHOST_MARK = 'cannot reach: its callbacks will never arrive';

type Hint = { message: string; location?: string };

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

/** Opens the execution, then the node's panel, and returns the hint's text as shown and a screenshot. */
async function hintShown(
	{ page, shot }: EditorSession,
	executionUrl: string,
	hintText: string,
	screenshotName: string,
): Promise<{ shown: string; screenshot: string }> {
	await page.goto(executionUrl, { timeout: 90_000 });
	const canvas = await canvasOf(page);
	await canvas.locator(`[data-test-id="canvas-node"][data-node-name="${NODE}"]`).dblclick();
	const hint = canvas.getByText(hintText.slice(0, 60));
	await hint.first().waitFor({ state: 'visible', timeout: TIMEOUT });
	const shown = (await hint.first().innerText()).trim();
	return { shown, screenshot: await shot(screenshotName) };
}

async function hintsInEditor(
	login: EditorLogin,
	runs: Array<{ url: string; hint: string; screenshot: string }>,
): Promise<Array<{ shown: string; screenshot: string }>> {
	return await withEditor(login, 'output-hint', async (session) => {
		const seen: Array<{ shown: string; screenshot: string }> = [];
		for (const run of runs) seen.push(await hintShown(session, run.url, run.hint, run.screenshot));
		assert(session.consoleErrors.length === 0, `browser console errors: ${session.consoleErrors.slice(0, 3).join(' | ')}`);
		return seen;
	});
}

async function recordedHints(ctx: E2eContext, workflowId: string): Promise<{ id: number; hints: Hint[]; run: any }> {
	const id = await runManually(ctx.stack.rest, ctx.db, workflowId, 180_000);
	const run = await ctx.db.execution(id);
	assert(run.status === 'success', `execution #${id} of ${workflowId}: status ${run.status}`);
	return { id, hints: run.raw.resultData.runData[NODE]?.[0]?.hints ?? [], run };
}

/**
 * The second credential, and the localhost workflow imported again as written: the stack's import rewrites
 * http://localhost:5678 (the examples' n8n address) to this n8n's own, http://127.0.0.1:<port>.
 */
async function importLocalhostWorkflow(ctx: E2eContext): Promise<void> {
	const credential = {
		id: PUBLIC_CREDENTIAL.id,
		name: PUBLIC_CREDENTIAL.name,
		type: CREDENTIAL_TYPE,
		data: { baseUrl: PUBLIC_CREDENTIAL.baseUrl, accessToken: 'e2e-unreachable-token', callbackSecret: ctx.stack.callbackSecret },
	};
	await importIntoN8n(ctx.stack.n8n, [credential], [JSON.parse(readFileSync(LOCALHOST_FILE, 'utf8'))]);
}

export async function outputHint(ctx: E2eContext): Promise<string> {
	const noThreshold = await recordedHints(ctx, HINT_WORKFLOW);
	assert(
		noThreshold.hints.length === 1 && noThreshold.hints[0].message.startsWith(HINT) && noThreshold.hints[0].location === 'outputPane',
		`n8n recorded the hints ${JSON.stringify(noThreshold.hints)}`,
	);
	assert(
		!noThreshold.hints.some((h) => h.message.includes(LOCALHOST_MARK)),
		`a local Base URL got the localhost hint: ${JSON.stringify(noThreshold.hints)}`,
	);

	await importLocalhostWorkflow(ctx);
	const localhost = await recordedHints(ctx, LOCALHOST_WORKFLOW);
	const items = localhost.run.raw.resultData.runData[NODE]?.[0]?.data?.main?.[0] ?? [];
	assert(
		items.length === 1 && items[0].json?.error !== undefined,
		`expected one error item (the unreachable service), got ${JSON.stringify(items).slice(0, 300)}`,
	);
	assert(
		localhost.hints.length === 1 && localhost.hints[0].message.startsWith(LOCALHOST_HINT) && localhost.hints[0].location === 'outputPane',
		`n8n recorded the hints ${JSON.stringify(localhost.hints)}`,
	);

	const login = { url: ctx.stack.n8n.url, email: ctx.stack.owner.email, password: ctx.stack.owner.password, log: ctx.log };
	const [a, b] = await hintsInEditor(login, [
		{ url: `/workflow/${HINT_WORKFLOW}/executions/${noThreshold.id}`, hint: HINT, screenshot: 'output-hint' },
		{ url: `/workflow/${LOCALHOST_WORKFLOW}/executions/${localhost.id}`, hint: LOCALHOST_HINT, screenshot: 'output-hint-localhost' },
	]);
	return (
		`execution #${noThreshold.id}: n8n recorded the hint (no localhost one) and the editor shows "${a.shown.slice(0, 70)}…" (${a.screenshot}); ` +
		`execution #${localhost.id} (public Base URL, error item): n8n recorded the localhost hint and the editor shows "${b.shown.slice(0, 70)}…" (${b.screenshot})`
	);
}
