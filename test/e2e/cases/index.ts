import { E2eContext } from '../context';
import { aiAgent } from './aiAgent';
import { allOperations } from './allOperations';
import { catalogue } from './catalogue';
import { credentialTest } from './credentialTest';
import { devLoop } from './devLoop';
import { deferredWithTrigger, wrongToken } from './deferred';
import { callbackBodies } from './callbackBodies';
import { editor } from './editor';
import { errorOutput } from './errorOutput';
import { atVolume, examplesRun } from './examples';
import { installedAsReadmeSays, restartKeepsData } from './installed';
import { nodesPanel } from './nodesPanel';
import { outputHint } from './outputHint';
import { publishWithoutSecret } from './publishing';
import { secrets } from './secrets';
import { mockCompletions, retryingSender, sequentialAcks } from './completions';
import { commentsByWebhook, textGuardrail } from './textModeration';
import { COUNT as SHARED_BURST, sharedLimiterBurst } from './sharedLimiter';
import { stopExecution } from './stopExecution';
import { waitForCallback, waitForCallbackAcrossRestart } from './waitForCallback';
import { waitForCallbackTimeout } from './waitTimeout';

export interface E2eCase {
	id: number;
	name: string;
	/** Throws on failure; returns a short detail line. */
	run(ctx: E2eContext): Promise<string | void>;
	/** It restarts n8n or kills one of its processes: the cases running in the background end first. */
	restarts?: true;
}

/** Every case, by id; which suite runs which, in what order, is suites.ts. */
export const cases: E2eCase[] = [
	{ id: 1, name: 'every action node operation in one run, started as the editor\'s Execute button does', run: allOperations },
	{ id: 2, name: 'deferred moderation delivered to the published trigger', run: deferredWithTrigger },
	{ id: 3, name: 'callback with a wrong token: 401, no execution', run: wrongToken },
	{ id: 5, name: 'node catalogue lists both nodes and the credential with icons; n8n serves the output schemas of their one version', run: catalogue },
	{ id: 6, name: 'editor in headless Chromium: icons, panels, every resource/operation', run: editor },
	{ id: 7, name: 'the other example workflows run as documented, the human review loop (08, 08b) included', run: examplesRun },
	{ id: 8, name: "the credential's Test button through n8n's REST credential test", run: credentialTest },
	{
		id: 9,
		name: 'callback secret: a spec-shaped callback without id starts the trigger, a wrong secret gets 401, the secret is in no database file or export',
		run: secrets,
	},
	{ id: 10, name: "installed with the README's lines: no peer beside it, n8n's API-version rule and n8n-workflow exports", run: installedAsReadmeSays },
	{ id: 11, name: "n8n's AI Agent calls the node as a tool (Chat Completions and Responses API; a user message through Text > Moderate)", run: aiAgent },
	{ id: 12, name: 'Wait for Callback: the execution waits, nothing is read, the callbacks resume it', run: waitForCallback },
	{ id: 13, name: 'Wait for Callback: n8n restarted while the execution waits, then resumed', run: waitForCallbackAcrossRestart, restarts: true },
	{ id: 14, name: 'Wait for Callback: at the Wait Timeout n8n passes the inputs to Timed Out', run: waitForCallbackTimeout },
	{
		id: 16,
		name: `${SHARED_BURST} callbacks at once, each execution reads its result from a service limited to 20/s: one limiter per n8n process`,
		run: (ctx) => sharedLimiterBurst(ctx, 'regular mode, reads limited to 20/s'),
	},
	{ id: 17, name: 'Text > Moderate (POST /text): the chat guardrail example routes safe, flagged and review messages', run: textGuardrail },
	{ id: 18, name: 'Text > Moderate (POST /text): comments by webhook are stored as filteredContent', run: commentsByWebhook },
	{ id: 19, name: 'nodes panel in headless Chromium: each action listed once, the new trigger shows its Events, each node is named after its short action', run: nodesPanel },
	{ id: 41, name: 'an execution stopped in n8n gives its places in the shared limiter back at once; its waiting items are not sent', run: stopExecution },
	{ id: 40, name: '`npm run dev`: a saved change to a node description is listed by the running n8n without a restart; Ctrl-C stops it all', run: devLoop },
	{ id: 42, name: "the trigger: the mock's own callbacks for an image, a text and a review decision each start exactly one execution", run: mockCompletions },
	{
		id: 44,
		name: 'a retrying sender (5 s per attempt, 3 attempts), 200 completions at once: n8n\'s Webhook + Callback > Receive loses none and passes each on once; the trigger beside it starts one execution per completion that reached it, its loss reported (asserted none with lazy isolate acquisition)',
		run: (ctx) => retryingSender(ctx, 200),
	},
	{
		id: 48,
		name: 'JSON callbacks under any content type (text, form, octet-stream, a vendor type, none): the trigger starts one execution each; Wait for Callback reads them and resumes on octet-stream callbacks',
		run: callbackBodies,
	},
	{ id: 47, name: "example 09: n8n's Webhook + Callback > Receive publishes or holds by verdict, a repeat passes nothing on, the secret in none of Receive's items", run: atVolume },
	{ id: 45, name: "acknowledgement times one callback at a time: n8n's Webhook node and the trigger with its credential; a repeat starts nothing", run: (ctx) => sequentialAcks(ctx, 30) },
	{ id: 49, name: 'publishing a trigger whose credential has no Callback Secret of 16+ characters fails with the fix; Accept Callbacks Without a Secret publishes it', run: publishWithoutSecret },
	{ id: 50, name: 'On Error "Continue (using error output)": the error item goes to the Error output on n8n 2.x, stays on the regular output on 1.x', run: errorOutput },
	{ id: 51, name: "warnings under the node's output (Route by Verdict without a threshold; a localhost Callback URL with a public Base URL, none with a local one): in n8n's record of the execution and in the editor, opened on that execution in headless Chromium", run: outputHint },
	{ id: 15, name: 'n8n restarted with its data kept: package, credential and published trigger survive', run: restartKeepsData, restarts: true },
];

/**
 * Runs a phase's cases in their order; resolves with how many passed and failed. A case in `background`
 * starts in its turn and runs beside the cases after it (it mostly waits for n8n); a case that restarts n8n,
 * and the phase's end, wait for it.
 */
export async function runPhase(phase: { cases: number[]; background?: number[] }, all: E2eCase[], ctx: E2eContext): Promise<{ passed: number; failed: number }> {
	const results: boolean[] = [];
	let pending: Array<Promise<boolean>> = [];
	const settle = async () => {
		results.push(...(await Promise.all(pending)));
		pending = [];
	};
	for (const id of phase.cases) {
		const c = all.find((known) => known.id === id)!;
		if (c.restarts) await settle();
		const run = runCase(c, ctx);
		if (phase.background?.includes(id)) pending.push(run);
		else results.push(await run);
	}
	await settle();
	return { passed: results.filter(Boolean).length, failed: results.filter((ok) => !ok).length };
}

/** Runs one case and prints its PASS/FAIL line; resolves with whether it passed. */
export async function runCase(c: E2eCase, ctx: E2eContext): Promise<boolean> {
	const t0 = Date.now();
	try {
		const detail = await c.run(ctx);
		console.log(`PASS ${c.id}. ${c.name} (${((Date.now() - t0) / 1000).toFixed(1)}s)${detail ? ` - ${detail}` : ''}`);
		return true;
	} catch (e) {
		console.log(`FAIL ${c.id}. ${c.name} (${((Date.now() - t0) / 1000).toFixed(1)}s) - ${(e as Error).message}`);
		if (process.env.E2E_VERBOSE) console.log((e as Error).stack);
		return false;
	}
}
