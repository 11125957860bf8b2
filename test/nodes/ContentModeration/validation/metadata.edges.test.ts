/** Metadata values at their edges: null, numbers that are not finite, lists and booleans, and the fixes named. */
import { checkMetadataObject, queueMetadataValue } from '@package/nodes/ContentModeration/validation/metadata';
import { InputProblem } from '@package/nodes/ContentModeration/validation/checks';

const MAP_FIX =
	'Nothing was sent. Map the value itself, not the object or list around it, for example {{ $json.meta }}; check the input item in the Input panel.';

describe('checkMetadataObject: the fix it names', () => {
	it.each([
		['[1, 2]', 'The Metadata must be a JSON object, not an array'],
		['"text"', 'The Metadata must be a JSON object, not string'],
		[[1, 2], 'The Metadata must be a JSON object'],
	])('%p: %s', (value, message) => {
		expect(checkMetadataObject(value, 'Metadata')).toEqual(
			new InputProblem(
				message,
				'Enter a JSON object such as {"orderId": "A-17"} (double quotes around names and texts), or leave it empty.',
			),
		);
	});
});

describe('queueMetadataValue at its edges', () => {
	it('is undefined for null', () => {
		expect(queueMetadataValue(null)).toBeUndefined();
	});

	it.each([
		[7, '7'],
		[-0.5, '-0.5'],
	])('a finite number %p is sent as its text', (value, expected) => {
		expect(queueMetadataValue(value)).toBe(expected);
	});

	it.each([
		[NaN, 'a number (NaN)'],
		[Infinity, 'a number (Infinity)'],
		[[1], 'an array of 1 item'],
		[true, 'a boolean'],
	])('%p is refused, not turned into text', (value, given) => {
		expect(queueMetadataValue(value)).toEqual(
			new InputProblem(`The Metadata must be a text, but the expression gave ${given}`, MAP_FIX),
		);
	});
});
