/**
 * The webhook hooks of webhooks nothing registers (webhookMethods.ts). n8n asks `checkExists` when it sets a
 * webhook up and calls `create` only on false; true everywhere: there is nothing to create or delete.
 */
import type { IHookFunctions } from 'n8n-workflow';

import { unregisteredWebhookMethods } from '@package/nodes/ContentModeration/helpers/webhookMethods';

test('every hook answers true, touching nothing of n8n', async () => {
	// A context that throws on any use: the hooks must not read the node, its parameters or credentials.
	const untouchable = new Proxy({}, { get: () => { throw new Error('a hook used its context'); } }) as IHookFunctions;
	const { checkExists, create, delete: remove } = unregisteredWebhookMethods.default;
	expect(await Promise.all([checkExists, create, remove].map((hook) => hook.call(untouchable)))).toEqual([true, true, true]);
});
