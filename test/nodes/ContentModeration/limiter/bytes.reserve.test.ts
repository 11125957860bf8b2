/**
 * The reserve (the last eighth of the byte budget) is left to runs with nothing in flight: a large body of a
 * run with sends in flight, held back by the reserve, is not starved by the smaller bodies of another such run.
 */
import { ByteBudget } from '@package/nodes/ContentModeration/limiter/bytes';
import { ServiceLimiter, type LimiterShare, type Permit } from '@package/nodes/ContentModeration/limiter/limiter';
import { DEFAULT_RETRY_SETTINGS } from '@package/nodes/ContentModeration/retry/policy';
import { FakeClock } from '@test/helpers/fakeClock';

const MB = 1024 * 1024;
const ok = { kind: 'success', latencyMs: 200 } as const;

it('admits a 4 MB body of a run in flight while another run keeps queuing 2 MB bodies', async () => {
	const clock = new FakeClock();
	const service = new ServiceLimiter(clock, { maxPauseMs: DEFAULT_RETRY_SETTINGS.maxDelayMs }, new ByteBudget(16 * MB));
	(await service.openShare({ adaptive: true, cap: 1 }).acquire()).release({ kind: 'overloaded' });
	await clock.advance(1);
	const admitted: string[] = [];
	const permits = new Map<string, Permit>();
	const send = (share: LimiterShare, label: string, bytes: number) =>
		share.acquire(bytes).then((permit) => {
			admitted.push(label);
			permits.set(label, permit);
		});
	const a = service.openShare({ adaptive: true, cap: 1000 });
	const b = service.openShare({ adaptive: true, cap: 1000 });
	void send(a, 'A0', 3 * MB);
	await clock.advance(1);
	for (let i = 0; i < 8; i++) void send(b, `B${i}`, 2 * MB);
	await clock.advance(1);
	void send(a, 'A1', 4 * MB);
	for (let i = 8; i < 60; i++) void send(b, `B${i}`, 2 * MB);
	await clock.advance(1);
	for (let ended = 0; ended < 40 && !admitted.includes('A1'); ended++) {
		const next = admitted.find((label) => label.startsWith('B') && permits.has(label));
		if (next === undefined) break;
		permits.get(next)!.release(ok);
		permits.delete(next);
		await clock.advance(1);
	}
	// After B's first sends only (the rule before the reserve admitted it after B6).
	expect(admitted.slice(0, admitted.indexOf('A1') + 1)).toEqual(['A0', 'B0', 'B1', 'B2', 'B3', 'B4', 'B5', 'A1']);
});
