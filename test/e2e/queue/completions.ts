/**
 * Queue case 46: the trigger's memory of started completions is per n8n process. This stack runs one
 * webhook processor and main with N8N_DISABLE_PRODUCTION_MAIN_PROCESS=true (main answers production
 * webhooks 404), so every delivery of a completion reaches the same process: repeated deliveries, at once
 * and one after another, start one execution. (With several processes taking production webhooks, each
 * would start its own: not tried here.) Read from n8n's records.
 */
import { randomUUID } from 'node:crypto';

import { sleep, waitFor } from '../../../dev/wait';
import { COMPLETIONS_TRIGGER } from '../cases/completions';
import { callbackUrl } from '../cases/deferred';
import { assert } from '../context';
import type { QueueContext } from './cases';

async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
	const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	return { status: res.status, text: await res.text() };
}

export async function completionAcrossProcesses(ctx: QueueContext): Promise<string> {
	const onProcessor = callbackUrl(ctx, ctx.stack.callbackSecret, COMPLETIONS_TRIGGER);
	const onMain = onProcessor.replace(ctx.stack.webhookUrl, ctx.stack.n8n.url);
	assert(onMain !== onProcessor, `main and the webhook processor share a URL (${onMain})`);
	const before = (await ctx.db.executions(COMPLETIONS_TRIGGER.id)).length;
	const body = {
		event: 'queue.review.completed',
		data: { id: randomUUID(), status: 'accepted', accepted: true, type: 'text', content: 'one process' },
	};
	const atOnce = await Promise.all(Array.from({ length: 5 }, async () => await post(onProcessor, body)));
	const later = [await post(onProcessor, body), await post(onProcessor, body)];
	const main = await post(onMain, body);
	const answers = [...atOnce, ...later];
	assert(answers.every((a) => a.status === 200), `answers ${answers.map((a) => a.status)}`);
	const duplicates = answers.filter((a) => /"duplicate":true/.test(a.text)).length;
	assert(duplicates === 6, `${duplicates} of 7 answers said duplicate (expected 6)`);
	assert(main.status === 404, `main answered a production webhook ${main.status} (this stack disables them there)`);
	await waitFor('1 execution', async () => {
		const all = (await ctx.db.executions(COMPLETIONS_TRIGGER.id)).slice(before);
		return all.length >= 1 && all.every((r) => !['new', 'running', 'waiting'].includes(r.status)) ? all : undefined;
	}, 60_000, 300);
	await sleep(2000);
	const after = (await ctx.db.executions(COMPLETIONS_TRIGGER.id)).length - before;
	assert(after === 1, `${after} executions for one completion delivered 7 times`);
	return 'one completion delivered 7 times (5 at once, 2 after) to the webhook processor: 1 execution, 6 answered duplicate; main answers production webhooks 404 here';
}
