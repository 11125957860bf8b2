import type {
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './transport/client';
import { handleCallback } from './trigger/webhook';
import { EVENT_OPTIONS, EVENT_SELECTION_OPTIONS } from './trigger/events';
import { triggerWebhookMethods } from './trigger/publishing';
import { acceptWithoutSecretOption } from './inbound/secretRule';

export class ContentModerationTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Content Moderation Trigger',
		name: 'contentModerationTrigger',
		icon: {
			light: 'file:contentModeration.svg',
			dark: 'file:contentModeration.dark.svg',
		},
		group: ['trigger'],
		// Not 1: for a start node at version 1, n8n's webhook body parsing evaluates an expression on every
		// call, an isolate per callback, and a burst of callbacks then loses some (docs/callbacks.md).
		version: 2,
		// Results is hidden (unset) when only review decisions are taken.
		subtitle:
			'={{$parameter["eventTypes"] === "reviews" ? "Review Decisions" : $parameter["eventTypes"] === "any" ? "Every Event" : "Results: " + $parameter["events"] + ($parameter["eventTypes"] === "both" ? ", Review Decisions" : "")}}',
		description:
			'Starts the workflow when the Content Moderation Service completes a deferred moderation or a person decides on a review queue item',
		eventTriggerDescription: 'Waiting for a moderation callback',
		defaults: {
			name: 'Content Moderation Trigger',
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: CREDENTIAL_TYPE,
				required: false,
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Left undefined, n8n 2.x answers a started execution with the text "firstEntryJson";
				// empty makes it send the node's webhookResponse acknowledgement instead.
				responseData: '',
				path: 'callback',
			},
		],
		properties: [
			{
				displayName:
					'Copy the Production URL above into the Content Moderation node (Callback URL of Image or Text > Moderate), then publish this workflow. Review decisions come through the account webhook: set it in your ContentMod dashboard to the Production URL followed by ?token= and the Callback Secret of the credential (the service signs nothing, so the secret in the URL is what keeps strangers out). Select that credential here and in the Content Moderation node. A completion delivered again is acknowledged and starts nothing.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName:
					"Expecting many completions at once? At n8n's default settings n8n prepares an expression sandbox for every call to this trigger, and under a burst callbacks wait past the sender's timeout and some are lost (200 at once, a sender waiting 5 s and trying 3 times: more than half lost). n8n's Webhook node followed by Content Moderation > Callback > Receive lost none in the same test (example 09). N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true on n8n helps the trigger but did not stop every loss.",
				name: 'burstNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'eventTypes',
				type: 'options',
				options: EVENT_SELECTION_OPTIONS,
				default: 'both',
				description:
					'Which events start the workflow. Other events are acknowledged (HTTP 200, ignored) and start nothing, unless Every Event is chosen.',
			},
			{
				displayName: 'Results',
				name: 'events',
				type: 'options',
				options: EVENT_OPTIONS,
				default: 'all',
				displayOptions: { show: { eventTypes: ['both', 'results', 'any'] } },
				description:
					'Which completed moderations start the workflow, by verdict; the others are acknowledged and ignored. Review decisions and other events are not filtered by verdict. A result with only an ID that could not be read passes every filter except Safe Only.',
			},
			{
				displayName: 'Fetch Full Result',
				name: 'fetchFullResult',
				type: 'boolean',
				default: true,
				description:
					'Whether to read the full result (GET /text/{ID} for a text result, GET /image/{ID} otherwise) when the callback carries only the ID or misses fields. The read happens before the callback is answered; callbacks that carry the whole result need none. Only takes effect when a Content Moderation API credential is selected.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					acceptWithoutSecretOption,
					{
						displayName: 'Include Headers and Query',
						name: 'includeRequest',
						type: 'boolean',
						default: false,
						description:
							'Whether to add the request headers and query parameters to the output. The token, authorization headers and any secret inside other headers (such as a proxy\'s copy of the URL) are redacted.',
					},
				],
			},
		],
	};

	// Nothing to register (the user pastes the URL); publishing is refused without a Callback Secret.
	webhookMethods = triggerWebhookMethods;

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await handleCallback.call(this);
	}
}
