import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { checkToken } from '../../inbound/token';
import { parseCallback, RESULT_EVENT, resultKind } from '../../inbound/envelope';
import { completedWith } from '../../inbound/completion';
import { incompleteness, isCompleteResult } from '../../verdict/rules';
import { readBack } from '../../inbound/readBack';
import { mediaType } from '../../inbound/requestBody';
import {
	ACCEPT_WITHOUT_SECRET,
	acceptWithoutSecretOption,
	isStrongSecret,
	SECRET_REQUIRED_DESCRIPTION,
	secretRequiredMessage,
	secretStanding,
	TEST_URL_NOTE,
	type SecretStanding,
} from '../../inbound/secretRule';
import { requestSettingsCollection } from '../../descriptions/options';
import { operationError } from '../../helpers/errorItems';
import { isObject } from '../../helpers/json';
import { NO_ITEM, type NodeRun, type Operation } from '../operation';
import { isRepeatElseClaim, repeatKey } from './repeats';

export const description: INodeProperties[] = [
	{
		displayName:
			"Put n8n's Webhook node (HTTP Method POST, Respond Immediately) before this node. Give ContentMod the Webhook's Production URL followed by ?token= and the credential's Callback Secret (16 or more characters).",
		name: 'receiveNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Fetch Full Result',
		name: 'fetchFullResult',
		type: 'boolean',
		default: true,
		description:
			'Whether to read the full result (GET /image/{ID} or GET /text/{ID}) when a moderation.completed callback carries no complete result (a boolean isSafe, a finished status and the fields the verdict rules read). A result still incomplete fails the item (off: any incomplete one): route that error (On Error) to read the result later; a later delivery of the same callback, should the service send one, passes it on.',
	},
	{
		displayName: 'Pass On Repeated Deliveries',
		name: 'passOnRepeats',
		type: 'boolean',
		default: false,
		description:
			"Whether a completion this n8n process already passed on is output again, marked duplicate: true. Off: a sender's repeated delivery outputs nothing in a published workflow. Manual executions always output.",
	},
	...requestSettingsCollection([acceptWithoutSecretOption]),
];

export const toolDescription =
	"Check a moderation callback received by n8n's Webhook node (its secret, its {event, data} body) and return the completed moderation result";

export const option: INodePropertyOptions = {
	name: 'Receive',
	value: 'receive',
	action: 'Receive a callback',
	description:
		"Check and complete a moderation callback received by n8n's Webhook node: verifies the Callback Secret, unwraps {event, data}, reads the full result when only an ID came",
};

const WEBHOOK_HINT =
	"Connect n8n's Webhook node (HTTP Method POST) directly before this node: its output item carries the callback's body, headers and query.";
const WRONG_TOKEN_HINT =
	"The call does not carry the Callback Secret of the selected Content Moderation API credential. Add ?token=<Callback Secret> to the Webhook node's Production URL you gave the service, or select the credential whose secret that URL carries.";
const partialResultHint = (again: boolean) =>
	`The callback carried no complete result (a boolean isSafe, a finished status, suggestedActions, riskScores.overall, nsfwCategories) and none could be read back. Nothing was passed on${again ? ' nor remembered: should the service deliver the callback again, the verdict is passed on then, but the Webhook node has already answered it, so do not count on that' : ''}. Route this error (On Error) to read the result later with Image > Get or Text > Get.`;

/** `id`: '' when the callback carries no usable id. */
type Received = { event: string; data: IDataObject; id: string; standing: SecretStanding };

/** The item as n8n's Webhook node outputs it ({headers, query, body}): its token checked, its body read. */
async function inspect(this: IExecuteFunctions, itemIndex: number, client: NodeRun['client']): Promise<Received> {
	const received = this.getInputData()[itemIndex].json;
	const headers = isObject(received.headers) ? received.headers : {};
	const query = isObject(received.query) ? received.query : {};
	const inputError = (message: string, description: string) =>
		operationError(this.getNode(), itemIndex, message, description);

	const secret = await client.callbackSecret();
	const accept = this.getNodeParameter(`options.${ACCEPT_WITHOUT_SECRET}`, itemIndex, false) === true;
	const standing = secretStanding(isStrongSecret(secret), this.getMode() === 'manual', accept);
	if (standing === 'refused') throw inputError(secretRequiredMessage(), SECRET_REQUIRED_DESCRIPTION);
	if (secret !== '') {
		const check = checkToken([secret], query, headers);
		if (!check.ok) throw inputError(`Callback refused: ${check.message}`, WRONG_TOKEN_HINT);
	}

	if (received.body === undefined) throw inputError('The input item has no body', WEBHOOK_HINT);
	// The trigger's rules: what it refuses is refused here too. The Webhook node parsed a JSON body.
	const parsed = parseCallback(received.body, mediaType(headers['content-type']) === 'application/json');
	if (!parsed.ok) throw inputError(`Not a moderation callback: ${parsed.message}`, WEBHOOK_HINT);
	// No usable id: nothing to recognise a repeat by, and nothing to read back.
	return { event: parsed.event, data: parsed.body, id: parsed.body.id ?? '', standing };
}

/** The item's completion, taken by the router for the whole run before any item runs. */
export const claimKey: Required<Operation>['claimKey'] = async function (itemIndex, { client }) {
	const { event, data, id } = await inspect.call(this, itemIndex, client);
	return repeatKey(this, event, { ...data, id });
};

/** n8n runs a sub-workflow `integrated` whether its parent was a delivery, an editor run or a retry (repeats.ts). */
export const SUB_WORKFLOW_HINT =
	"In a sub-workflow, Callback > Receive does not tell a sender's repeated deliveries apart (n8n gives it the same mode for a delivery, an editor run and a retry): a repeat is passed on again. Put Receive in the workflow of the Webhook node that receives the callbacks.";

/** One callback: its token checked, its data output with `event` (headers and query are not copied). */
export const execute: Operation['execute'] = async function (itemIndex, { client, claims, hints }) {
	const received = await inspect.call(this, itemIndex, client);
	if (this.getMode() === 'integrated') hints.push(SUB_WORKFLOW_HINT);
	const { event, data, id, standing } = received;
	// Passed on once output in a run that succeeds; a repeat passed on is read as the first was, never trusted.
	const repeat = await isRepeatElseClaim.call(this, claims, itemIndex, event, { ...data, id });
	if (repeat && this.getNodeParameter('passOnRepeats', itemIndex, false) !== true) return NO_ITEM;
	const output = await complete.call(this, itemIndex, client, received, standing === 'readBack');
	if (repeat) output.duplicate = true;
	return standing === 'testUrl' ? { ...output, callbackSecretNotice: TEST_URL_NOTE } : output;
};

/** The data with `event`, a result complete (inbound/completion.ts) as it came or by a read; else the item fails. */
async function complete(
	this: IExecuteFunctions,
	itemIndex: number,
	client: NodeRun['client'],
	{ event, data, id }: Received,
	distrust: boolean,
): Promise<IDataObject> {
	if (distrust && (event !== RESULT_EVENT || id === '')) {
		const description = acceptWithoutSecretOption.description ?? '';
		const message =
			event === RESULT_EVENT
				? 'The callback carries no ID to read its result back with'
				: `A ${event} callback cannot be read back, so it is not taken without a Callback Secret`;
		throw operationError(this.getNode(), itemIndex, message, description);
	}
	// A review decision and other events are not results: passed on as they came.
	if (event !== RESULT_EVENT) return { ...data, event };
	const kind = resultKind(data);
	if (!distrust && isCompleteResult(data)) return { ...data, event };
	// Reached without trust only with an id (checked above), so `why` is always the callback's own gap.
	const why = `${incompleteness(data)} in the callback`;
	const fail = (text: string, again = true) =>
		operationError(this.getNode(), itemIndex, text, partialResultHint(again));
	if (id === '') throw fail(`The callback carries no complete result (${why}) and no ID to read it by`, false);
	if (!distrust && this.getNodeParameter('fetchFullResult', itemIndex, true) !== true)
		throw fail(`The callback carries no complete result (${why}), and Fetch Full Result is off`, false);
	const reading = await readBack(client, id, kind, itemIndex);
	// Not a completion: the item fails (its claim is released), so a delivery of it again passes the verdict on.
	if (!reading.done) throw fail(reading.message);
	// Accepted without a Callback Secret: the result is the service's, nothing of the call's but its id.
	return distrust ? { ...reading.result, event } : { ...completedWith(data, reading.result), event };
}
