/** The Text field (textInput.ts), by what n8n and the node make of it. */
import { textInputProperty } from '@package/nodes/ContentModeration/descriptions/textInput';
import { getText } from '@package/nodes/ContentModeration/validation/parameters';
import { issues, nodeTypeWith, readingFrom, resolved } from '@test/helpers/editorParameters';

const type = nodeTypeWith([textInputProperty]);

describe('the Text field', () => {
	it('holds what the node moderates', () => {
		expect(getText(readingFrom(resolved(type, { text: 'Hello there' })), 0)).toBe('Hello there');
	});

	it('left unset it is empty, and n8n asks for it before a run', () => {
		const unset = resolved(type, {});
		expect(issues(type, unset)).toEqual({ text: [expect.stringContaining('is required')] });
		expect(() => getText(readingFrom(unset), 0)).toThrow('The Text is empty');
		expect(issues(type, { text: 'Hello' })).toEqual({});
	});

	it('is a box of several lines: a message or a comment spans lines', () => {
		expect(textInputProperty.typeOptions?.rows).toBeGreaterThan(1);
	});
});
