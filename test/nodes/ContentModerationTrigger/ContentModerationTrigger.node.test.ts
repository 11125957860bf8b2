/** The trigger's description: the contract teammates and n8n's lint build on. */
import type { IHookFunctions, INodeProperties } from 'n8n-workflow';

import { ContentModerationTrigger } from '@package/nodes/ContentModerationTrigger/ContentModerationTrigger.node';

const trigger = new ContentModerationTrigger();
const { description } = trigger;

function property(name: string): INodeProperties {
	const found = description.properties.find((p) => p.name === name);
	if (!found) throw new Error(`no property ${name}`);
	return found;
}

test('one POST webhook "default" at path callback, answered on receipt', () => {
	expect(description.name).toBe('contentModerationTrigger');
	expect(description.displayName).toBe('Content Moderation Trigger');
	expect(description.webhooks).toEqual([
		expect.objectContaining({
			name: 'default',
			httpMethod: 'POST',
			path: 'callback',
			responseMode: 'onReceived',
			responseData: '',
		}),
	]);
	expect(description.inputs).toEqual([]);
	expect(description.outputs).toEqual(['main']);
	expect(description.group).toEqual(['trigger']);
	expect((description as { usableAsTool?: boolean }).usableAsTool).toBeUndefined();
});

test('the credential is optional', () => {
	expect(description.credentials).toEqual([{ name: 'contentModerationApi', required: false }]);
});

test('the lifecycle methods are stubs that succeed', async () => {
	const hooks = {} as IHookFunctions;
	for (const method of ['checkExists', 'create', 'delete'] as const) {
		await expect(trigger.webhookMethods.default[method].call(hooks)).resolves.toBe(true);
	}
});

test('parameters: events filter, callback token, fetch full result, options', () => {
	expect(property('events')).toMatchObject({ type: 'options', default: 'all' });
	expect((property('events').options ?? []).map((o) => (o as { value: string }).value)).toEqual([
		'all',
		'flagged',
		'review',
		'safe',
	]);
	expect(property('callbackToken')).toMatchObject({
		type: 'string',
		default: '',
		typeOptions: { password: true },
	});
	expect(property('fetchFullResult')).toMatchObject({ type: 'boolean', default: true });
	expect(property('fetchFullResult').description).toMatch(/credential/);
	expect(property('options').options?.map((o) => o.name)).toEqual(['includeRequest']);
});

test('the notice says where to paste the URL and recommends the credential\'s Callback Secret', () => {
	const notice = property('notice');
	expect(notice.type).toBe('notice');
	expect(notice.displayName).toMatch(/Production URL/);
	expect(notice.displayName).toMatch(/Image > Moderate > Options > Callback URL/);
	expect(notice.displayName).toMatch(/publish this workflow/);
	expect(notice.displayName).toMatch(/Callback Secret in the Content Moderation API credential/);
});

test('the trigger\'s panel points a user who expects bursts to Webhook + Callback > Receive or to lazy isolate acquisition', () => {
	const notice = new ContentModerationTrigger().description.properties.find((p) => p.name === 'burstNotice');
	expect(notice?.type).toBe('notice');
	expect(notice?.displayOptions).toBeUndefined();
	expect(notice?.displayName).toMatch(/Webhook node followed by Content Moderation > Callback > Receive/);
	expect(notice?.displayName).toMatch(/N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true/);
	expect(notice?.displayName).toMatch(/200 at once/);
});
