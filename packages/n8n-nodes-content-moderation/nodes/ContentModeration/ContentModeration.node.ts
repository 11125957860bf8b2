import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as callback from './actions/callback';
import * as image from './actions/image';
import * as queue from './actions/queue';
import * as text from './actions/text';
import { resources } from './actions/resources';
import { router } from './actions/router';
import { waitCallbackWebhook, webhook } from './actions/image/waitForCallback';
import { requestOptionsProperty } from './descriptions/requestOptions';
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
		// 2: one Options collection per operation (the request settings in it), no pasted ?token= URLs.
		version: [1, 2],
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Moderate images (immediately or deferred) and texts (through a queue), read image and text moderations, and manage moderation queues',
		defaults: { name: 'Content Moderation' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: verdictOutputs,
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		// Only for Image > Moderate's Wait for Callback: resume URLs of a waiting execution, never a trigger.
		webhooks: [waitCallbackWebhook],
		properties: [
			// Only on the AI Agent tool: what the model is told (the short action names the node).
			...toolDescriptionProperties(resources),
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Callback', value: 'callback', description: "Check and complete callbacks received by n8n's Webhook node" },
					{ name: 'Image', value: 'image', description: 'Moderate images and read their results' },
					{ name: 'Queue', value: 'queue', description: 'Add content to a moderation queue and read its items' },
					{ name: 'Text', value: 'text', description: 'Moderate texts through a queue, read or delete text moderations' },
				],
				default: 'image',
			},
			...image.description,
			...text.description,
			...callback.description,
			...queue.description,
			requestOptionsProperty,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}

	// n8n never registers a restart webhook (WebhookService.getNodeWebhooks skips them on publish).
	webhookMethods = unregisteredWebhookMethods;

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await webhook.call(this);
	}
}
