import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { createApiClient, CREDENTIAL_TYPE } from '../transport/client';
import { addSecrets, redactValue } from '../redaction/redact';
import type { RetrySettings } from '../retry/policy';

import { isKnownEvent, kindOf, RESULT_EVENT } from '../inbound/envelope';
import { completionKey, deliveries, deliveryKey } from '../inbound/deliveries';

import type { EventFilter, EventSelection } from './events';
import { eventIgnoreReason, ignoreReason } from './events';
import type { CallbackBody } from '../inbound/payload';
import { completeResult, parseCallbackBody } from '../inbound/payload';
import type { KnownSecret } from '../inbound/secrets';
import { secretChecks } from '../inbound/secrets';
import { checkGivenToken, givenTokenStrings, redactHeaders, redactQuery, tokensInUrl } from '../inbound/token';

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

/**
 * The service waits for the acknowledgement, so a read is retried once, briefly: the trigger must
 * answer a callback fast.
 */
const QUICK_RETRY_SETTINGS: RetrySettings = { maxRetries: 1, baseDelayMs: 200, maxDelayMs: 2_000 };

/** Answers a refused call with a small JSON error and starts nothing. */
function refuse(this: IWebhookFunctions, status: 400 | 401 | 500, message: string): IWebhookResponseData {
	const response = this.getResponseObject();
	response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
	response.end(JSON.stringify({ received: false, error: { status, message } }));
	return { noWebhookResponse: true };
}

/** The key that says two deliveries are the same completion, or undefined when there is no id. */
function deliveryKeyOf(this: IWebhookFunctions, event: string, data: CallbackBody): string | undefined {
	if (data.id === null) return undefined;
	const node = this.getNode();
	// Per trigger: two workflows receiving one completion each start theirs.
	return completionKey([String(this.getWorkflow().id ?? ''), node.webhookId ?? node.name], event, { ...data, id: data.id });
}

/**
 * Whether n8n started the execution for what the trigger returns. n8n answers a trigger like this one
 * (`onReceived`) only after it created the execution, and with an error status when it could not (a
 * database or queue failure). Watched where n8n ends the response: it does so also when the sender has
 * already gone, where no 'finish' event comes.
 */
async function executionStarted(response: Response): Promise<boolean> {
	if (response.writableEnded) return response.statusCode < 400;
	return await new Promise<boolean>((resolve) => {
		const end = response.end;
		response.end = function (this: Response, ...args: Parameters<Response['end']>) {
			resolve(response.statusCode < 400);
			return end.apply(this, args);
		} as Response['end'];
	});
}

/** Whose Callback Secret an entry of `secretChecks` is: this trigger (workflow, webhook) with its credential. */
function secretKey(this: IWebhookFunctions): string {
	const node = this.getNode();
	const credential = node.credentials?.[CREDENTIAL_TYPE]?.id ?? '';
	return deliveryKey([String(this.getWorkflow().id ?? ''), node.webhookId ?? node.name, String(credential)]);
}

const NO_ID_REPEATS = ' A delivery of it again starts the workflow again.';

/**
 * Handles one completion callback. A completion already started in this n8n process
 * (inbound/deliveries.ts) is acknowledged with `duplicate: true` and starts nothing; the claim is taken
 * once the body is read, before any other await, so a delivery arriving while the first is handled waits
 * for its outcome, and a first delivery that starts nothing (refused, filtered out, failed, or returned
 * but not started by n8n) does not hold back a later one.
 */
export async function handleCallback(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const headers = this.getHeaderData() as IDataObject;
	const query = this.getQueryData() as IDataObject;

	const parsed = await parseCallbackBody.call(this);
	const key = parsed.ok ? deliveryKeyOf.call(this, parsed.event, parsed.body) : undefined;
	let claim = key === undefined ? undefined : deliveries.claim(key);
	try {
		// The credential (when selected) gives the Callback Secret and reads full results.
		const hasCredential = this.getNode().credentials?.[CREDENTIAL_TYPE] !== undefined;
		const client = hasCredential ? createApiClient(this, { retry: QUICK_RETRY_SETTINGS }) : undefined;
		let known: KnownSecret | undefined;
		if (client !== undefined) {
			const trigger = secretKey.call(this);
			known = secretChecks.lookup(trigger);
			// Read the credential when nothing recent is known or the token is not the known secret.
			if (known === undefined || (known.hasSecret && !checkGivenToken(known.accepts, query, headers).ok)) {
				try {
					known = await secretChecks.learn(trigger, async () => await client.callbackSecret());
				} catch {
					// Without the credential its secret cannot be checked: refuse rather than let anyone in.
					return refuse.call(this, 500, 'The Content Moderation API credential of this trigger could not be read');
				}
			}
		}
		if (known?.hasSecret === true) {
			const check = checkGivenToken(known.accepts, query, headers);
			if (!check.ok) return refuse.call(this, 401, check.message);
		}
		// Everything the call carried as a token is a secret too (also a token the trigger does not check).
		const secrets = [...(client?.secrets ?? [])];
		addSecrets(secrets, ...givenTokenStrings(query, headers));

		if (!parsed.ok) {
			// An event this trigger does not know is acknowledged whatever it carries; without a data object
			// it starts nothing, even under Every Event (there is nothing to pass on).
			if (parsed.event !== undefined && !isKnownEvent(parsed.event)) {
				const ignored = `event "${parsed.event}" carries no data object`;
				return { webhookResponse: redactValue({ received: true, event: parsed.event, ignored }, secrets) };
			}
			return refuse.call(this, 400, parsed.message);
		}
		const { event, body } = parsed;
		const { id } = body;
		const ack: IDataObject = { received: true, event, id };

		const selection = this.getNodeParameter('eventTypes', 'both') as EventSelection;
		const notSelected = eventIgnoreReason(selection, event);
		if (notSelected !== undefined) return { webhookResponse: redactValue({ ...ack, ignored: notSelected }, secrets) };

		if (claim?.kind === 'inFlight') claim = await deliveries.claimWhenFree(key as string);
		if (claim?.kind === 'duplicate') return { webhookResponse: redactValue({ ...ack, duplicate: true }, secrets) };

		// Only results are read back; a review decision (a queue item) or another event passes as it came.
		const kind = event === RESULT_EVENT ? kindOf(body) : 'queueItem';
		const fetchFullResult = this.getNodeParameter('fetchFullResult', true) as boolean;
		const { result, error } = await completeResult(
			body,
			fetchFullResult ? client : undefined,
			kind,
			NO_ID_REPEATS,
		);
		// The read (when it happened) knows the access token: redacted too.
		addSecrets(secrets, ...(client?.secrets ?? []));

		// The verdict filter judges results; a review decision is a person's verdict and always passes.
		const verdicts = this.getNodeParameter('events', 'all') as EventFilter;
		const ignored = event === RESULT_EVENT ? ignoreReason(verdicts, result) : undefined;
		if (ignored !== undefined) return { webhookResponse: redactValue({ ...ack, ignored }, secrets) };

		// A failed read still acknowledges with 200 and starts the workflow with what arrived plus
		// `error`: the spec does not say whether or how often the service retries a callback, so
		// answering 5xx could lose the event, while the error item lets the workflow handle it
		// (for example read the result later with Image > Get).
		const item: IDataObject = { ...result, receivedAt: new Date().toISOString(), event };
		if (error !== undefined) item.error = error;
		if (id === null) ack.warning = 'No id: a delivery of this completion again starts the workflow again';

		const options = this.getNodeParameter('options', {}) as { includeRequest?: boolean };
		if (options.includeRequest === true) {
			// A proxy may have copied a ?token= the query no longer shows into a header.
			for (const value of Object.values(headers)) {
				if (typeof value === 'string') addSecrets(secrets, ...tokensInUrl(value));
			}
			item.headers = redactHeaders(headers);
			item.query = redactQuery(query);
		}

		// Started only once n8n has created the execution: until n8n answers, a repeat of it waits.
		if (claim?.kind === 'held') claim.commitWhen(executionStarted(this.getResponseObject()));
		// The one redaction, over everything that leaves: the answer and the item (body, error, headers, query).
		return {
			webhookResponse: redactValue(ack, secrets),
			// One item as built: returnJsonArray would take a body field `json` for the item itself.
			workflowData: [[{ json: redactValue(item, secrets) }]],
		};
	} finally {
		// Refused, ignored or failed: a later delivery of the completion may start it.
		if (claim?.kind === 'held') claim.release();
	}
}
