/** The trigger's description: the contract teammates and n8n's lint build on. */
import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ContentModerationTrigger } from '@package/nodes/ContentModeration/ContentModerationTrigger.node';

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

/** The parameters n8n runs the trigger with: saved values of displayed fields, defaults. */
function shown(parameters: INodeParameters): INodeParameters {
	const node: INode = { id: '1', name: 't', type: description.name, typeVersion: description.version as number, position: [0, 0], parameters };
	return NodeHelpers.getNodeParameters(description.properties, parameters, true, false, node, description)!;
}

test('one version, 2 (not 1, docs/callbacks.md): what a trigger added from the nodes panel gets is what every workflow runs', () => {
	expect(description.version).toBe(2);
	expect(description.defaultVersion).toBeUndefined();
});

test('parameters: events, verdict filter, fetch full result, options; no token field', () => {
	expect(Object.keys(shown({})).sort()).toEqual(['burstNotice', 'eventTypes', 'events', 'fetchFullResult', 'notice', 'options']);
	expect(shown({})).toMatchObject({ eventTypes: 'both', events: 'all', fetchFullResult: true });
	expect((property('eventTypes').options ?? []).map((o) => (o as { value: string }).value)).toEqual(['both', 'results', 'reviews', 'any']);
	expect((property('events').options ?? []).map((o) => (o as { value: string }).value)).toEqual(['all', 'flagged', 'review', 'safe']);
	// The verdict filter is about results: hidden when only review decisions start the workflow.
	expect(shown({ eventTypes: 'reviews' })).not.toHaveProperty('events');
	// A token typed into the workflow's JSON by hand is not a parameter n8n runs the trigger with.
	expect(shown({ callbackToken: 'typed-5e21' })).not.toHaveProperty('callbackToken');
	expect(property('fetchFullResult').description).toMatch(/credential/);
	expect(property('options').options?.map((o) => o.name)).toEqual(['acceptWithoutSecret', 'includeRequest']);
});

// The webhook filters results by verdict under each of these; a hidden Results would run as 'all'.
test.each(['both', 'results', 'any'])('with Events %j the chosen verdict filter is what the trigger runs with', (eventTypes) => {
	expect(shown({ eventTypes, events: 'flagged' })).toMatchObject({ eventTypes, events: 'flagged' });
});

/** The subtitle as the editor shows it: its expression over the parameters n8n gives it (hidden ones unset). */
function subtitle(parameters: INodeParameters): unknown {
	const body = String(description.subtitle).replace(/^=\{\{/, '').replace(/\}\}$/, '').replace(/\$parameter\["(\w+)"\]/g, 'p.$1');
	return new Function('p', `return ${body};`)(shown(parameters));
}

test('the subtitle names what starts the workflow for every Events choice, never "undefined"', () => {
	expect(subtitle({})).toBe('Results: all, Review Decisions');
	expect(subtitle({ eventTypes: 'results', events: 'flagged' })).toBe('Results: flagged');
	expect(subtitle({ eventTypes: 'reviews', events: 'flagged' })).toBe('Review Decisions');
	expect(subtitle({ eventTypes: 'any' })).toBe('Every Event');
});
