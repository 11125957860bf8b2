import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { createApiClient, CREDENTIAL_TYPE } from '../ContentModeration/transport/client';
import type { RetrySettings } from '../ContentModeration/transport/retry';

import type { EventFilter } from './events';
import { ignoreReason } from './events';
import { completeResult, parseCallbackBody } from './payload';
import { checkToken, redactHeaders, redactQuery } from './verification';

/**
 * The service waits for the acknowledgement, so a read is retried once, briefly: the trigger must
 * answer a callback fast.
 */
const QUICK_RETRY_SETTINGS: RetrySettings = { maxRetries: 1, baseDelayMs: 200, maxDelayMs: 2_000 };

/** Answers a refused call with a small JSON error and starts nothing. */
function refuse(this: IWebhookFunctions, status: 400 | 401, message: string): IWebhookResponseData {
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

	const expectedToken = this.getNodeParameter('callbackToken', '') as string;
	if (expectedToken !== '') {
		const check = checkToken(expectedToken, query, headers);
		if (!check.ok) return refuse.call(this, 401, check.message);
	}

	const parsed = parseCallbackBody.call(this);
	if (!parsed.ok) return refuse.call(this, 400, parsed.message);
	const { id } = parsed.body;

	const fetchFullResult = this.getNodeParameter('fetchFullResult', true) as boolean;
	const hasCredential = this.getNode().credentials?.[CREDENTIAL_TYPE] !== undefined;
	const client =
		fetchFullResult && hasCredential ? createApiClient(this, { retry: QUICK_RETRY_SETTINGS }) : undefined;
	const { result, error } = await completeResult(parsed.body, client);

	const events = this.getNodeParameter('events', 'all') as EventFilter;
	const ignored = ignoreReason(events, result);
	if (ignored !== undefined) {
		return { webhookResponse: { received: true, id, ignored } };
	}

	// A failed read still acknowledges with 200 and starts the workflow with what arrived plus
	// `error`: the spec does not say whether or how often the service retries a callback, so
	// answering 5xx could lose the event, while the error item lets the workflow handle it
	// (for example read the result later with Image > Get).
	const item: IDataObject = { ...result, receivedAt: new Date().toISOString() };
	if (error !== undefined) item.error = error;

	const options = this.getNodeParameter('options', {}) as { includeRequest?: boolean };
	if (options.includeRequest === true) {
		item.headers = redactHeaders(headers);
		item.query = redactQuery(query);
	}

	return {
		webhookResponse: { received: true, id },
		workflowData: [this.helpers.returnJsonArray(item)],
	};
}
