import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { checkToken } from '../../inbound/token';
import { parseCallback, RESULT_EVENT, resultKind } from '../../inbound/envelope';
import { requestSettingsCollection } from '../../descriptions/options';
import { isObject } from '../../helpers/json';
import { getImage, getText } from '../../transport/endpoints';
import { hasAnalysis } from '../../verdict/rules';
import { NO_ITEM, type NodeRun } from '../operation';
import { isRepeat } from './repeats';

const properties: INodeProperties[] = [
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
			'Whether to read the full result (GET /image/{ID} or GET /text/{ID}) when a moderation.completed callback carries no verdict (isSafe)',
	},
	{
		displayName: 'Pass On Repeated Deliveries',
		name: 'passOnRepeats',
		type: 'boolean',
		default: false,
		description:
			'Whether a completion this n8n process already passed on is output again, marked duplicate: true. Off: a sender\'s repeated delivery outputs nothing in a published workflow. Manual executions always output.',
	},
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

export const description = updateDisplayOptions({ show: { resource: ['callback'], operation: ['receive'] } }, [
	...properties,
	...requestSettingsCollection(),
]);

const WEBHOOK_HINT =
	"Connect n8n's Webhook node (HTTP Method POST) directly before this node: its output item carries the callback's body, headers and query.";

/**
 * One callback as n8n's Webhook node outputs it ({headers, query, body}): the credential's Callback Secret
 * checked, the `{event, data}` envelope unwrapped (flat bodies read as results), a result without a
 * verdict completed with one read. The output is the data with `event`; headers and query are not copied.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number, { client, claims }: NodeRun): Promise<IDataObject | typeof NO_ITEM> {
	const received = this.getInputData()[itemIndex].json;
	const headers = isObject(received.headers) ? received.headers : {};
	const query = isObject(received.query) ? received.query : {};

	const secret = await client.callbackSecret();
	if (secret !== '') {
		const check = checkToken([secret], query, headers);
		if (!check.ok) {
			throw new NodeOperationError(this.getNode(), `Callback refused: ${check.message}`, {
				itemIndex,
				description:
					"The call does not carry the Callback Secret of the selected Content Moderation API credential. Add ?token=<Callback Secret> to the Webhook node's Production URL you gave the service, or select the credential whose secret that URL carries.",
			});
		}
	}

	if (received.body === undefined) {
		throw new NodeOperationError(this.getNode(), 'The input item has no body', { itemIndex, description: WEBHOOK_HINT });
	}
	// The trigger's rules: what it refuses is refused here too. The Webhook node parsed a JSON body.
	const contentType = String(headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
	const parsed = parseCallback(received.body, contentType === 'application/json');
	if (!parsed.ok) {
		throw new NodeOperationError(this.getNode(), `Not a moderation callback: ${parsed.message}`, {
			itemIndex,
			description: WEBHOOK_HINT,
		});
	}
	const { event, body: data } = parsed;
	// No usable id: nothing to recognise a repeat by, and nothing to read back.
	const id = data.id ?? '';
	// Passed on once Receive outputs it in a run that succeeds: a later failure in the workflow does not let
	// a repeat through.
	if (await isRepeat.call(this, claims, itemIndex, event, { ...data, id })) {
		if (this.getNodeParameter('passOnRepeats', itemIndex, false) !== true) return NO_ITEM;
		return { ...data, event, duplicate: true };
	}
	return await complete.call(this, itemIndex, client, event, data, id);
}

/** The data with `event`, completed with one read when a result came without its verdict. */
async function complete(
	this: IExecuteFunctions,
	itemIndex: number,
	client: NodeRun['client'],
	event: string,
	data: IDataObject,
	id: string,
): Promise<IDataObject> {
	const read = event === RESULT_EVENT && !hasAnalysis(data) && id !== '' && this.getNodeParameter('fetchFullResult', itemIndex, true) === true;
	if (!read) return { ...data, event };
	// Only an id: an image unless the data shows a text (the trigger reads images the same way).
	const response = resultKind(data) === 'text' ? await getText(client, id, itemIndex) : await getImage(client, id, itemIndex);
	// The image result has no id of its own: the callback's stays.
	return { ...data, ...response.body, id: response.body.id ?? id, event };
}
