import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as callback from './actions/callback';
import * as image from './actions/image';
import * as queue from './actions/queue';
import * as text from './actions/text';
import { resources } from './actions/resources';
import { router } from './actions/router';
import { waitCallbackWebhook, webhook as waitForCallbackWebhook } from './actions/waitForCallback';
import { toolDescriptionProperties } from './descriptions/toolDescription';
import { CREDENTIAL_TYPE } from './transport/client';
import { verdictOutputs } from './verdict/description';
import { unregisteredWebhookMethods } from './helpers/webhookMethods';

export class ContentModeration implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Content Moderation',
		name: 'contentModeration',
		icon: { light: 'file:contentModeration.svg', dark: 'file:contentModeration.dark.svg' },
		group: ['transform'],
		// At version 1 n8n evaluates an expression on every Wait for Callback resume call (docs/callbacks.md).
		version: 2,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Moderate images and texts (immediately or deferred), read their results, and send content to review queues for a person to decide',
		defaults: { name: 'Content Moderation' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: verdictOutputs,
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		// Wait for Callback's resume URLs, never a trigger.
		webhooks: [waitCallbackWebhook],
		properties: [
			...toolDescriptionProperties(resources),
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Callback',
						value: 'callback',
						description: "Check and complete callbacks received by n8n's Webhook node",
					},
					{ name: 'Image', value: 'image', description: 'Moderate images and read their results' },
					{
						name: 'Queue',
						value: 'queue',
						description: 'Add content to a review queue for a person to decide, and read its items',
					},
					{ name: 'Text', value: 'text', description: 'Moderate texts, read or delete text moderations' },
				],
				default: 'image',
			},
			...image.description,
			...text.description,
			...callback.description,
			...queue.description,
		],
	};

	execute = router;

	// n8n never registers a restart webhook (WebhookService.getNodeWebhooks skips them on publish).
	webhookMethods = unregisteredWebhookMethods;

	webhook = waitForCallbackWebhook;
}
