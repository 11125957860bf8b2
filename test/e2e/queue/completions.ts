/**
 * Queue case 46: where the trigger's memory of started completions ends. Each n8n process remembers its
 * own; main also answers production webhooks in queue mode (unless N8N_DISABLE_PRODUCTION_MAIN_PROCESS), so
 * one completion delivered to the webhook processor and to main starts two executions, while the same
 * process twice starts one. Read from n8n's records.
 */
import { randomUUID } from 'node:crypto';

import { sleep, waitFor } from '../../../dev/wait';
import { COMPLETIONS_V3 } from '../cases/completions';
import { callbackUrl } from '../cases/deferred';
import { assert } from '../context';
import type { QueueContext } from './cases';

async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
	const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	return { status: res.status, text: await res.text() };
}

export async function completionAcrossProcesses(ctx: QueueContext): Promise<string> {
	const onProcessor = callbackUrl(ctx, ctx.stack.callbackSecret, COMPLETIONS_V3);
	const onMain = onProcessor.replace(ctx.stack.webhookUrl, ctx.stack.n8n.url);
	assert(onMain !== onProcessor, `main and the webhook processor share a URL (${onMain})`);
	const before = (await ctx.db.executions(COMPLETIONS_V3.id)).length;
	const body = {
		event: 'queue.review.completed',
		data: { id: randomUUID(), status: 'accepted', accepted: true, type: 'text', content: 'across processes' },
	};
	const answers = [await post(onProcessor, body), await post(onProcessor, body), await post(onMain, body), await post(onMain, body)];
	assert(answers.every((a) => a.status === 200), `answers ${answers.map((a) => a.status)}`);
	const duplicate = answers.map((a) => /"duplicate":true/.test(a.text));
	assert(JSON.stringify(duplicate) === JSON.stringify([false, true, false, true]), `duplicate answers ${JSON.stringify(duplicate)}`);
	const rows = await waitFor('2 executions', async () => {
		const all = (await ctx.db.executions(COMPLETIONS_V3.id)).slice(before);
		return all.length >= 2 && all.every((r) => !['new', 'running', 'waiting'].includes(r.status)) ? all : undefined;
	}, 60_000, 300);
	await sleep(1500);
	const after = (await ctx.db.executions(COMPLETIONS_V3.id)).length - before;
	assert(after === 2, `${after} executions (expected one per process: 2)`);
	return `same completion: webhook processor twice -> 1 execution, main twice -> 1 more (${rows.length} in all): the memory is per process`;
}
