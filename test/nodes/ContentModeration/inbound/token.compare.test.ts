/**
 * One constant-time compare for every secret a call carries (sameSecret in inbound/token.ts): the
 * trigger's and Receive's Callback Secret and Wait for Callback's item key are compared as fixed-length
 * digests, so the time taken does not depend on how long the given value is.
 */
import type * as Crypto from 'crypto';

jest.mock('crypto', () => {
	const actual = jest.requireActual<typeof Crypto>('crypto');
	return { ...actual, timingSafeEqual: jest.fn(actual.timingSafeEqual) };
});

import { timingSafeEqual } from 'crypto';

import { isItemKey, itemKey } from '@package/nodes/ContentModeration/actions/waitForCallback/urls';
import { checkToken } from '@package/nodes/ContentModeration/inbound/token';

const compare = timingSafeEqual as jest.MockedFunction<typeof timingSafeEqual>;
beforeEach(() => compare.mockClear());

/** Every compare saw two 32-byte digests. */
function comparedDigests(): void {
	for (const [a, b] of compare.mock.calls) expect([a.byteLength, b.byteLength]).toEqual([32, 32]);
}

test('a Callback Secret of any length is compared as a digest: its length takes no shortcut', () => {
	const secret = 'cb-secret/compare-77aa';
	const tokens = ['x', secret.slice(0, -1), `${secret}-and-more`, secret];
	expect(tokens.map((token) => checkToken([secret], { token }, {}).ok)).toEqual([false, false, false, true]);
	expect(compare).toHaveBeenCalledTimes(tokens.length);
	comparedDigests();
});

test("Wait for Callback's item key is compared the same way", () => {
	const key = itemKey('s3cret', 3);
	expect([key.slice(1), 'x', `${key}0`, key].map((given) => isItemKey('s3cret', 3, given))).toEqual([false, false, false, true]);
	expect(compare).toHaveBeenCalledTimes(4);
	comparedDigests();
});
