/** A refusal the node writes itself: its status, a small JSON error, and no response from n8n. */
import type { IWebhookFunctions } from 'n8n-workflow';

import { refuse } from '@package/nodes/ContentModeration/inbound/refusal';

test('writes the status and a JSON error, and tells n8n not to answer', () => {
	const written: { status?: number; headers?: unknown; body?: string } = {};
	const response = {
		writeHead: (status: number, headers: unknown) => Object.assign(written, { status, headers }),
		end: (body: string) => Object.assign(written, { body }),
	};
	const ctx = { getResponseObject: () => response } as unknown as IWebhookFunctions;
	expect(refuse(ctx, 401, 'Invalid callback token')).toEqual({ noWebhookResponse: true });
	expect(written.status).toBe(401);
	expect(written.headers).toEqual({ 'Content-Type': 'application/json; charset=utf-8' });
	expect(JSON.parse(written.body ?? '')).toEqual({ received: false, error: { status: 401, message: 'Invalid callback token' } });
});
