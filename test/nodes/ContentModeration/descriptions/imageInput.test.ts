/** The image input fields (imageInput.ts), by what n8n shows and asks for, and what a run reads. */
import type { INodePropertyOptions } from 'n8n-workflow';

import { SAFE_IMAGE_BASE64, SAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { imageInputProperties } from '@package/nodes/ContentModeration/descriptions/imageInput';
import { binaryItem } from '@test/helpers/engine';
import { issues, nodeTypeWith, resolved, shownFields } from '@test/helpers/editorParameters';
import { output, useMock } from '@test/helpers/nodeRun';

const mock = useMock();
const type = nodeTypeWith(imageInputProperties);
const field = (displayName: string) => imageInputProperties.find((p) => p.displayName === displayName)!;
const offered = (field('Input Type').options as INodePropertyOptions[]).map((option) => option.value);
const moderate = (parameters: Record<string, string>, items = [{ json: {} }]) =>
	mock.run({ resource: 'image', operation: 'moderate', ...parameters }, items);

describe('Input Type', () => {
	it.each([
		['url', { imageUrl: SAFE_IMAGE_URL }],
		['base64', { imageBase64: SAFE_IMAGE_BASE64 }],
		// Binary Property left at its default: the binary field a previous node names "data".
		['binary', {}],
	])('%s is offered and shows the one field a run reads', async (inputType, value) => {
		expect(offered).toContain(inputType);
		const [shown, ...others] = shownFields(type, { inputType }).filter((name) => name !== 'inputType');
		expect(others).toEqual([]);
		expect(Object.keys(value)).toEqual(inputType === 'binary' ? [] : [shown]);
		const run = await moderate({ inputType, ...value }, [binaryItem(Buffer.from(SAFE_IMAGE_BASE64, 'base64'))]);
		expect(output(run).map((item) => item.json.isSafe)).toEqual([true]);
	});

	it('offers nothing the node does not read; left unset it is Image URL', async () => {
		expect(offered).toHaveLength(3);
		expect(shownFields(type, {})).toEqual(['inputType', 'imageUrl']);
		expect(output(await moderate({ imageUrl: SAFE_IMAGE_URL })).map((item) => item.json.isSafe)).toEqual([true]);
	});

	it('takes no expression: n8n keeps it as text, the fields shown cannot depend on an item', () => {
		expect(resolved(type, { inputType: '={{ "binary" }}' }).inputType).not.toMatch(/^=/);
	});
});

describe('the field Input Type shows', () => {
	it.each(['url', 'base64'])('for %s: left unset it is empty, and n8n asks for it before a run', (inputType) => {
		expect(Object.keys(issues(type, resolved(type, { inputType })))).toEqual(shownFields(type, { inputType }).slice(1));
	});

	it('for binary: left unset it names the field "data"; emptied, n8n asks for it', () => {
		expect(issues(type, resolved(type, { inputType: 'binary' }))).toEqual({});
		expect(issues(type, resolved(type, { inputType: 'binary', binaryPropertyName: '' }))).toEqual({
			binaryPropertyName: [expect.stringContaining('is required')],
		});
	});

	it('Base64 is a box of several lines', () => {
		expect(field('Image (Base64)').typeOptions?.rows).toBeGreaterThan(1);
	});
});
