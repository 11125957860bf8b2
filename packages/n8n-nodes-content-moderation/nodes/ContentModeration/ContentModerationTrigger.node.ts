import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './transport/client';
import { handleCallback } from './trigger/webhook';
import { EVENT_OPTIONS, EVENT_SELECTION_OPTIONS } from './trigger/events';
import { triggerWebhookMethods } from './trigger/secretCheck';
import { acceptWithoutSecretOption } from './inbound/secretRule';

export class ContentModerationTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Content Moderation Trigger',
		name: 'contentModerationTrigger',
		icon: { light: 'file:contentModeration.svg', dark: 'file:contentModeration.dark.svg' },
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
		defaults: { name: 'Content Moderation Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: false }],
		// responseData left undefined, n8n 2.x answers a started execution with the text "firstEntryJson";
		// empty makes it send the node's webhookResponse acknowledgement instead.
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: '', path: 'callback' }],
		properties: [
			{
				displayName:
					'Give the credential a Callback Secret of 16 or more characters, publish this workflow and paste its Production URL into Callback URL of Image or Text > Moderate. For review decisions, set the webhook in your ContentMod dashboard to the Production URL followed by ?token= and that Callback Secret.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName:
					"Expecting hundreds of completions at once? Use n8n's Webhook node followed by Content Moderation > Callback > Receive instead (example 09).",
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
					'Which events start the workflow. Other events are acknowledged (HTTP 200, ignored) and start nothing, unless Every Event is chosen. ContentMod also sends every deferred result to the account webhook: there, this trigger starts for each, even for those Deferred and Wait or Wait for Callback already output; choose Review Decisions Only if it is there for decisions only.',
			},
			{
				displayName: 'Results',
				name: 'events',
				type: 'options',
				options: EVENT_OPTIONS,
				default: 'all',
				displayOptions: { show: { eventTypes: ['both', 'results', 'any'] } },
				description:
					'Which completed moderations start the workflow, by verdict; the others are acknowledged and ignored. Review decisions and other events are not filtered by verdict.',
			},
			{
				displayName: 'Fetch Full Result',
				name: 'fetchFullResult',
				type: 'boolean',
				default: true,
				description:
					'Whether to read the full result (GET /text/{ID} for a text result, GET /image/{ID} for an image; either, image first, when the callback does not show which) when the callback carries no complete result (a boolean isSafe, a finished status and the fields the verdict rules read). The read happens before the callback is answered; callbacks that carry the whole result need none. Reads need a Content Moderation API credential. A result still unfinished after the read, or a read that fails, is answered 503 so that the service sends it again; off, or without a credential, an incomplete callback is answered 422 (no read can complete it). Neither starts anything.',
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
							"Whether to add the request headers and query parameters to the output. The token, authorization headers and any secret inside other headers (such as a proxy's copy of the URL) are redacted. Ignored under Accept Callbacks Without a Secret: nothing an unsigned call carries but its ID reaches the item.",
					},
				],
			},
		],
	};

	// Nothing to register (the user pastes the URL); publishing is refused without a Callback Secret.
	webhookMethods = triggerWebhookMethods;

	webhook = handleCallback;
}
