/**
 * Case 49: secure by default in a real n8n. Publishing a trigger workflow whose credential has no Callback
 * Secret, a 15-character one, or no credential at all fails through n8n's own publish endpoint with the
 * node's message (the credential's "Callback Secret" field and how to fill it), and its Production URL is
 * not live; with Accept Callbacks Without a Secret on, the same workflow publishes.
 */
import { randomUUID } from 'node:crypto';

import { CREDENTIAL_TYPE, TRIGGER_TYPE } from '../../../dev/n8n/package';
import { waitFor } from '../../../dev/wait';
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

/**
 * n8n's verdict on publishing `workflowId`: n8n 2.41 answers the publish request at once and sets the
 * triggers up from its publication outbox (N8N_USE_WORKFLOW_PUBLICATION_SERVICE, on by default), so the
 * outcome is read from `/publication-status` (what the editor's publish status shows); n8n 1.x has no
 * such route and answers the request itself with the error.
 */
async function publicationOutcome(ctx: E2eContext, workflowId: string, answer: { status: number; text: string }): Promise<{ ok: boolean; message: string }> {
	if (answer.status !== 200) return { ok: false, message: String(JSON.parse(answer.text)?.message ?? answer.text) };
	const settled = await waitFor(
		`workflow ${workflowId}'s publication to settle`,
		async () => {
			const res = await ctx.stack.rest.request('GET', `/rest/workflows/${workflowId}/publication-status`);
			// n8n 1.x has no such route (its SPA answers 404): there the publish request's 200 was the outcome.
			if (res.status === 404) return { status: 'published', triggers: [] };
			const status = res.json?.data as { status: string; triggers: Array<{ errorMessage: string | null }> } | undefined;
			return status && status.status !== 'in_progress' && status.status !== 'not_published' ? status : undefined;
		},
		90_000,
		500,
	);
	return { ok: settled.status === 'published', message: settled.triggers.map((t) => t.errorMessage ?? '').join(' ') };
}

/** A saved workflow holding only the trigger; publishes it and returns n8n's verdict and whether its URL is live. */
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
	const answer = await ctx.stack.rest.request('POST', `/rest/workflows/${workflow.id}/activate`, { versionId: workflow.versionId });
	const outcome = await publicationOutcome(ctx, workflow.id, answer);
	const live = await deliver(ctx, webhookId, { id: 'x-1', isSafe: true });
	return { ...outcome, live: live.status, webhookId, workflowId: workflow.id };
}

/** An unsigned callback to the trigger's Production URL. */
async function deliver(ctx: E2eContext, webhookId: string, body: object): Promise<{ status: number; text: string }> {
	const res = await fetch(`${ctx.stack.webhookUrl}/webhook/${webhookId}/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	return { status: res.status, text: await res.text() };
}

/** A finished image moderation the mock holds, made as a client would (deferred: only then is there an id). */
async function moderation(ctx: E2eContext): Promise<string> {
	const headers = { 'content-type': 'application/json', authorization: `Bearer ${ctx.mock.token}` };
	const res = await fetch(`${ctx.mock.url}/image`, { method: 'POST', headers, body: JSON.stringify({ image: 'https://images.example.com/e2e-49.jpg', options: { defer: true } }) });
	const id = ((await res.json()) as { id?: string }).id;
	assert(res.status === 200 && id, `mock POST /image answered ${res.status} without an id`);
	await waitFor(`moderation ${id} to finish`, async () => ((await fetch(`${ctx.mock.url}/image/${id}`, { headers })).status === 200 ? true : undefined), 30_000, 100);
	return id;
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
		const outcome = await publishTrigger(ctx, name, credential);
		assert(!outcome.ok && REFUSAL.test(outcome.message), `${label}: publishing ${outcome.ok ? 'succeeded' : `failed with "${outcome.message}"`}`);
		assert(outcome.live === 404, `${label}: the refused trigger's Production URL answered ${outcome.live}`);
		lines.push(`${label}: refused`);
	}
	const name = 'E2E publish accepted: Accept Callbacks Without a Secret';
	const accepted = await publishTrigger(ctx, name, { id: await createCredential(ctx, name, ''), name }, { acceptWithoutSecret: true });
	assert(accepted.ok, `with the option, publishing failed: ${accepted.message}`);
	// Live, and an unsigned callback is read back, not trusted: an id the service does not hold is refused by
	// the trigger itself (n8n's own 404 for an unregistered URL names the webhook), one it holds is accepted.
	assert(accepted.live === 404, `with the option, a callback for an id the service does not hold answered ${accepted.live}`);
	const unknown = await deliver(ctx, accepted.webhookId, { id: 'x-1', isSafe: true });
	assert(/has no result x-1/.test(unknown.text), `with the option, the 404 was not the trigger's: ${unknown.text.slice(0, 200)}`);
	const known = await deliver(ctx, accepted.webhookId, { id: await moderation(ctx), isSafe: false });
	assert(known.status === 200 && !/ignored/.test(known.text), `with the option, a callback for a moderation the service holds answered ${known.status}: ${known.text.slice(0, 200)}`);
	await ctx.stack.rest.request('POST', `/rest/workflows/${accepted.workflowId}/deactivate`, {});
	return `${lines.join(', ')} (message: the credential's "Callback Secret" field, 16+ characters); with Accept Callbacks Without a Secret: published, an unknown id refused by the trigger (404), a held one accepted (200)`;
}
