/** Callback URLs of Wait for Callback: built from the resume URL, keyed per item, 1.x routing refused. */
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	callbackUrl,
	isItemKey,
	itemKey,
	waitCallbackRoutingRefusal,
} from '@package/nodes/ContentModeration/actions/waitForCallback/urls';
import { STATE_KEY } from '@package/nodes/ContentModeration/actions/waitForCallback/state';
import { contentModerationNode } from '@test/helpers/fixtures';

const node = contentModerationNode;

/** The few IExecuteFunctions members these helpers use: the resume URL and the node context. */
function context(resumeUrl: unknown, nodeContext: IDataObject = {}): IExecuteFunctions {
	return {
		getNode: () => node,
		evaluateExpression: () => resumeUrl,
		getContext: () => nodeContext,
	} as unknown as IExecuteFunctions;
}

describe('Wait for Callback URLs', () => {
	it("adds /callback, the item and its key to n8n 2.x's signed resume URL", () => {
		const nodeContext: IDataObject = {};
		const ctx = context('http://n8n.test/webhook-waiting/42?signature=abc', nodeContext);
		const first = new URL(callbackUrl(ctx, 0));
		const second = new URL(callbackUrl(ctx, 1));
		expect(first.pathname).toBe('/webhook-waiting/42/callback');
		expect(first.searchParams.get('signature')).toBe('abc');
		expect(first.searchParams.get('item')).toBe('0');
		expect(second.searchParams.get('item')).toBe('1');
		// One secret per run, kept in node context; one key per item.
		const { secret } = nodeContext[STATE_KEY] as { secret: string };
		expect(secret).toMatch(/^[0-9a-f]{64}$/);
		expect(first.searchParams.get('key')).toBe(itemKey(secret, 0));
		expect(second.searchParams.get('key')).toBe(itemKey(secret, 1));
		expect(first.searchParams.get('key')).not.toBe(second.searchParams.get('key'));
	});

	it('checks a key for its item only, in constant time, and refuses anything else', () => {
		const key = itemKey('s3cret', 3);
		expect(isItemKey('s3cret', 3, key)).toBe(true);
		expect(isItemKey('s3cret', 4, key)).toBe(false);
		expect(isItemKey('other', 3, key)).toBe(false);
		expect(isItemKey('s3cret', 3, key.slice(1))).toBe(false);
		expect(isItemKey('s3cret', 3, undefined)).toBe(false);
		expect(isItemKey('s3cret', 3, [key])).toBe(false);
	});

	it('refuses Route by Verdict on an n8n whose resume URLs carry no token (1.x passes on only the first output)', () => {
		expect(waitCallbackRoutingRefusal(context('http://n8n.test/webhook-waiting/42?signature=abc'), 0)).toBeUndefined();
		const refusal = waitCallbackRoutingRefusal(context('http://n8n.test/webhook-waiting/42'), 2);
		expect(refusal).toBeInstanceOf(NodeOperationError);
		expect(refusal?.message).toContain('n8n 2.0');
		expect(refusal?.context.itemIndex).toBe(2);
	});

	it('fails clearly when n8n gives no resume URL', () => {
		expect(() => callbackUrl(context(undefined), 0)).toThrow('n8n gave no resume URL');
	});
});
