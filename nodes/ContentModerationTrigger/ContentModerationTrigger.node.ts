import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../ContentModeration/transport/client';
import { handleCallback } from './callback';
import { EVENT_OPTIONS } from './events';

export class ContentModerationTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Content Moderation Trigger',
		name: 'contentModerationTrigger',
		icon: {
			light: 'file:../ContentModeration/contentModeration.svg',
			dark: 'file:../ContentModeration/contentModeration.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{"Events: " + $parameter["events"]}}',
		description: 'Starts the workflow when the Content Moderation Service completes a deferred moderation',
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
					'Copy the Production URL above into the Content Moderation node (Image > Moderate > Options > Callback URL), then publish this workflow. If you set a Callback Token below, add <code>?token=&lt;your secret&gt;</code> to the end of the URL you paste.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'options',
				options: EVENT_OPTIONS,
				default: 'all',
				description:
					'Which completed moderations start the workflow; the others are acknowledged and ignored. A callback with only an ID that could not be read passes every filter except Safe Only.',
			},
			{
				displayName: 'Callback Token',
				name: 'callbackToken',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description:
					'Shared secret a callback must carry as the token query parameter (?token=...) or in an X-Callback-Token header; other calls get 401. Leave empty to accept every call.',
			},
			{
				displayName: 'Fetch Full Result',
				name: 'fetchFullResult',
				type: 'boolean',
				default: true,
				description:
					'Whether to read the full result (GET /image/{ID}) when the callback carries only the ID or misses fields. Only takes effect when a Content Moderation API credential is selected.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Include Headers and Query',
						name: 'includeRequest',
						type: 'boolean',
						default: false,
						description:
							'Whether to add the request headers and query parameters to the output. The token and authorization headers are redacted.',
					},
				],
			},
		],
	};

	// The service has no API to register or remove a callback: the user pastes the URL into the
	// Content Moderation node, so there is nothing to check, create or delete.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await handleCallback.call(this);
	}
}
