/**
 * Case 49: secure by default in a real n8n. Publishing a trigger workflow whose credential has no Callback
 * Secret, a 15-character one, or no credential at all fails through n8n's own publish endpoint with the
 * node's message (the credential's "Callback Secret" field and how to fill it), and its Production URL is
 * not live; with Accept Callbacks Without a Secret on, the same workflow publishes.
 */
import { randomUUID } from 'node:crypto';

import { CREDENTIAL_TYPE, TRIGGER_TYPE } from '../../../dev/n8n/package';
import { assert, E2eContext } from '../context';

const REFUSAL = /Callbacks are accepted only with a Callback Secret: (set the Content Moderation API credential's|select a Content Moderation API credential and set its) "Callback Secret" field to 16 or more random characters/;

async function createCredential(ctx: E2eContext, name: string, callbackSecret: string): Promise<string> {
	const res = await ctx.stack.rest.request('POST', '/rest/credentials', {
		name,
		type: CREDENTIAL_TYPE,
		data: { baseUrl: ctx.mock.url, accessToken: ctx.mock.token, callbackSecret },
	});
	const id = res.json?.data?.id as string | undefined;
	assert(res.status === 200 && id, `POST /rest/credentials answered ${res.status}: ${res.text.slice(0, 300)}`);
	return id;
}

/** A saved workflow holding only the trigger; publishes it and returns n8n's answer and the webhook id. */
async function publishTrigger(ctx: E2eContext, name: string, credential: { id: string; name: string } | undefined, options: object = {}) {
	const webhookId = randomUUID();
	const node = {
		id: randomUUID(),
		name: 'Content Moderation Trigger',
		type: TRIGGER_TYPE,
		typeVersion: 2,
		position: [0, 0],
		webhookId,
		parameters: { options },
		...(credential ? { credentials: { [CREDENTIAL_TYPE]: credential } } : {}),
	};
	const saved = await ctx.stack.rest.request('POST', '/rest/workflows', { name, nodes: [node], connections: {}, settings: { executionOrder: 'v1' }, active: false });
	const workflow = saved.json?.data as { id: string; versionId: string } | undefined;
	assert(saved.status === 200 && workflow, `POST /rest/workflows answered ${saved.status}: ${saved.text.slice(0, 300)}`);
	const published = await ctx.stack.rest.request('POST', `/rest/workflows/${workflow.id}/activate`, { versionId: workflow.versionId });
	const live = await fetch(`${ctx.stack.webhookUrl}/webhook/${webhookId}/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"x-1","isSafe":true}' });
	return { status: published.status, text: published.text, live: live.status, workflowId: workflow.id };
}

export async function publishWithoutSecret(ctx: E2eContext): Promise<string> {
	const lines: string[] = [];
	const setups: Array<[string, string | undefined]> = [
		['no Callback Secret', ''],
		['a 15-character Callback Secret', 'cb-short/15char'],
		['no credential', undefined],
	];
	for (const [label, secret] of setups) {
		const name = `E2E publish refused: ${label}`;
		const credential = secret === undefined ? undefined : { id: await createCredential(ctx, name, secret), name };
		const answer = await publishTrigger(ctx, name, credential);
		const message = String(JSON.parse(answer.text)?.message ?? '');
		assert(answer.status >= 400 && REFUSAL.test(message), `${label}: publishing answered ${answer.status}: ${answer.text.slice(0, 400)}`);
		assert(answer.live === 404, `${label}: the refused trigger's Production URL answered ${answer.live}`);
		lines.push(`${label}: ${answer.status}`);
	}
	const name = 'E2E publish accepted: Accept Callbacks Without a Secret';
	const accepted = await publishTrigger(ctx, name, { id: await createCredential(ctx, name, ''), name }, { acceptWithoutSecret: true });
	assert(accepted.status === 200, `with the option, publishing answered ${accepted.status}: ${accepted.text.slice(0, 300)}`);
	// Live: the callback was answered by the trigger (its id is unknown to the service: read back, not trusted).
	assert(accepted.live === 200, `with the option, the Production URL answered ${accepted.live}`);
	await ctx.stack.rest.request('POST', `/rest/workflows/${accepted.workflowId}/deactivate`, {});
	return `${lines.join(', ')}; with Accept Callbacks Without a Secret: published`;
}
