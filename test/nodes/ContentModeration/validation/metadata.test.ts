import type { IDataObject } from 'n8n-workflow';

import { checkMetadataObject, putMetadata, queueMetadataValue } from '@package/nodes/ContentModeration/validation/metadata';
import { InputProblem } from '@package/nodes/ContentModeration/validation/checks';

describe('putMetadata', () => {
	it('sets the same value under meta and metadata', () => {
		const body: IDataObject = {};
		putMetadata(body, { orderId: 'A-17' });
		expect(body).toEqual({ meta: { orderId: 'A-17' }, metadata: { orderId: 'A-17' } });
	});
});

describe('checkMetadataObject', () => {
	it('takes an object or JSON object text; empty is undefined', () => {
		expect(checkMetadataObject({ a: 1 }, 'Metadata')).toEqual({ a: 1 });
		expect(checkMetadataObject('{"a": 1}', 'Metadata')).toEqual({ a: 1 });
		for (const value of [undefined, null, '', '  ', {}, '{}']) expect(checkMetadataObject(value, 'Metadata')).toBeUndefined();
	});

	it('refuses invalid JSON, arrays and other values, naming the field', () => {
		for (const [value, message] of [
			['{a: 1}', 'The Metadata is not valid JSON'],
			['[1]', 'The Metadata must be a JSON object, not an array'],
			['"text"', 'The Metadata must be a JSON object, not string'],
			[5, 'The Metadata must be a JSON object'],
		] as Array<[unknown, string]>) {
			const problem = checkMetadataObject(value, 'Metadata');
			expect(problem).toBeInstanceOf(InputProblem);
			expect((problem as InputProblem).message).toBe(message);
		}
	});
});

describe('queueMetadataValue', () => {
	it('sends a JSON object written as text as that object, any other text as it is', () => {
		expect(queueMetadataValue('{"postId": "p-7"}')).toEqual({ postId: 'p-7' });
		expect(queueMetadataValue({ postId: 'p-7' })).toEqual({ postId: 'p-7' });
		expect(queueMetadataValue('post p-7')).toBe('post p-7');
		expect(queueMetadataValue('[1, 2]')).toBe('[1, 2]');
		expect(queueMetadataValue(42)).toBe('42');
		for (const value of [undefined, null, '', ' ']) expect(queueMetadataValue(value)).toBeUndefined();
	});

	it('refuses a list or a boolean from an expression instead of sending "1,2" or "true"', () => {
		expect((queueMetadataValue([1, 2]) as InputProblem).message).toBe('The Metadata must be a text, but the expression gave an array of 2 items');
		expect((queueMetadataValue(true) as InputProblem).message).toBe('The Metadata must be a text, but the expression gave a boolean');
	});
});
