/** The Callback URL option (callbackUrl.ts): shown in the modes given, its help, and what a run sends. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { SAFE_TEXT } from '@dev/mock/fixtures';
import { callbackUrlOption } from '@package/nodes/ContentModeration/descriptions/callbackUrl';
import { nodeTypeWith } from '@test/helpers/editorParameters';
import { contentModerationNode } from '@test/helpers/fixtures';
import { output, useMock } from '@test/helpers/nodeRun';

const mock = useMock();
const option = callbackUrlOption(['deferred', 'deferredWait'], 'Only used in the Deferred modes.', 'Second note.');

describe('the Callback URL option', () => {
	it('is shown in the modes given only', () => {
		// An option's '/…' conditions read the node's parameters, as the editor does.
		const shownIn = (mode: string) => NodeHelpers.displayParameter({}, option, contentModerationNode, nodeTypeWith([]), { mode });
		expect(['deferred', 'deferredWait', 'immediate', 'waitCallback'].map(shownIn)).toEqual([true, true, false, false]);
	});

	it('says where to point it and that the secret is added, then the notes', () => {
		expect(option.description).toMatch(
			/^Where the service sends the result .*Callback > Receive.*\?token=… for you\. Only used in the Deferred modes\. Second note\.$/,
		);
	});
});

describe('in a run (Text > Moderate, Deferred)', () => {
	const deferred = async (options: INodeParameters) =>
		output(await mock.run({ resource: 'text', operation: 'moderate', text: SAFE_TEXT, mode: 'deferred', options }));
	const sent = () => (mock.service.requests[0].body as { options?: IDataObject }).options?.callbackUrl;

	it('the URL typed in is where the service sends the result', async () => {
		const url = 'http://127.0.0.1:9/webhook/x/callback';
		expect(await deferred({ [option.name]: url })).toHaveLength(1);
		expect(sent()).toBe(url);
	});

	it('added and left at its default, none is sent', async () => {
		expect(await deferred({ [option.name]: option.default })).toHaveLength(1);
		expect(sent()).toBeUndefined();
	});
});
