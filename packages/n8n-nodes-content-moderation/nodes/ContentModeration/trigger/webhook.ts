import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { createApiClient, CREDENTIAL_TYPE, type ApiClient } from '../transport/client';
import { redactionFor, type Redaction } from '../redaction/redact';

import { isKnownEvent, kindOf, RESULT_EVENT, resultKind } from '../inbound/envelope';
import { completionKey, deliveries, deliveryKey, type Claim, type Taken } from '../inbound/deliveries';
import type { CallbackBody } from '../inbound/payload';
import { completeResult, parseCallbackBody } from '../inbound/payload';
import { CALLBACK_READ_RETRY, CALLBACK_READS_END_MS } from '../inbound/readBack';
import { refuse } from '../inbound/refusal';
import { TEST_URL_NOTE, type SecretStanding } from '../inbound/secretRule';
import { tokensInUrl } from '../helpers/urlTokens';
import { givenTokenStrings, redactHeaders, redactQuery } from '../inbound/token';

import type { EventFilter, EventSelection } from './events';
import { eventIgnoreReason, ignoreReason } from './events';
import { checkSecret } from './secretCheck';

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

/** How long a delivery waits while another delivery of its completion is handled (a read, n8n's answer). */
const REPEAT_WAIT_MS = 4_000;

/** This trigger: its workflow and webhook (a rename keeps both). */
function triggerScope(ctx: IWebhookFunctions): string[] {
	const node = ctx.getNode();
	return [String(ctx.getWorkflow().id ?? ''), node.webhookId ?? node.id];
}

/** Whose credential an entry of the secret cache is: this trigger with its credential. */
function secretOwner(ctx: IWebhookFunctions): string {
	const credential = ctx.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? '';
	return deliveryKey([...triggerScope(ctx), String(credential)]);
}

/**
 * Whether n8n started the execution for what the trigger returns. n8n answers a trigger like this one
 * (`onReceived`) only after it created the execution, and with an error status when it could not (a
 * database or queue failure). Watched where n8n ends the response: it does so also when the sender has
 * already gone, where no 'finish' event comes.
 */
export async function executionStarted(response: Response): Promise<boolean> {
	if (response.writableEnded) return response.statusCode < 400;
	return await new Promise<boolean>((resolve) => {
		const end = response.end;
		response.end = function (this: Response, ...args: Parameters<Response['end']>) {
			resolve(response.statusCode < 400);
			return end.apply(this, args);
		} as Response['end'];
	});
}

const UNREADABLE_WITHOUT_SECRET =
	'Accepted without a Callback Secret, only a moderation result with an id is taken (it is read back from the service); review decisions and other events need the Callback Secret';

const NO_ID_REPEATS = ' A delivery of it again starts the workflow again.';

/** What one call brought, and what it may use: the client (when a credential is selected), the redaction. */
interface Call {
	client?: ApiClient;
	headers: IDataObject;
	query: IDataObject;
	/** The redaction of the credential's secrets, the call's tokens and `more`. */
	redaction(more?: string[]): Redaction;
	standing: SecretStanding;
}

/**
 * Handles one completion callback. The caller is authenticated first; then a completion already started
 * in this n8n process (inbound/deliveries.ts) is acknowledged with `duplicate: true` and starts nothing.
 * The claim is taken right after the check, before any other await, so a delivery arriving while the
 * first is handled waits for its outcome, and a first delivery that starts nothing (filtered out, failed,
 * or returned but not started by n8n) does not hold back a later one.
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
	// The one redaction of what leaves: the credential's secrets (known with or without a read this call)
	// and everything the call carried as a token (also a token the trigger does not check).
	const carried = givenTokenStrings(query, headers);
	const redaction = (more: string[] = []): Redaction =>
		checked.known?.redaction([...carried, ...more]) ?? redactionFor([...carried, ...more]);
	const call: Call = { client, headers, query, redaction, standing: checked.standing };

	const parsed = await parseCallbackBody.call(this);
	if (!parsed.ok) {
		// An event this trigger does not know is acknowledged whatever it carries; without a data object
		// it starts nothing, even under Every Event (there is nothing to pass on).
		if (parsed.event !== undefined && !isKnownEvent(parsed.event)) {
			const ignored = `event "${parsed.event}" carries no data object`;
			return { webhookResponse: redaction().value({ received: true, event: parsed.event, ignored }) };
		}
		return refuse(this, 400, redaction().text(parsed.message));
	}
	const { event, body } = parsed;
	const { id } = body;
	const ack: IDataObject = { received: true, event, id };

	const selection = this.getNodeParameter('eventTypes', 'both') as EventSelection;
	const notSelected = eventIgnoreReason(selection, event);
	if (notSelected !== undefined) return { webhookResponse: redaction().value({ ...ack, ignored: notSelected }) };

	// Per trigger: two workflows receiving one completion each start theirs.
	const key = id === null ? undefined : completionKey(triggerScope(this), event, { ...body, id });
	let claim: Claim | Taken | undefined = key === undefined ? undefined : deliveries.claim(key);
	try {
		const taken = claim?.kind === 'inFlight' ? await deliveries.claimWhenFree(key as string, REPEAT_WAIT_MS) : claim;
		if (taken?.kind === 'busy') return refuse(this, 503, 'Another delivery of this completion is being handled; try this callback again');
		claim = taken;
		if (claim?.kind === 'duplicate') return { webhookResponse: redaction().value({ ...ack, duplicate: true }) };
		return await startWorkflow.call(this, call, event, body, ack, (started) => {
			// Started only once n8n has created the execution: until n8n answers, a repeat of it waits.
			if (claim?.kind === 'held') claim.commitWhen(started);
		});
	} finally {
		// Ignored or failed: a later delivery of the completion may start it.
		if (claim?.kind === 'held') claim.release();
	}
}

/** The completion read back when needed, filtered by verdict, and returned as the workflow's one item. */
async function startWorkflow(
	this: IWebhookFunctions,
	{ client, headers, query, redaction, standing }: Call,
	event: string,
	body: CallbackBody,
	ack: IDataObject,
	handedOver: (started: Promise<boolean>) => void,
): Promise<IWebhookResponseData> {
	// Accepted without a secret by the option: a result is read back, not trusted from the call; nothing
	// else can be read back, so nothing else is taken.
	const distrust = standing === 'readBack';
	if (distrust && (event !== RESULT_EVENT || body.id === null)) return refuse(this, 401, UNREADABLE_WITHOUT_SECRET);
	// Only results are read back; a review decision (a queue item) or another event passes as it came.
	const kind = distrust ? resultKind(body) : event === RESULT_EVENT ? kindOf(body) : 'queueItem';
	const fetchFullResult = distrust || (this.getNodeParameter('fetchFullResult', true) as boolean);
	const completed = await completeResult(body, fetchFullResult ? client : undefined, kind, NO_ID_REPEATS, distrust);
	// Not finished yet: nothing starts and nothing is recorded; a non-2xx answer makes the sender try again.
	if ('unfinished' in completed) return refuse(this, 503, `${completed.unfinished}; try this callback again`);
	const { result, error } = completed;
	// A read this call made knows the credential as it is now (a Secret Key changed since the cache's read).
	const more = [...(client?.secrets ?? [])];

	// The verdict filter judges results; a review decision is a person's verdict and always passes.
	const verdicts = this.getNodeParameter('events', 'all') as EventFilter;
	const ignored = event === RESULT_EVENT ? ignoreReason(verdicts, result) : undefined;
	if (ignored !== undefined) return { webhookResponse: redaction(more).value({ ...ack, ignored }) };

	// Under the option a result the service does not give (404) starts nothing.
	if (distrust && error !== undefined) return refuse(this, 404, `The service has no result ${body.id} to read back`);
	// A read refused for good (404 and other 4xx) acknowledges with 200 and starts the workflow with what
	// arrived plus `error`, which the workflow can handle; answering 5xx would only repeat it.
	const item: IDataObject = { ...result, receivedAt: new Date().toISOString(), event };
	if (error !== undefined) item.error = error;
	if (standing === 'testUrl') item.callbackSecretNotice = TEST_URL_NOTE;
	if (body.id === null) ack.warning = 'No id: a delivery of this completion again starts the workflow again';

	const options = this.getNodeParameter('options', {}) as { includeRequest?: boolean };
	if (options.includeRequest === true) {
		// A proxy may have copied a ?token= the query no longer shows into a header.
		for (const value of Object.values(headers)) {
			if (typeof value === 'string') more.push(...tokensInUrl(value));
		}
		item.headers = redactHeaders(headers);
		item.query = redactQuery(query);
	}

	handedOver(executionStarted(this.getResponseObject()));
	// Over everything that leaves: the answer and the item (body, error, headers, query).
	const redact = redaction(more);
	return {
		webhookResponse: redact.value(ack),
		// One item as built: returnJsonArray would take a body field `json` for the item itself.
		workflowData: [[{ json: redact.value(item) }]],
	};
}
