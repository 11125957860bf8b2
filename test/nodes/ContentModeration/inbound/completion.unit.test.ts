/** inbound/completion.ts on its own, without servers: which read answers complete a callback, and what is kept of it. */
import type { IDataObject } from 'n8n-workflow';

import { completedWith, isCompletion } from '@package/nodes/ContentModeration/inbound/completion';

/** A result with every field the verdict rules read (verdict/rules.ts). */
const complete = (): IDataObject => ({
	id: 'r-1',
	isSafe: false,
	riskScores: { overall: 80 },
	suggestedActions: { reject: true, review: false },
	nsfwCategories: [{ category: 'violence', severity: 80 }],
});

test('a complete result answered with 200 is a completion', () => {
	expect(isCompletion(200, complete())).toBe(true);
});

test('a 202 is no completion, even with a complete body', () => {
	expect(isCompletion(202, complete())).toBe(false);
});

test('an incomplete body is no completion, whatever the status', () => {
	expect(isCompletion(200, { id: 'r-1', isSafe: true })).toBe(false);
	expect(isCompletion(200, { ...complete(), status: 'processing' })).toBe(false);
});

test("completedWith keeps the callback's own fields beside the read", () => {
	const merged = completedWith({ id: 'r-1', note: 'mine', meta: { post: 7 } }, complete());
	expect(merged).toEqual({ ...complete(), note: 'mine', meta: { post: 7 } });
});

test("completedWith drops the callback's verdict fields even where the read has none", () => {
	// A stale "processing" or a forged verdict from the callback must not survive beside the read's.
	const callback = { id: 'r-1', status: 'processing', isSafe: true, riskScores: { overall: 0 } };
	const { riskScores: _r, ...read } = complete();
	const merged = completedWith(callback, read);
	expect(merged).toEqual(read);
	expect(merged.status).toBeUndefined();
	expect(merged.isSafe).toBe(false);
});
