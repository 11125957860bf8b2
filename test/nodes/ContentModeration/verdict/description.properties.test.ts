/**
 * The routing parameters as saved workflows and the code read them: names, types, defaults, limits and when
 * each shows. The editor's words (display names, descriptions) are left out: they are for people.
 */
import type { INodeProperties } from 'n8n-workflow';

import {
	CUSTOM_CATEGORY,
	verdictProperties,
	WAIT_CALLBACK_MODE,
} from '@package/nodes/ContentModeration/verdict/description';
import { NSFW_CATEGORIES } from '@package/nodes/ContentModeration/verdict/rules';

const EDITOR_TEXT = new Set(['displayName', 'description', 'placeholder', 'hint']);

/** The properties without the editor's words; a category option keeps its name (what the dropdown lists). */
function withoutEditorText(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(withoutEditorText);
	if (value === null || typeof value !== 'object') return value;
	return Object.fromEntries(
		Object.entries(value)
			.filter(([key]) => !EDITOR_TEXT.has(key))
			.map(([key, entry]) => [key, withoutEditorText(entry)]),
	);
}

const routing = { show: { routeByVerdict: [true] } };

it('keeps the values saved workflows hold: the Wait for Callback mode and the free-text category', () => {
	expect(WAIT_CALLBACK_MODE).toBe('waitCallback');
	expect(CUSTOM_CATEGORY).toBe('__custom');
});

it('declares each routing parameter with its type, default, limits and when it shows', () => {
	const properties = withoutEditorText(verdictProperties) as INodeProperties[];
	const thresholds = properties[3].options as Array<{ values: INodeProperties[] }>;
	const category = thresholds[0].values[0];
	expect({ ...category, options: undefined }).toEqual({ name: 'category', type: 'options', default: 'adult_content', options: undefined });
	expect(properties).toEqual([
		{ name: 'routeByVerdict', type: 'boolean', default: false, noDataExpression: true },
		{ name: 'reviewOutput', type: 'boolean', default: false, noDataExpression: true, displayOptions: routing },
		{
			name: 'riskThreshold',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0, maxValue: 100 },
			displayOptions: routing,
		},
		{
			name: 'categoryThresholds',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			displayOptions: routing,
			options: [
				{
					name: 'thresholds',
					values: [
						category,
						{
							name: 'customCategory',
							type: 'string',
							default: '',
							displayOptions: { show: { category: ['__custom'] } },
						},
						{ name: 'threshold', type: 'number', default: 50, typeOptions: { minValue: 1, maxValue: 100 } },
					],
				},
			],
		},
		{ name: 'keepInput', type: 'boolean', default: true, displayOptions: routing },
	]);
});

it('lists each spec category by its words capitalized, and free text, in alphabetical order', () => {
	const thresholds = verdictProperties[3].options as Array<{ values: INodeProperties[] }>;
	const options = (thresholds[0].values[0].options ?? []) as Array<{ name: string; value: string }>;
	expect(options.filter((o) => o.value !== '__custom')).toHaveLength(NSFW_CATEGORIES.length);
	expect(options.find((o) => o.value === 'adult_content')?.name).toBe('Adult Content');
	expect(options.find((o) => o.value === 'dating_relationship')?.name).toBe('Dating Relationship');
	expect(options.find((o) => o.value === 'alcohol')?.name).toBe('Alcohol');
	expect(options.find((o) => o.value === '__custom')?.name).toBe('Other (Type a Name)');
	const names = options.map((o) => o.name);
	expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	expect(names[0]).toBe('Adult Content');
});
