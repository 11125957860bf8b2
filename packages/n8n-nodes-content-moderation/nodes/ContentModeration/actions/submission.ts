/**
 * The `options` both moderation requests carry (POST /image, POST /text): metadata, actor, callback URL
 * and defer. Everything is checked here, before the one POST.
 */
import type { IDataObject, IExecuteFunctions, JsonValue } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { tokensInUrl } from '../helpers/urlTokens';
import { withCallbackSecret } from '../inbound/token';
import { putMetadata } from '../helpers/metadata';
import { addSecrets } from '../redaction/redact';
import type { ApiClient } from '../transport/client';
import { checkHttpUrl, checkNoPastedToken, optionalText } from '../validation/checks';
import { ensure, getActorId } from '../validation/parameters';
import { WAIT_CALLBACK_MODE } from '../verdict/description';
import { callbackUrl as waitCallbackUrl, resumeSecrets, waitCallbackRoutingRefusal } from './waitForCallback/urls';

export interface SubmissionSettings {
	/** The operation's Mode; Wait for Callback sends the waiting execution's own URL. */
	mode: string;
	/** Whether the service is to answer with the id only (every mode but Immediate). */
	deferred: boolean;
	/** The metadata, already checked by the operation (its rule differs per operation). */
	meta: JsonValue | IDataObject | undefined;
}

export interface Submission {
	options: IDataObject;
	/** The Wait for Callback URL's item key and resume token: they open the waiting execution, never an error. */
	secrets?: string[];
}

export async function submissionOptions(
	this: IExecuteFunctions,
	itemIndex: number,
	client: ApiClient,
	fields: IDataObject,
	settings: SubmissionSettings,
): Promise<Submission> {
	const options: IDataObject = {};
	if (settings.meta !== undefined) putMetadata(options, settings.meta);
	const actorId = getActorId(this, itemIndex, fields);
	if (actorId !== undefined) options.actorId = actorId;

	let secrets: string[] | undefined;
	if (settings.mode === WAIT_CALLBACK_MODE) {
		const url = waitCallbackUrl(this, itemIndex);
		options.callbackUrl = url;
		secrets = resumeSecrets(url);
	} else if (settings.deferred) {
		// A callback URL makes the service answer with the id only, so Immediate never sends one.
		const url = ensure(this, itemIndex, optionalText(fields.callbackUrl, 'Callback URL', '{{ $json.callbackUrl }}'));
		if (url !== undefined) {
			// A token pasted into the URL is a secret too; the credential's is known once it is read.
			addSecrets(client.secrets, ...tokensInUrl(url));
			ensure(this, itemIndex, checkNoPastedToken(url, 'Callback URL'));
			const checked = ensure(this, itemIndex, checkHttpUrl(url, 'Callback URL'));
			options.callbackUrl = withCallbackSecret(checked, await client.callbackSecret());
		}
	}
	if (settings.deferred) options.defer = true;
	return { options, secrets };
}

/**
 * Route by Verdict before anything is sent: Deferred answers with an id only, so there is nothing to route;
 * Wait for Callback routes only where n8n can resume on more than one output.
 */
export function submissionRoutingRefusal(
	this: IExecuteFunctions,
	itemIndex: number,
	deferredAnswer: string,
	otherModes: string,
): NodeOperationError | undefined {
	const mode = this.getNodeParameter('mode', itemIndex, 'immediate');
	if (mode === WAIT_CALLBACK_MODE) return waitCallbackRoutingRefusal(this, itemIndex);
	if (mode !== 'deferred') return undefined;
	return new NodeOperationError(
		this.getNode(),
		`Route by Verdict needs a moderation result, but Mode "Deferred" only returns ${deferredAnswer}`,
		{
			itemIndex,
			description: `Set Mode to ${otherModes}, or turn off Route by Verdict and route the results later (for example from the Content Moderation Trigger).`,
		},
	);
}
