import type {
	IAuthenticate,
	IAuthenticateRuleResponseCode,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/** Statuses that fail the Test button; any other answer (404 above all) means the token was accepted. */
const FAILING_STATUSES = [400, 402, 405, 406, 407, 408, 410, 429, 500, 501, 502, 503, 504];
const REJECTED_TOKEN = 'The service rejected the secret key';
/** Well-formed (a UUID), so that a service that validates ids answers 404, not 400. */
const PROBE_ID = '00000000-0000-4000-8000-000000000000';
const REFUSED =
	'The service refused the test request (HTTP 400): check that the Base URL is the ContentMod API (https://api.contentmod.io)';
const NOT_THE_API =
	"Nothing at this Base URL answers like the ContentMod API: the test's GET /image/<id> got a web page or plain text, not the API's JSON error. Set the Base URL to the API's root, https://api.contentmod.io, with no path such as /api/v1 (the key was not checked)";
/** A `user:password@` in the Base URL is never sent (it would replace the Secret Key): the test names the fix. */
const TEST_BASE_URL =
	'/^[a-z][a-z0-9+.-]*:[\\/\\\\]*[^\\/\\\\?#]*@/i.test($credentials.baseUrl.trim()) ? "http://remove-user-and-password-from-the-base-url.invalid" : $credentials.baseUrl.trim().replace(/\\/+$/, "")';

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
			default: 'https://api.contentmod.io',
			required: true,
			placeholder: 'https://api.contentmod.io',
			description:
				'Address of the ContentMod API, with http:// or https://. Change it only for another deployment or a local mock. A trailing slash is ignored.',
		},
		{
			// The saved name stays accessToken, so existing credentials keep working.
			displayName: 'Secret Key',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Your account\'s secret key from the ContentMod dashboard, sent as "Authorization: Bearer &lt;key&gt;" with every request. The public key is not needed here.',
		},
		{
			displayName: 'Callback Secret',
			name: 'callbackSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Required to receive callbacks: a secret of your choice, 16 or more random characters (e.g. the output of "openssl rand -hex 16"). A published Content Moderation Trigger, and Callback > Receive in a published workflow, accept callbacks only with it; the Content Moderation node adds it to the Callback URL it sends (?token=…). Not needed to moderate without callbacks. The service sees it as part of that URL.',
		},
	];

	// Plain code, not an '=Bearer {{...}}' expression: n8n evaluates a generic block's expressions on every
	// request (in its expression isolate), which a callback workflow pays once per execution.
	authenticate: IAuthenticate = async (credentials, requestOptions) => ({
		...requestOptions,
		headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.accessToken ?? '')}` },
	});

	// No endpoint only checks a key, and every one requires it: the test reads an image moderation that cannot
	// exist. 401/403: a wrong key; a 404 in JSON: the API, key accepted; a text or HTML body: nothing served here.
	test: ICredentialTestRequest = {
		request: {
			baseURL: `={{ ${TEST_BASE_URL} }}`,
			url: `/image/${PROBE_ID}`,
			method: 'GET',
			ignoreHttpStatusErrors: { ignore: true, except: [401, 403, ...FAILING_STATUSES] },
			sendCredentialsOnCrossOriginRedirect: false,
		},
		// Both kinds in one list (n8n's type wants one; its tester reads each rule by its type). n8n fails the test
		// when lodash's get(body, key) equals value: only a text body's constructor.name is "String".
		rules: [
			{ type: 'responseCode', properties: { value: 401, message: `${REJECTED_TOKEN} (HTTP 401)` } },
			{ type: 'responseCode', properties: { value: 403, message: `${REJECTED_TOKEN} (HTTP 403)` } },
			{ type: 'responseCode', properties: { value: 400, message: REFUSED } },
			{ type: 'responseSuccessBody', properties: { key: 'constructor.name', value: 'String', message: NOT_THE_API } },
		] as unknown as IAuthenticateRuleResponseCode[],
	};
}
