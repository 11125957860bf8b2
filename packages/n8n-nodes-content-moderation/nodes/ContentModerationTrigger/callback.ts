import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { createApiClient, CREDENTIAL_TYPE } from '../ContentModeration/transport/client';
import { tokensInUrl } from '../ContentModeration/helpers/callbackUrl';
import { addSecrets, redactValue } from '../ContentModeration/redaction/redact';
import type { RetrySettings } from '../ContentModeration/retry/policy';

import type { EventFilter } from './events';
import { ignoreReason } from './events';
import { completeResult, parseCallbackBody } from './payload';
import { checkToken, givenTokenStrings, redactHeaders, redactQuery } from './verification';

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

/**
 * Handles one completion callback. Nothing is kept between calls, so it works the same on n8n's
 * webhook processes in queue mode.
 */
export async function handleCallback(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const headers = this.getHeaderData() as IDataObject;
	const query = this.getQueryData() as IDataObject;

	// The credential (when selected) gives the Callback Secret and reads full results; read it once.
	const hasCredential = this.getNode().credentials?.[CREDENTIAL_TYPE] !== undefined;
	const client = hasCredential ? createApiClient(this, { retry: QUICK_RETRY_SETTINGS }) : undefined;
	const expected: string[] = [];
	// Version 1 only: its Callback Token field; version 2 checks the credential's Callback Secret alone.
	if (this.getNode().typeVersion < 2) addSecrets(expected, this.getNodeParameter('callbackToken', '') as string);
	if (client !== undefined) {
		try {
			addSecrets(expected, await client.callbackSecret());
		} catch {
			// Without the credential its secret cannot be checked: refuse rather than let anyone in.
			return refuse.call(this, 500, 'The Content Moderation API credential of this trigger could not be read');
		}
	}
	if (expected.length > 0) {
		const check = checkToken(expected, query, headers);
		if (!check.ok) return refuse.call(this, 401, check.message);
	}

	const parsed = parseCallbackBody.call(this);
	if (!parsed.ok) return refuse.call(this, 400, parsed.message);
	const { id } = parsed.body;

	const fetchFullResult = this.getNodeParameter('fetchFullResult', true) as boolean;
	const { result, error } = await completeResult(parsed.body, fetchFullResult ? client : undefined);

	// Everything the call carried as a token is a secret too (also a token the trigger does not check).
	const secrets = [...expected, ...(client?.secrets ?? [])];
	addSecrets(secrets, ...givenTokenStrings(query, headers));

	const events = this.getNodeParameter('events', 'all') as EventFilter;
	const ignored = ignoreReason(events, result);
	if (ignored !== undefined) {
		return { webhookResponse: redactValue({ received: true, id, ignored }, secrets) };
	}

	// A failed read still acknowledges with 200 and starts the workflow with what arrived plus
	// `error`: the spec does not say whether or how often the service retries a callback, so
	// answering 5xx could lose the event, while the error item lets the workflow handle it
	// (for example read the result later with Image > Get).
	const item: IDataObject = { ...result, receivedAt: new Date().toISOString() };
	if (error !== undefined) item.error = error;

	const options = this.getNodeParameter('options', {}) as { includeRequest?: boolean };
	if (options.includeRequest === true) {
		// A proxy may have copied a ?token= the query no longer shows into a header.
		for (const value of Object.values(headers)) {
			if (typeof value === 'string') addSecrets(secrets, ...tokensInUrl(value));
		}
		item.headers = redactHeaders(headers);
		item.query = redactQuery(query);
	}

	// The one redaction, over everything that leaves: the answer and the item (body, error, headers, query).
	return {
		webhookResponse: redactValue({ received: true, id }, secrets),
		workflowData: [this.helpers.returnJsonArray(redactValue(item, secrets))],
	};
}
