/** retryNote: the note on a long Retry-After belongs to the stop it caused, not to any failure that carries the waits. */
import { retryNote } from '@package/nodes/ContentModeration/retry/loop';
import { failure, status } from './outcomes';

describe('retryNote and the waits of a failure', () => {
	const waits = { retryAfterMs: 120_000, maxDelayMs: 30_000 };

	it('speaks of a long Retry-After only when that is why it stopped', () => {
		expect(retryNote(failure('GET', status(429, '120'), 1, 'retry-after-too-long', waits))).toBe(
			'The service asked to wait 120 s before trying again, longer than the 30 s this node waits at most; stopped after 2 tries.',
		);
		expect(retryNote(failure('GET', status(404), 0, 'not-retryable', waits))).toBeUndefined();
		expect(retryNote(failure('GET', status(500), 2, 'not-retryable', waits))).toBe('Stopped after 3 tries.');
	});
});
