/**
 * The webhook() side of Wait for Callback: n8n calls it when the service POSTs to an item's callback URL
 * while the execution waits. It resumes the execution once every item has its result; otherwise it only
 * answers, and the execution stays waiting in n8n's database.
 *
 * It never throws: n8n would then resume the execution with its run data wiped (webhook-helpers
 * executeWebhook). Refusals are written here and returned as `noWebhookResponse`.
 */
import type { IDataObject, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isObject } from '../../helpers/json';
import { createApiClient, type ApiClient, type ApiResponse } from '../../transport/client';
import { parseEnvelope, RESULT_EVENT } from '../../inbound/envelope';
import { readCallbackBody } from '../../inbound/requestBody';
import { refuse } from '../../inbound/refusal';
import { redactValue } from '../../redaction/redact';
import type { RetrySettings } from '../../retry/policy';
import type { VerdictFacts } from '../../verdict/outputs';
import { hasAnalysis } from '../../verdict/rules';
import { isResultReady } from '../poll';
import { finalOutputs } from './outputs';
import type { WaitState } from './state';
import { readState, waitingId } from './state';
import { isItemKey, ITEM_PARAM, KEY_PARAM, N8N_SIGNATURE_PARAM } from './urls';

/** A callback waits for its answer: reads are retried once, briefly (as in the trigger). */
const CALLBACK_READ_RETRY: RetrySettings = { maxRetries: 1, baseDelayMs: 200, maxDelayMs: 2_000 };

/** What a waiting node reads: its verdict facts, and the endpoint its results are read back from. */
export interface WaitTarget {
	facts: VerdictFacts;
	read(client: ApiClient, id: string, itemIndex?: number): Promise<ApiResponse<IDataObject>>;
}

type Reading = { ready: Map<number, IDataObject> } | { pending: string } | { failed: string };

/** Results of the waiting items, read back in input order; stops at the first that is not ready. */
async function readResults(
	read: WaitTarget['read'],
	client: ApiClient,
	state: WaitState,
	known: Map<number, IDataObject>,
): Promise<Reading> {
	const ready = new Map(known);
	for (let itemIndex = 0; itemIndex < state.items.length; itemIndex++) {
		const id = waitingId(state.items[itemIndex]);
		if (id === undefined || ready.has(itemIndex)) continue;
		try {
			const response = await read(client, id, itemIndex);
			if (!isResultReady(response.statusCode, response.body)) return { pending: id };
			// An image result read back has no id (API reference): the one waited for is added.
			ready.set(itemIndex, response.body.id === undefined ? { id, ...response.body } : response.body);
		} catch (error) {
			// The id came from the service: a 404 means "not stored yet", as in Deferred and Wait.
			if (error instanceof NodeApiError && error.httpCode === '404') return { pending: id };
			const status = error instanceof NodeApiError && error.httpCode ? `HTTP ${error.httpCode}` : 'no answer';
			return { failed: `Reading moderation ${id} failed (${status})` };
		}
	}
	return { ready };
}

/** `$input.all()` of the waiting node: the items it was given, for Keep Input Data. */
function inputItems(ctx: IWebhookFunctions): INodeExecutionData[] {
	const value = ctx.evaluateExpression('{{ $input.all() }}');
	return Array.isArray(value) ? (value as unknown as INodeExecutionData[]) : [];
}

async function handle(this: IWebhookFunctions, { facts, read }: WaitTarget): Promise<IWebhookResponseData> {
	const state = readState(this);
	if (state === undefined) return refuse(this, 404, 'No moderation of this node waits in this execution');

	const query = this.getQueryData() as IDataObject;
	const itemIndex = Number(query[ITEM_PARAM]);
	if (!Number.isInteger(itemIndex) || itemIndex < 0 || itemIndex >= state.items.length) {
		return refuse(this, 404, 'Unknown item: this execution sent no moderation with that callback URL');
	}
	if (!isItemKey(state.secret, itemIndex, query[KEY_PARAM])) {
		return refuse(this, 401, 'Invalid key for this callback URL');
	}

	const expectedId = waitingId(state.items[itemIndex]);
	// The service sends {event, data}; a flat result (older senders) reads as its data.
	const received = await readCallbackBody.call(this);
	const parsed = parseEnvelope(received.body, received.parsedJson);
	if (parsed.ok && parsed.envelope.event !== RESULT_EVENT) {
		// Not a result (a review decision goes to the account's webhook, not here): acknowledged, nothing read.
		// The answer echoes nothing the call carried (it is not read for secrets before it leaves).
		return { webhookResponse: { received: true, resumed: false, ignored: `not a ${RESULT_EVENT} callback` } };
	}
	const body = parsed.ok ? parsed.envelope.data : undefined;
	const bodyId = isObject(body) && typeof body.id === 'string' ? body.id : undefined;
	if (expectedId !== undefined && bodyId !== undefined && bodyId !== expectedId) {
		return refuse(this, 422, `This URL waits for moderation ${expectedId}, not the one the callback names`);
	}

	const resumer = state.resumer;
	if (resumer !== undefined && resumer !== itemIndex) {
		// Not the one callback allowed to resume here (n8n 1.x): acknowledged, nothing read.
		return { webhookResponse: { received: true, resumed: false, waitingFor: `the callback of item ${resumer}` } };
	}

	// The callback's own result counts when it is complete; every other one is read back.
	const known = new Map<number, IDataObject>();
	if (expectedId !== undefined && bodyId === expectedId && hasAnalysis(body as IDataObject)) {
		known.set(itemIndex, body as IDataObject);
	}
	const client = createApiClient(this, { retry: CALLBACK_READ_RETRY });
	const reading = await readResults(read, client, state, known);
	// 503 makes the service retry this callback later, when the results may be readable.
	if ('failed' in reading) return refuse(this, 503, `${reading.failed}; try this callback again`);
	if ('pending' in reading) {
		// The resuming callback must come again: a non-2xx answer makes the service retry it later.
		if (resumer === itemIndex) return refuse(this, 503, `Moderation ${reading.pending} is not ready yet; try this callback again`);
		return { webhookResponse: { received: true, resumed: false, waitingFor: reading.pending } };
	}

	// The callback's own body goes into the outputs: masked with the credential's secrets (read now when no
	// result was read) and what the URL carries that opens this execution.
	const secrets = [...(await client.credentialSecrets()), query[KEY_PARAM], query[N8N_SIGNATURE_PARAM]];
	const outputs = finalOutputs(this.getNode(), facts, state, reading.ready, inputItems(this));
	return {
		webhookResponse: { received: true, resumed: true },
		workflowData: outputs.map((items) => items.map((item) => ({ ...item, json: redactValue(item.json, secrets) }))),
	};
}

export async function handleWaitCallback(this: IWebhookFunctions, target: WaitTarget): Promise<IWebhookResponseData> {
	try {
		return await handle.call(this, target);
	} catch {
		// Whatever went wrong (a credential that cannot be read, an expression engine error): answer so that
		// the service retries, and keep the execution waiting.
		if (this.getResponseObject().headersSent) return { noWebhookResponse: true };
		return refuse(this, 503, 'The callback could not be processed; try it again');
	}
}
