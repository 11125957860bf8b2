import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { createApiClient, CREDENTIAL_TYPE } from '../transport/client';
import { redactionFor, type Redaction } from '../redaction/redact';

import { parseCallback, RESULT_EVENT, resultKind, REVIEW_EVENT } from '../inbound/envelope';
import { completionKey, deliveries, deliveryKey, type Claim, type Taken } from '../inbound/deliveries';
import { CALLBACK_READ_RETRY, CALLBACK_READS_END_MS, completeResult } from '../inbound/readBack';
import { refuse } from '../inbound/refusal';
import { readCallbackBody } from '../inbound/requestBody';
import { TEST_URL_NOTE } from '../inbound/secretRule';
import { tokensInUrl } from '../helpers/urlTokens';
import { givenTokenStrings, redactHeaders, redactQuery } from '../inbound/token';

import type { EventFilter, EventSelection } from './events';
import { eventIgnoreReason, ignoreReason } from './events';
import { executionStarted } from './executionStarted';
import { checkSecret } from './secretCheck';

/** How long a delivery waits while another delivery of its completion is handled (a read, n8n's answer). */
const REPEAT_WAIT_MS = 4_000;

/** This trigger: its workflow and webhook (a rename keeps both). */
function triggerScope(ctx: IWebhookFunctions): string[] {
	const node = ctx.getNode();
	return [String(ctx.getWorkflow().id ?? ''), node.webhookId ?? node.id];
}

function secretOwner(ctx: IWebhookFunctions): string {
	const credential = ctx.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? '';
	return deliveryKey([...triggerScope(ctx), String(credential)]);
}

const UNREADABLE_WITHOUT_SECRET =
	'Accepted without a Callback Secret, only a moderation result with an id is taken (it is read back from the service); review decisions and other events need the Callback Secret';

/**
 * One completion callback, authenticated first: one already started is answered `duplicate: true`; one that
 * starts nothing (filtered out, failed) does not hold back a later delivery.
 */
export async function handleCallback(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const headers = this.getHeaderData() as IDataObject;
	const query = this.getQueryData() as IDataObject;
	// The credential (when selected) gives the Callback Secret and reads full results.
	const hasCredential = this.getNode().credentials?.[CREDENTIAL_TYPE] !== undefined;
	const signal = AbortSignal.timeout(CALLBACK_READS_END_MS);
	const client = hasCredential ? createApiClient(this, { retry: CALLBACK_READ_RETRY, signal }) : undefined;
	const checked = await checkSecret(this, client, secretOwner(this), query, headers);
	if ('refused' in checked) return checked.refused;
	// What leaves is redacted of the credential's secrets and of every token the call carried (checked or not).
	const carried = givenTokenStrings(query, headers);
	const redaction = (extra: string[] = []): Redaction =>
		checked.credential?.redaction([...carried, ...extra]) ?? redactionFor([...carried, ...extra]);

	const received = await readCallbackBody.call(this);
	const parsed = parseCallback(received.body, received.parsedJson);
	if (!parsed.ok) {
		// An unknown event without a data object is acknowledged; it starts nothing, even under Every Event.
		if (parsed.event !== undefined && parsed.event !== RESULT_EVENT && parsed.event !== REVIEW_EVENT) {
			const ignored = `event "${parsed.event}" carries no data object`;
			return { webhookResponse: redaction().value({ received: true, event: parsed.event, ignored }) };
		}
		return refuse(this, 400, redaction().text(parsed.message));
	}
	const { event, body } = parsed;
	const ack: IDataObject = { received: true, event, id: body.id };
	const notSelected = eventIgnoreReason(this.getNodeParameter('eventTypes', 'both') as EventSelection, event);
	if (notSelected !== undefined) return { webhookResponse: redaction().value({ ...ack, ignored: notSelected }) };

	// Per trigger: two workflows receiving one completion each start theirs.
	const key = body.id === null ? undefined : completionKey(triggerScope(this), event, { ...body, id: body.id });
	let claim: Claim | Taken | undefined = key === undefined ? undefined : deliveries.claim(key);
	try {
		if (claim?.kind === 'inFlight') claim = await deliveries.claimWhenFree(key as string, REPEAT_WAIT_MS);
		if (claim?.kind === 'busy')
			return refuse(this, 503, 'Another delivery of this completion is being handled; try this callback again');
		if (claim?.kind === 'duplicate') return { webhookResponse: redaction().value({ ...ack, duplicate: true }) };

		// Accepted without a secret by the option: only a result can be read back instead of trusted from the call.
		const distrust = checked.standing === 'readBack';
		if (distrust && (event !== RESULT_EVENT || body.id === null)) return refuse(this, 401, UNREADABLE_WITHOUT_SECRET);
		// Only results are read back; a review decision (a queue item) or another event passes as it came.
		const kind = event === RESULT_EVENT ? resultKind(body) : 'queueItem';
		const fetchFullResult = distrust || (this.getNodeParameter('fetchFullResult', true) as boolean);
		const completed = await completeResult(body, fetchFullResult ? client : undefined, kind, distrust);
		// Not complete: nothing starts or is recorded (422: no read can help); a signed call's failed read is logged too.
		if ('unfinished' in completed) {
			const why = redaction(client?.secrets).text(completed.unfinished);
			if (completed.failedRead && !distrust) this.logger.warn(why.replace(/[\p{Cc}\u2028\u2029]/gu, ' '));
			return completed.final ? refuse(this, 422, why) : refuse(this, 503, `${why}; try this callback again`);
		}
		if ('unknown' in completed)
			return refuse(this, 404, redaction().text(`The service has no result ${body.id} to read back`));
		const { result } = completed;
		// A read this call made knows the credential as it is now (a Secret Key changed since the cache's read).
		const extraSecrets = [...(client?.secrets ?? [])];
		// The verdict filter judges results; a review decision is a person's verdict and always passes.
		const ignored =
			event === RESULT_EVENT ? ignoreReason(this.getNodeParameter('events', 'all') as EventFilter, result) : undefined;
		if (ignored !== undefined) return { webhookResponse: redaction(extraSecrets).value({ ...ack, ignored }) };
		const item: IDataObject = { ...result, receivedAt: new Date().toISOString(), event };
		if (checked.standing === 'testUrl') item.callbackSecretNotice = TEST_URL_NOTE;
		if (body.id === null) ack.warning = 'No id: a delivery of this completion again starts the workflow again';

		if (!distrust && (this.getNodeParameter('options', {}) as { includeRequest?: boolean }).includeRequest === true) {
			// A proxy may have copied a ?token= the query no longer shows into a header.
			for (const value of Object.values(headers)) {
				if (typeof value === 'string') extraSecrets.push(...tokensInUrl(value));
			}
			item.headers = redactHeaders(headers);
			item.query = redactQuery(query);
		}
		// Over everything that leaves: the answer and the item (body, error, headers, query).
		const redact = redaction(extraSecrets);
		// One item as built: returnJsonArray would take a body field `json` for the item itself.
		const answer = { webhookResponse: redact.value(ack), workflowData: [[{ json: redact.value(item) }]] };
		// Started only once n8n has created the execution: until n8n answers, a repeat of it waits.
		if (claim?.kind === 'held') claim.commitWhen(executionStarted(this.getResponseObject()));
		return answer;
	} finally {
		// Ignored or failed: a later delivery of the completion may start it.
		if (claim?.kind === 'held') claim.release();
	}
}
