/**
 * The workflows the n8n-cost benchmark compares, each doing the same job for one callback:
 *   A  Content Moderation Trigger -> Content Moderation (Image > Get of the callback's id)
 *   B  n8n's Webhook -> HTTP Request (GET /image/{id} with the bearer header)
 *   C  n8n's Webhook -> Content Moderation (Callback > Receive: checks the secret, unwraps, completes with GET)
 *   D  Content Moderation Trigger alone, Fetch Full Result on (the GET in the webhook call, no expression)
 *   A0 a bare community trigger (fixture/: the body as its item) -> the same Image > Get: n8n's floor for
 *      any community trigger (an isolate per call: only n8n's own Webhook node is spared one)
 * and, for texts, a Webhook -> Text > Moderate workflow (TA) against a Webhook -> HTTP Request POST /text twin (TB).
 */
import { ACTION_TYPE, TRIGGER_TYPE } from '../../../dev/n8n/package';
import { CREDENTIAL_ID, CREDENTIAL_NAME } from '../../../dev/n8n/stack';
import { ownNodeVersion } from '../../helpers/engine/node-types';
import { BARE_TRIGGER_TYPE } from './setup';

export type Variant = 'image' | 'envelope' | 'text';
export type WorkflowKey = 'A' | 'A0' | 'B' | 'C' | 'D';

export const VARIANTS: Variant[] = ['image', 'envelope', 'text'];
export const WORKFLOW_KEYS: WorkflowKey[] = ['A', 'A0', 'B', 'C', 'D'];

export const LABELS: Record<Variant, Record<WorkflowKey, string>> = {
	image: {
		A: 'A: Content Moderation Trigger -> Image > Get',
		A0: 'A0: a bare community trigger -> Image > Get',
		B: "B: n8n's Webhook -> HTTP Request GET /image/{id}",
		C: "C: n8n's Webhook -> Callback > Receive",
		D: 'D: Content Moderation Trigger alone (Fetch Full Result)',
	},
	envelope: {
		A: 'A: Content Moderation Trigger -> Image > Get ({event, data})',
		A0: 'A0: a bare community trigger -> Image > Get ({event, data})',
		B: "B: n8n's Webhook -> HTTP Request GET /image/{data.id}",
		C: "C: n8n's Webhook -> Callback > Receive ({event, data})",
		D: 'D: Content Moderation Trigger alone (Fetch Full Result, {event, data})',
	},
	text: {
		A: "A: n8n's Webhook -> Text > Moderate",
		A0: '(none for texts)',
		B: "B: n8n's Webhook -> HTTP Request POST /text",
		C: '(none for texts)',
		D: '(none for texts)',
	},
};

export interface BenchWorkflow {
	variant: Variant;
	key: WorkflowKey;
	id: string;
	/** Path and query of its production URL under n8n's base URL */
	path: string;
	json: object;
}

const credentials = { contentModerationApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };

const node = (name: string, type: string, typeVersion: number, parameters: object, x: number, extra: object = {}) => ({
	id: `${name}-0000-4000-8000-000000000000`.replace(/[^a-z0-9-]/gi, '').slice(0, 36),
	name,
	type,
	typeVersion,
	position: [x, 0],
	parameters,
	...extra,
});

function workflow(id: string, name: string, nodes: Array<{ name: string }>): object {
	const connections: Record<string, object> = {};
	for (let i = 0; i + 1 < nodes.length; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return { id, name, active: false, nodes, connections, settings: { executionOrder: 'v1' } };
}

const webhookNode = (path: string) =>
	node('Webhook', 'n8n-nodes-base.webhook', 2, { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} }, 0, {
		webhookId: `${path}-hook`,
	});

/** An n8n workflow id: 16 characters. */
const wfId = (variant: Variant, key: WorkflowKey) => `cmCost${variant.slice(0, 3)}${key === 'A0' ? 'F' : key}`.padEnd(16, '0');

/**
 * Every workflow of `variant`. `serviceUrl`/`token` are written into HTTP Request as a user would (a plain
 * Authorization header); `secret` is the Callback Secret the package's workflows check.
 */
export function benchWorkflows(variant: Variant, serviceUrl: string, token: string, secret: string): BenchWorkflow[] {
	const q = `?token=${encodeURIComponent(secret)}`;
	const bearer = { sendHeaders: true, headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${token}` }] } };
	const idExpr = variant === 'envelope' ? '$json.body.data.id' : '$json.body.id';
	if (variant === 'text') {
		const a = `cost-text-a`;
		const b = `cost-text-b`;
		return [
			{
				variant,
				key: 'A',
				id: wfId(variant, 'A'),
				path: a,
				json: workflow(wfId(variant, 'A'), 'n8n cost: text A', [
					webhookNode(a),
					node('Moderate', ACTION_TYPE, ownNodeVersion(ACTION_TYPE), { resource: 'text', operation: 'moderate', text: '={{ $json.body.text }}' }, 220, { credentials }),
				]),
			},
			{
				variant,
				key: 'B',
				id: wfId(variant, 'B'),
				path: b,
				json: workflow(wfId(variant, 'B'), 'n8n cost: text B', [
					webhookNode(b),
					node(
						'HTTP Request',
						'n8n-nodes-base.httpRequest',
						4.2,
						{
							method: 'POST',
							url: `${serviceUrl}/text`,
							...bearer,
							sendBody: true,
							specifyBody: 'json',
							jsonBody: '={{ JSON.stringify({ text: $json.body.text }) }}',
							options: {},
						},
						220,
					),
				]),
			},
		];
	}
	const triggerHook = `cost-${variant}-a-hook`;
	const bareHook = `cost-${variant}-a0-hook`;
	const b = `cost-${variant}-b`;
	const c = `cost-${variant}-c`;
	const triggerAlone = `cost-${variant}-d-hook`;
	return [
		{
			variant,
			key: 'A',
			id: wfId(variant, 'A'),
			path: `${triggerHook}/callback${q}`,
			json: workflow(wfId(variant, 'A'), `n8n cost: ${variant} A`, [
				// The GET is the action node's: the trigger passes the callback on as it came.
				node('Trigger', TRIGGER_TYPE, ownNodeVersion(TRIGGER_TYPE), { fetchFullResult: false, options: {} }, 0, { webhookId: triggerHook, credentials }),
				node('Get Result', ACTION_TYPE, ownNodeVersion(ACTION_TYPE), { resource: 'image', operation: 'get', imageId: '={{ $json.id }}' }, 220, {
					credentials,
				}),
			]),
		},
		{
			variant,
			key: 'A0',
			id: wfId(variant, 'A0'),
			path: `${bareHook}/callback`,
			json: workflow(wfId(variant, 'A0'), `n8n cost: ${variant} A0`, [
				node('Trigger', BARE_TRIGGER_TYPE, 2, {}, 0, { webhookId: bareHook }),
				node('Get Result', ACTION_TYPE, ownNodeVersion(ACTION_TYPE), { resource: 'image', operation: 'get', imageId: `={{ ${idExpr.replace('.body', '')} }}` }, 220, {
					credentials,
				}),
			]),
		},
		{
			variant,
			key: 'B',
			id: wfId(variant, 'B'),
			path: b,
			json: workflow(wfId(variant, 'B'), `n8n cost: ${variant} B`, [
				webhookNode(b),
				node('HTTP Request', 'n8n-nodes-base.httpRequest', 4.2, { url: `=${serviceUrl}/image/{{ ${idExpr} }}`, ...bearer, options: {} }, 220),
			]),
		},
		{
			variant,
			key: 'C',
			id: wfId(variant, 'C'),
			path: `${c}${q}`,
			json: workflow(wfId(variant, 'C'), `n8n cost: ${variant} C`, [
				webhookNode(c),
				node('Receive', ACTION_TYPE, ownNodeVersion(ACTION_TYPE), { resource: 'callback', operation: 'receive' }, 220, { credentials }),
			]),
		},
		{
			variant,
			key: 'D',
			id: wfId(variant, 'D'),
			path: `${triggerAlone}/callback${q}`,
			json: workflow(wfId(variant, 'D'), `n8n cost: ${variant} D`, [
				node('Trigger', TRIGGER_TYPE, ownNodeVersion(TRIGGER_TYPE), { fetchFullResult: true, options: {} }, 0, { webhookId: triggerAlone, credentials }),
			]),
		},
	];
}

/** The body of callback `i` of a burst: a flat result id, the service's `{event, data}`, or a text. */
export function callbackBody(variant: Variant, id: string, i: number): object {
	if (variant === 'text') return { text: `Comment number ${i}: a perfectly friendly remark about the weather.` };
	if (variant === 'envelope') return { event: 'moderation.completed', data: { id } };
	return { id };
}
