/** The readiness rule of the poll loop (Deferred and Wait, Text > Moderate). */
import { isResultReady } from '../../../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/actions/poll';

describe('isResultReady (deferredWait polling rule)', () => {
	it('only a body with a boolean isSafe is a result; 202 never is', () => {
		expect(isResultReady(200, { id: 'x', isSafe: false })).toBe(true);
		expect(isResultReady(200, { id: 'x', status: 'processing' })).toBe(false);
		expect(isResultReady(200, { isSafe: 'true' })).toBe(false);
		expect(isResultReady(202, { id: 'x', isSafe: true })).toBe(false);
		expect(isResultReady(200, null)).toBe(false);
		expect(isResultReady(200, '')).toBe(false);
	});
});
