/** urls.ts's edges: the expression read, what counts as a resume URL, a trailing slash, the secrets a URL carries. */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	callbackUrl,
	resumeSecrets,
	resumeUrl,
	runState,
	waitCallbackRoutingRefusal,
} from '@package/nodes/ContentModeration/actions/waitForCallback/urls';
import { contentModerationNode } from '@test/helpers/fixtures';

/** `$execution.resumeUrl` only for the Wait node's own expression. */
const context = (value: unknown) =>
	({
		getNode: () => contentModerationNode,
		evaluateExpression: (expression: string) => (expression === '{{ $execution?.resumeUrl }}' ? value : undefined),
		getContext: () => ({}),
	}) as unknown as IExecuteFunctions;

test("the resume URL is read with the Wait node's expression; only an http(s) URL counts", () => {
	expect(resumeUrl(context('https://n8n.test/webhook-waiting/1')).href).toBe('https://n8n.test/webhook-waiting/1');
	for (const value of ['see https://n8n.test/webhook-waiting/1', 'ftp://n8n.test/x', 42]) {
		const error = (() => {
			try {
				resumeUrl(context(value));
			} catch (caught) {
				return caught as NodeOperationError;
			}
			return undefined;
		})();
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error?.message).toBe('n8n gave no resume URL for this execution');
		expect(error?.description).toBe(
			'Wait for Callback needs an n8n that can pause executions (the Wait node\'s "On Webhook Call").',
		);
	}
});

test('a resume URL ending in a slash gets one /callback, the rest of its path kept', () => {
	const url = new URL(callbackUrl(context('http://n8n.test/webhook-waiting/42/'), 0));
	expect(url.pathname).toBe('/webhook-waiting/42/callback');
});

test("what a callback URL carries that opens the execution: its key and n8n's signature, if any", () => {
	expect(resumeSecrets('http://n8n.test/w/1/callback?item=0&key=k1&signature=s1')).toEqual(['k1', 's1']);
	expect(resumeSecrets('http://n8n.test/w/1/callback?item=0&key=k1&signature=')).toEqual(['k1']);
	expect(resumeSecrets('http://n8n.test/w/1/callback?item=0')).toEqual([]);
});

test("Route by Verdict on n8n 1.x: the refusal's message and what to do instead", () => {
	const refusal = waitCallbackRoutingRefusal(context('http://n8n.test/webhook-waiting/42'), 1);
	expect(refusal?.message).toBe('Route by Verdict with Mode "Wait for Callback" needs n8n 2.0 or newer');
	expect(refusal?.description).toMatch(/^This n8n resumes a waiting node on its first output only/);
});

test("a run's state: kept when saved with a secret and items, else a fresh one with no items", () => {
	const saved = { secret: 's', items: [{ id: 'm-0' }] };
	const withContext = (value: unknown) => {
		const nodeContext: Record<string, unknown> = { waitForCallback: value };
		return { nodeContext, ctx: { getContext: () => nodeContext } as unknown as IExecuteFunctions };
	};
	expect(runState(withContext(saved).ctx)).toBe(saved);
	for (const value of [undefined, { secret: 's' }, { secret: '', items: [] }, { items: [] }]) {
		const { ctx, nodeContext } = withContext(value);
		const state = runState(ctx);
		expect(state.items).toEqual([]);
		expect(state.secret).toMatch(/^[0-9a-f]{64}$/);
		expect(nodeContext.waitForCallback).toBe(state);
	}
});
