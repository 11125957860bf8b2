import type { IAuthenticateGeneric, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

// The spec has no endpoint that only checks a token, so the credential is tested by the nodes
// (`testedBy: 'contentModerationApiTest'`, see nodes/ContentModeration/shared/credentialTest.ts).
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
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.accessToken}}',
			},
		},
	};
}
