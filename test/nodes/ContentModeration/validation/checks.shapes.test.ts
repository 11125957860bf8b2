/**
 * Fail closed on shape, through n8n-core's engine: every text, id, URL and actor field mapped by an
 * expression to an object, an array, a boolean, null, a number or nothing sends nothing to the service and
 * fails the item with an error naming the field, what the expression gave and how to map it. With Route
 * by Verdict such an item never reaches Safe.
 */
import type { INodeParameters } from 'n8n-workflow';

import { SAFE_TEXT } from '@dev/mock/fixtures';
import { pairedIndex } from '@test/helpers/fixtures';
import { NODE_NAME, nodeError, useMock } from '@test/helpers/nodeRun';

const mock = useMock();

/** One input item holding every shape; the expressions below pick one. */
const ITEM = {
	json: { body: { text: 'I hate you, idiot', user: 'u-1' }, list: [1, 2, 3], num: 42, fraction: 1.5, flag: false, nil: null, empty: '' },
};

/** Each shape an expression can give, and the words the error must use for it ('' = empty). */
const SHAPES: Array<[string, string, string]> = [
	['object', '={{ $json.body }}', 'an object with keys text, user'],
	['array', '={{ $json.list }}', 'an array of 3 items'],
	['boolean', '={{ $json.flag }}', 'a boolean'],
	['null', '={{ $json.nil }}', 'null'],
	['empty text', '={{ $json.empty }}', ''],
	['undefined', '={{ $json.missing }}', ''],
];
/** Text, URL and base64 fields take no number; ids and Actor ID take whole numbers only. */
const TEXT_ONLY: Array<[string, string, string]> = [...SHAPES, ['number', '={{ $json.num }}', 'a number (42)']];
const WHOLE_NUMBERS: Array<[string, string, string]> = [...SHAPES, ['fraction', '={{ $json.fraction }}', 'a number (1.5)']];

interface Field {
	field: string;
	parameters: (value: string) => INodeParameters;
	shapes: Array<[string, string, string]>;
}

const FIELDS: Field[] = [
	{ field: 'Text', parameters: (text) => ({ resource: 'text', operation: 'moderate', text }), shapes: TEXT_ONLY },
	{
		field: 'Text',
		parameters: (text) => ({ resource: 'queue', operation: 'addItem', queueId: 'comments', contentType: 'text', text }),
		shapes: TEXT_ONLY,
	},
	{
		field: 'Actor ID',
		parameters: (actorId) => ({ resource: 'queue', operation: 'addItem', queueId: 'comments', contentType: 'text', text: SAFE_TEXT, options: { actorId } }),
		// An empty Actor ID is "not set", which is right: only the other shapes are refused.
		shapes: WHOLE_NUMBERS.filter(([, , words]) => words !== '' && words !== 'null'),
	},
	{
		field: 'Actor ID',
		parameters: (actorId) => ({ resource: 'text', operation: 'moderate', text: SAFE_TEXT, options: { actorId } }),
		shapes: WHOLE_NUMBERS.filter(([, , words]) => words !== '' && words !== 'null'),
	},
	{ field: 'Image URL', parameters: (imageUrl) => ({ resource: 'image', operation: 'moderate', inputType: 'url', imageUrl }), shapes: TEXT_ONLY },
	{
		field: 'Image (Base64)',
		parameters: (imageBase64) => ({ resource: 'image', operation: 'moderate', inputType: 'base64', imageBase64 }),
		shapes: TEXT_ONLY,
	},
	{ field: 'Image ID', parameters: (imageId) => ({ resource: 'image', operation: 'get', imageId }), shapes: WHOLE_NUMBERS },
	{ field: 'Text ID', parameters: (textId) => ({ resource: 'text', operation: 'get', textId }), shapes: WHOLE_NUMBERS },
	{ field: 'Text ID', parameters: (textId) => ({ resource: 'text', operation: 'delete', textId }), shapes: WHOLE_NUMBERS },
	{ field: 'Queue ID', parameters: (queueId) => ({ resource: 'queue', operation: 'getItem', queueId, itemId: 'item-1' }), shapes: WHOLE_NUMBERS },
	{ field: 'Item ID', parameters: (itemId) => ({ resource: 'queue', operation: 'getItem', queueId: 'comments', itemId }), shapes: WHOLE_NUMBERS },
];

const cases = FIELDS.flatMap(({ field, parameters, shapes }) =>
	shapes.map(([shape, expression, words]) => {
		const p = parameters(expression);
		return { name: `${p.resource} > ${p.operation}: ${field} given ${shape}`, field, parameters: p, words };
	}),
);

describe('a field given the wrong shape by an expression', () => {
	it.each(cases)('$name: sends nothing and names the field, the shape and the fix', async ({ field, parameters, words }) => {
		const run = await mock.run(parameters, [ITEM]);
		expect(mock.service.requests).toEqual([]);
		const error = nodeError(run);
		expect(error.context?.itemIndex).toBe(0);
		if (words === '') {
			expect(error.message).toContain(`The ${field} is empty`);
		} else {
			expect(error.message).toContain(`The ${field} must be a text`);
			expect(error.message).toContain(`the expression gave ${words}`);
			expect(error.description).toMatch(/Nothing was sent\. Map the value itself.*\{\{ \$json\./);
		}
		expect(error.message).not.toContain('[object Object]');
	});
});

describe('numbers where an id or Actor ID belongs', () => {
	it('sends a whole-number Actor ID as its decimal text', async () => {
		const run = await mock.run({ resource: 'queue', operation: 'addItem', queueId: 'comments', contentType: 'text', text: SAFE_TEXT, options: { actorId: '={{ $json.num }}' } }, [ITEM]);
		expect(run.status).toBe('success');
		expect(mock.service.requests.map((r) => r.body)).toEqual([{ type: 'text', content: SAFE_TEXT, actorId: '42' }]);
	});

	it('reads a whole-number id as its decimal text', async () => {
		const run = await mock.run({ resource: 'text', operation: 'get', textId: '={{ $json.id }}' }, [{ json: { id: 12345 } }]);
		expect(mock.service.requests.map((r) => r.path)).toEqual(['/text/12345']);
		expect(nodeError(run).message).toContain('400');
	});
});

describe('with Route by Verdict, an item given an object never leaves on Safe', () => {
	const items = [ITEM, { json: { body: { text: SAFE_TEXT } } }];
	const parameters = { resource: 'text', operation: 'moderate', text: '={{ $json.body.text ?? $json.body }}', routeByVerdict: true };

	it('On Error: Continue (using error output): one error item on the Error output, paired to its input', async () => {
		// The first item's body.text is a string; map the whole body for it alone.
		const run = await mock.run({ ...parameters, text: '={{ $itemIndex === 0 ? $json.body : $json.body.text }}' }, items, { onError: 'continueErrorOutput' });
		expect(run.error).toBeUndefined();
		const [safe, flagged, errors] = run.outputsOf(NODE_NAME);
		expect(safe.map(pairedIndex)).toEqual([1]);
		expect(flagged).toEqual([]);
		expect(errors).toHaveLength(1);
		expect(pairedIndex(errors[0])).toBe(0);
		expect(String(errors[0].json.error)).toContain('The Text must be a text, but the expression gave an object with keys text, user');
		expect(mock.service.requests.map((r) => r.body)).toEqual([{ text: SAFE_TEXT }]);
	});

	it('On Error: Continue: the error item goes to Flagged, not Safe', async () => {
		const run = await mock.run({ ...parameters, text: '={{ $itemIndex === 0 ? $json.body : $json.body.text }}' }, items, { onError: 'continueRegularOutput' });
		const [safe, flagged] = run.outputsOf(NODE_NAME);
		expect(safe.map(pairedIndex)).toEqual([1]);
		expect(flagged.map(pairedIndex)).toEqual([0]);
		expect(String(flagged[0].json.error)).toContain('an object with keys text, user');
		expect(mock.service.requests).toHaveLength(1);
	});

	it('without On Error the run fails naming item 0, and nothing was sent for it', async () => {
		const run = await mock.run({ ...parameters, text: '={{ $json.body }}' }, [ITEM]);
		expect(run.status).toBe('error');
		expect(nodeError(run).context?.itemIndex).toBe(0);
		expect(mock.service.requests).toEqual([]);
	});
});
