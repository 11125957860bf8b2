/**
 * Wait for Callback's webhook(): resumes once every item has its result, else only answers. It never throws:
 * n8n would then resume the execution with its run data wiped (webhook-helpers executeWebhook).
 */
import type { IDataObject, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isObject } from '../../helpers/json';
import { createApiClient, type ApiClient } from '../../transport/client';
import type { ById } from '../../transport/endpoints';
import { parseEnvelope, RESULT_EVENT } from '../../inbound/envelope';
import { readCallbackBody } from '../../inbound/requestBody';
import { refuse } from '../../inbound/refusal';
import { redactValue } from '../../redaction/redact';
import { isCompletion } from '../../inbound/completion';
import { CALLBACK_READ_RETRY, isNotFound, withId } from '../../inbound/readBack';
import type { VerdictFacts } from '../../verdict/outputs';
import { runKey, waitMemory, type Outcome, type RunMemory } from './memory';
import { finalOutputs, readState, waitingId, type WaitState } from './state';
import { isItemKey, itemKey, ITEM_PARAM, KEY_PARAM, N8N_SIGNATURE_PARAM } from './urls';

/** Answered while this process resumes the run; n8n answers 409 once it runs. */
const RESUMING = 'This execution is being resumed; try this callback again';

/** What a waiting node reads: its verdict facts, and the endpoint its results are read back from. */
export type WaitTarget = { facts: VerdictFacts; read: ById };

/** One read of moderation `id`, by the callbacks' one rule (inbound/readBack.ts); never throws. */
export async function readResultOnce(read: ById, client: ApiClient, id: string, itemIndex: number): Promise<Outcome> {
	try {
		const response = await read(client, id, itemIndex);
		if (!isCompletion(response.statusCode, response.body)) return { pending: true };
		return { result: withId(id, response.body) };
	} catch (error) {
		if (isNotFound(error)) return { pending: true };
		const status = error instanceof NodeApiError && error.httpCode ? `HTTP ${error.httpCode}` : 'no answer';
		return { failed: `reading a result failed (${status})` };
	}
}

/** The waiting items this process does not know the result of, in input order. */
function unknownItems(state: WaitState, memory: RunMemory): Array<[number, string]> {
	const unknown: Array<[number, string]> = [];
	state.items.forEach((item, itemIndex) => {
		const id = waitingId(item);
		if (id !== undefined && memory.result(itemIndex, id) === undefined) unknown.push([itemIndex, id]);
	});
	return unknown;
}

/**
 * Reads other items' results up to the first not ready. Where they were submitted, only those refused before
 * (the sender may have given up); elsewhere (another process, a restart), every unknown one.
 */
async function readOthers(
	memory: RunMemory,
	unknown: Array<[number, string]>,
	readAll: boolean,
	readItem: (itemIndex: number, id: string) => Promise<Outcome>,
): Promise<Outcome | undefined> {
	for (const [itemIndex, id] of unknown) {
		if (memory.resumedAt !== undefined) return undefined;
		// A refused item is read once more per refusal: a read that finds it still pending does not mark it again.
		if (!readAll && !memory.refused.delete(itemIndex)) continue;
		const outcome = await memory.read(itemIndex, id, async () => await readItem(itemIndex, id));
		if (!('result' in outcome)) return outcome;
	}
	return undefined;
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
	if (!isItemKey(state.secret, itemIndex, query[KEY_PARAM]))
		return refuse(this, 401, 'Invalid key for this callback URL');

	const expectedId = waitingId(state.items[itemIndex]);
	// The service sends {event, data}; a flat result (older senders) reads as its data.
	const received = await readCallbackBody.call(this);
	const parsed = parseEnvelope(received.body, received.parsedJson);
	if ((parsed.event ?? RESULT_EVENT) !== RESULT_EVENT) {
		// The service sends a per-request URL only its completion (a review decision goes to the account's
		// webhook): any other event, with data or not, is refused, not retried, nothing read or echoed.
		return refuse(this, 422, `This URL takes only ${RESULT_EVENT} callbacks`);
	}
	const body = parsed.ok ? parsed.data : undefined;
	const bodyId = isObject(body) && typeof body.id === 'string' ? body.id : undefined;
	if (expectedId !== undefined && bodyId !== undefined && bodyId !== expectedId) {
		return refuse(this, 422, `This URL waits for moderation ${expectedId}, not the one the callback names`);
	}

	const key = runKey(this.getExecutionId(), this.getNode().name, state.deadline);
	const memory = waitMemory.run(key, state.deadline);
	if (memory.resumedAt !== undefined) return refuse(this, 503, RESUMING);
	const client = createApiClient(this, { retry: CALLBACK_READ_RETRY });
	// What is kept or output is masked first: the credential's secrets, the item's key, n8n's resume token.
	const signature = query[N8N_SIGNATURE_PARAM];
	const masked = async (index: number, result: IDataObject) =>
		redactValue(result, [...(await client.credentialSecrets()), itemKey(state.secret, index), signature]);
	const readItem = async (index: number, id: string): Promise<Outcome> => {
		const outcome = await readResultOnce(read, client, id, index);
		return 'result' in outcome ? { result: await masked(index, outcome.result) } : outcome;
	};

	// This callback's own result: from its body when complete (inbound/completion.ts), else read once (by this process).
	if (expectedId !== undefined && memory.result(itemIndex, expectedId) === undefined) {
		if (body !== undefined && bodyId === expectedId && isCompletion(200, body)) {
			memory.remember(itemIndex, expectedId, await masked(itemIndex, body));
		} else {
			const own = await memory.read(itemIndex, expectedId, async () => await readItem(itemIndex, expectedId));
			if (!('result' in own)) {
				// Not known, so not remembered: the sender is asked to call again, and a later callback may read it.
				memory.refused.add(itemIndex);
				const why = 'failed' in own ? own.failed : 'the result is not ready yet';
				return refuse(this, 503, `This callback's moderation could not be completed: ${why}; try this callback again`);
			}
		}
	}

	const resumer = state.resumer;
	if (resumer !== undefined && resumer !== itemIndex) {
		// Not the one callback allowed to resume here (n8n 1.x): acknowledged.
		return { webhookResponse: { received: true, resumed: false, waitingFor: `the callback of item ${resumer}` } };
	}
	const readAll = !memory.watched || resumer === itemIndex;
	const stopped = await readOthers(memory, unknownItems(state, memory), readAll, readItem);
	// 503 makes the service retry this callback later, when the results may be readable.
	if (stopped !== undefined && 'failed' in stopped)
		return refuse(this, 503, `Other results could not be read: ${stopped.failed}; try this callback again`);
	const credentialSecrets = await client.credentialSecrets();
	// Checked again after every await: another callback may have resumed the run meanwhile.
	if (memory.resumedAt !== undefined) return refuse(this, 503, RESUMING);
	const unknown = unknownItems(state, memory);
	if (unknown.length > 0) {
		// The resuming callback must come again: a non-2xx answer makes the service retry it later.
		if (resumer === itemIndex) return refuse(this, 503, 'Other results are not ready yet; try this callback again');
		return { webhookResponse: { received: true, resumed: false, waitingFor: unknown[0][1] } };
	}

	const secrets = [...credentialSecrets, query[KEY_PARAM], signature];
	const outputs = finalOutputs(this.getNode(), facts, state, (index, id) => memory.result(index, id), inputItems(this));
	waitMemory.resume(key);
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
