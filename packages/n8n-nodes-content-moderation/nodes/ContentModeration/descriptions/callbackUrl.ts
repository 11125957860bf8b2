import type { INodeProperties } from 'n8n-workflow';

/** The Callback URL field's help (Image and Text > Moderate): where to point it, and the path for bursts. */
const CALLBACK_URL_HELP =
	"Where the service sends the result when it is ready: the Production URL of a Content Moderation Trigger, or, when many moderations can finish at once, of n8n's Webhook node followed by Callback > Receive (200 completions at once at n8n's default settings: the Webhook path passed on all 200, the trigger lost more than half; setting N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true on n8n keeps the trigger lossless too). When the credential has a Callback Secret, it is added to this URL as ?token=… for you.";

/** The Callback URL option, shown in the Modes `modes` that submit with it; `notes` follow the help. */
export const callbackUrlOption = (modes: string[], ...notes: string[]): INodeProperties => ({
	displayName: 'Callback URL',
	name: 'callbackUrl',
	type: 'string',
	default: '',
	placeholder: 'https://your-n8n.example.com/webhook/…/callback',
	description: [CALLBACK_URL_HELP, ...notes].join(' '),
	displayOptions: { show: { '/mode': modes } },
});
