/** The `options` both moderation requests carry (POST /image, POST /text), checked before the one POST. */
import type { IDataObject, IExecuteFunctions, JsonValue } from 'n8n-workflow';

import { operationError } from '../helpers/errorItems';
import { tokensInUrl } from '../helpers/urlTokens';
import { withCallbackSecret } from '../inbound/token';
import { putMetadata } from '../validation/metadata';
import { addSecrets } from '../redaction/redact';
import { checkHttpUrl, checkNoPastedToken, optionalText } from '../validation/checks';
import { ensure, getActorId } from '../validation/parameters';
import { WAIT_CALLBACK_MODE } from '../verdict/description';
import type { VerdictFacts } from '../verdict/outputs';
import { unreachableCallback } from './hints';
import type { NodeRun, Operation } from './operation';
import { pauseForCallbacks } from './waitForCallback/pause';
import { callbackUrl as waitCallbackUrl, resumeSecrets, waitCallbackRoutingRefusal } from './waitForCallback/urls';

/** The modes the service answers with the id only; Immediate gets the result. */
const DEFERRED_MODES = new Set<unknown>(['deferred', 'deferredWait', WAIT_CALLBACK_MODE]);

/** The request's `options`, and `secrets` (Wait for Callback's URL key and resume token) kept out of errors. */
export async function submissionOptions(
	this: IExecuteFunctions,
	itemIndex: number,
	{ client, hints }: NodeRun,
	fields: IDataObject,
	meta: JsonValue | IDataObject | undefined,
): Promise<{ options: IDataObject; secrets?: string[] }> {
	const mode = this.getNodeParameter('mode', itemIndex, 'immediate');
	const deferred = DEFERRED_MODES.has(mode);
	if (!deferred && mode !== 'immediate') {
		const fix = 'Choose a Mode from the list (a workflow edited by hand may hold one this version does not have).';
		throw operationError(this.getNode(), itemIndex, `Unknown Mode "${String(mode)}"`, fix);
	}
	const options: IDataObject = {};
	if (meta !== undefined) putMetadata(options, meta);
	const actorId = getActorId(this, itemIndex, fields);
	if (actorId !== undefined) options.actorId = actorId;

	let secrets: string[] | undefined;
	if (mode === WAIT_CALLBACK_MODE) {
		const url = waitCallbackUrl(this, itemIndex);
		options.callbackUrl = url;
		secrets = resumeSecrets(url);
		hints.push(await unreachableCallback("Wait for Callback's resume URL", url, client));
	} else if (deferred) {
		// A callback URL makes the service answer with the id only, so Immediate never sends one.
		const url = ensure(this, itemIndex, optionalText(fields.callbackUrl, 'Callback URL', '{{ $json.callbackUrl }}'));
		if (url !== undefined) {
			// A token pasted into the URL is a secret too; the credential's is known once it is read.
			addSecrets(client.secrets, ...tokensInUrl(url));
			ensure(this, itemIndex, checkNoPastedToken(url, 'Callback URL'));
			const checked = ensure(this, itemIndex, checkHttpUrl(url, 'Callback URL'));
			options.callbackUrl = withCallbackSecret(checked, await client.callbackSecret());
			hints.push(await unreachableCallback('The Callback URL', checked, client));
		}
	}
	if (deferred) options.defer = true;
	return { options, secrets };
}

/** What the moderate operations route, and their last step (Wait for Callback pauses once all are submitted). */
export function submissionSteps(
	deferredAnswer: string,
	otherModes: string,
): Required<Pick<Operation, 'verdict' | 'finishRun'>> {
	const verdict: VerdictFacts = {
		analysisOf: (result) => result,
		refusal(itemIndex) {
			const mode = this.getNodeParameter('mode', itemIndex, 'immediate');
			if (mode === WAIT_CALLBACK_MODE) return waitCallbackRoutingRefusal(this, itemIndex);
			if (mode !== 'deferred') return undefined;
			const message = `Route by Verdict needs a moderation result, but Mode "Deferred" only returns ${deferredAnswer}`;
			const description = `Set Mode to ${otherModes}, or turn off Route by Verdict and route the results later (for example from the Content Moderation Trigger).`;
			return operationError(this.getNode(), itemIndex, message, description);
		},
	};
	return {
		verdict,
		async finishRun(results, routing, hints) {
			if (this.getNodeParameter('mode', 0, 'immediate') !== WAIT_CALLBACK_MODE) return undefined;
			return await pauseForCallbacks.call(this, verdict, results, routing, hints);
		},
	};
}
