/**
 * The Options collections (options.ts), by what n8n passes the node from the settings saved in them: a setting
 * the collection does not offer (or does not show) is dropped, so the node falls back to its default.
 */
import type { INodeParameters, INodeProperties } from 'n8n-workflow';

import { optionsCollection, requestSettingsCollection } from '@package/nodes/ContentModeration/descriptions/options';
import { DEFAULT_MAX_IMAGE_MB, readRequestOptions } from '@package/nodes/ContentModeration/descriptions/requestOptions';
import { getActorId } from '@package/nodes/ContentModeration/validation/parameters';
import { nodeTypeWith, readingFrom, resolved } from '@test/helpers/editorParameters';

const MB = 1024 * 1024;
const contentType: INodeProperties = { displayName: 'Content Type', name: 'contentType', type: 'string', default: 'text' };
const saved = { options: { maxRetries: 1, maxImageSizeMb: 2 } };
/** The request settings a run reads when the editor saved `parameters` beside these fields. */
const settings = (fields: INodeProperties[], parameters: INodeParameters = saved) =>
	readRequestOptions(readingFrom(resolved(nodeTypeWith([contentType, ...fields]), parameters)));
const option = (fields: INodeProperties[], displayName: string) =>
	(fields[0].options as INodeProperties[]).find((o) => o.displayName === displayName)!;

describe('requestSettingsCollection', () => {
	it('an operation sending no image: the request settings reach the node, Max Image Size is not offered', () => {
		expect(settings(requestSettingsCollection())).toMatchObject({ maxRetries: 1, maxImageBytes: DEFAULT_MAX_IMAGE_MB * MB });
	});

	it('one sending images: Max Image Size too', () => {
		expect(settings(requestSettingsCollection([], { sendsImages: true }))).toMatchObject({ maxRetries: 1, maxImageBytes: 2 * MB });
	});

	it('one sending images for some parameters only: Max Image Size only then, the others always', () => {
		const fields = requestSettingsCollection([], { sendsImages: { '/contentType': ['image'] } });
		expect(settings(fields, { contentType: 'image', ...saved })).toMatchObject({ maxRetries: 1, maxImageBytes: 2 * MB });
		expect(settings(fields, { contentType: 'text', ...saved })).toMatchObject({ maxRetries: 1, maxImageBytes: DEFAULT_MAX_IMAGE_MB * MB });
	});

	it("lists the operation's own options with the settings, A to Z as n8n's lint asks", () => {
		const own = ['Zeta', 'Alpha'].map((name): INodeProperties => ({ displayName: name, name: name.toLowerCase(), type: 'string', default: '' }));
		const labels = (requestSettingsCollection(own)[0].options as INodeProperties[]).map((o) => o.displayName);
		expect(labels).toEqual(expect.arrayContaining(['Alpha', 'Zeta', 'Max Retries']));
		expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
	});
});

describe('optionsCollection', () => {
	const fields = optionsCollection([], { sendsImages: true });
	const actorId = (options: INodeParameters) =>
		getActorId(readingFrom({}), 0, resolved(nodeTypeWith(fields), { options }).options as INodeParameters);

	it('offers Actor ID, which the node sends; added and left at its default it sends none', () => {
		expect(actorId({ actorId: 'user-17' })).toBe('user-17');
		const actorIdOption = option(fields, 'Actor ID');
		expect(actorId({ [actorIdOption.name]: actorIdOption.default })).toBeUndefined();
	});

	it('passes the request settings on', () => {
		expect(settings(fields)).toMatchObject({ maxRetries: 1, maxImageBytes: 2 * MB });
	});
});
