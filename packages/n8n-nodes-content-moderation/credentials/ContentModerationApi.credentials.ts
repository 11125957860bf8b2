import type {
	IAuthenticate,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/** Statuses that fail the Test button; any other answer (404 above all) means the token was accepted. */
const FAILING_STATUSES = [400, 402, 405, 406, 407, 408, 410, 429, 500, 501, 502, 503, 504];
const REJECTED_TOKEN = 'The service rejected the access token';

export class ContentModerationApi implements ICredentialType {
	name = 'contentModerationApi';

	displayName = 'Content Moderation API';

	icon: Icon = {
		light: 'file:../nodes/ContentModeration/contentModeration.svg',
		dark: 'file:../nodes/ContentModeration/contentModeration.dark.svg',
	};

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-content-moderation#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://moderation.example.com',
			description:
				'Address of the Content Moderation Service, with http:// or https://. A trailing slash is ignored.',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Bearer token sent as "Authorization: Bearer &lt;token&gt;" with every request',
		},
		{
			displayName: 'Callback Secret',
			name: 'callbackSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Optional. A secret of your choice for deferred moderations: the Content Moderation node adds it to the Callback URL it sends (?token=…), and a Content Moderation Trigger using this credential accepts only callbacks that carry it. The service sees it as part of that URL.',
		},
	];

	// Plain code, not an '=Bearer {{...}}' expression: n8n evaluates a generic block's expressions on every
	// request (in its expression isolate), which a callback workflow pays once per execution.
	authenticate: IAuthenticate = async (credentials, requestOptions) => ({
		...requestOptions,
		headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.accessToken ?? '')}` },
	});

	// The spec has no endpoint that only checks a token. Every endpoint requires it, so the test reads an
	// image moderation that cannot exist: 401/403 is a wrong token, 404 is an accepted one.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ $credentials.baseUrl.trim().replace(/\\/+$/, "") }}',
			url: '/image/n8n-credential-test',
			method: 'GET',
			ignoreHttpStatusErrors: { ignore: true, except: [401, 403, ...FAILING_STATUSES] },
		},
		rules: [
			{ type: 'responseCode', properties: { value: 401, message: `${REJECTED_TOKEN} (HTTP 401)` } },
			{ type: 'responseCode', properties: { value: 403, message: `${REJECTED_TOKEN} (HTTP 403)` } },
		],
	};
}
