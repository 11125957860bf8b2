/**
 * Properties of one service's limiter and the byte budget on the fake clock, under random arrivals of node
 * runs (adaptive or Fixed, each with its cap), random body sizes, answers (successes, 429/503 with and
 * without Retry-After, timeouts) and cancellations: no run above its cap, adaptive sends never above the
 * shared limit when one starts, large bodies never above the budget (one larger body alone; a Fixed run's
 * bodies counted, never held back), every send settles, and no waiting send is starved by a run that keeps
 * sending.
 */
import { fc, test } from '@fast-check/jest';

import { ByteBudget, SMALL_BODY_BYTES } from '@package/nodes/ContentModeration/limiter/bytes';
import { ServiceLimiter, type LimiterShare, type Permit } from '@package/nodes/ContentModeration/limiter/limiter';
import type { SendOutcome } from '@package/nodes/ContentModeration/limiter/outcome';
import { AbortedWait } from '@package/nodes/ContentModeration/limiter/waiters';
import { FakeClock } from '@test/helpers/fakeClock';

const BUDGET = 1024 * 1024;
const MAX_PAUSE_MS = 1000;

const runArb = fc.record({ adaptive: fc.boolean(), cap: fc.integer({ min: 1, max: 60 }), cancellable: fc.boolean() });
const bytesArb = fc.oneof(
	fc.integer({ min: 0, max: SMALL_BODY_BYTES - 1 }),
	fc.integer({ min: SMALL_BODY_BYTES, max: BUDGET / 2 }),
	fc.integer({ min: BUDGET / 2, max: 2 * BUDGET }),
);
const outcomeArb: fc.Arbitrary<SendOutcome> = fc.oneof(
	fc.integer({ min: 1, max: 400 }).map((latencyMs): SendOutcome => ({ kind: 'success', latencyMs })),
	fc.constant<SendOutcome>({ kind: 'throttled' }),
	fc.integer({ min: 1, max: 300 }).map((retryAfterMs): SendOutcome => ({ kind: 'throttled', retryAfterMs })),
	fc.constant<SendOutcome>({ kind: 'overloaded' }),
	fc.constant<SendOutcome>({ kind: 'neutral' }),
);
const actionArb = fc.oneof(
	{ weight: 4, arbitrary: fc.record({ kind: fc.constant('send' as const), run: fc.nat(), bytes: bytesArb }) },
	// Many sends of one run at once: the limit, not the caps, is then what holds them.
	{
		weight: 1,
		arbitrary: fc.record({ kind: fc.constant('burst' as const), run: fc.nat(), count: fc.integer({ min: 2, max: 40 }) }),
	},
	{ weight: 3, arbitrary: fc.record({ kind: fc.constant('answer' as const), pick: fc.nat(), outcome: outcomeArb }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 1, max: 500 }) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), run: fc.nat() }) },
);

interface Send {
	run: number;
	bytes: number;
	state: 'waiting' | 'inFlight' | 'done' | 'cancelled' | 'failed';
	permit?: Permit;
}

interface Run {
	adaptive: boolean;
	cap: number;
	share: LimiterShare;
	controller?: AbortController;
}

/** The limiter with its runs and sends, and the checks made after every step. */
function simulation(runSpecs: Array<{ adaptive: boolean; cap: number; cancellable: boolean }>) {
	const clock = new FakeClock();
	const budget = new ByteBudget(BUDGET);
	const service = new ServiceLimiter(clock, { maxPauseMs: MAX_PAUSE_MS }, budget);
	const runs: Run[] = [];
	const sends: Send[] = [];
	/** What started since the last check: an adaptive send, an adaptive large body, a Fixed send. */
	let admittedSinceCheck = false;
	let largeAdmittedSinceCheck = false;
	let fixedAdmittedSinceCheck = false;

	const openRun = (spec: { adaptive: boolean; cap: number; cancellable: boolean }): number => {
		const controller = spec.cancellable ? new AbortController() : undefined;
		runs.push({ adaptive: spec.adaptive, cap: spec.cap, share: service.openShare(spec, controller?.signal), controller });
		return runs.length - 1;
	};
	runSpecs.forEach(openRun);

	const send = (run: number, bytes: number): Send => {
		const entry: Send = { run, bytes, state: 'waiting' };
		sends.push(entry);
		runs[run].share.acquire(bytes).then(
			(permit) => {
				entry.state = 'inFlight';
				entry.permit = permit;
				if (!runs[run].adaptive) fixedAdmittedSinceCheck = true;
				else {
					admittedSinceCheck = true;
					largeAdmittedSinceCheck ||= bytes >= SMALL_BODY_BYTES;
				}
			},
			(error: unknown) => {
				entry.state = error instanceof AbortedWait && runs[run].controller?.signal.aborted ? 'cancelled' : 'failed';
			},
		);
		return entry;
	};

	const answer = (entry: Send, outcome: SendOutcome) => {
		entry.state = 'done';
		entry.permit!.release(outcome);
	};

	const inFlight = (filter: (s: Send) => boolean = () => true) =>
		sends.filter((s) => s.state === 'inFlight' && filter(s));

	/** The invariants, after every step (admissions happen only in a step's flush, releases only in steps). */
	const check = () => {
		expect(sends.filter((s) => s.state === 'failed')).toEqual([]);
		runs.forEach((run, index) => {
			expect(inFlight((s) => s.run === index).length).toBeLessThanOrEqual(run.cap);
		});
		const adaptive = inFlight((s) => runs[s.run].adaptive);
		// An admission needs a free place: right after one, the adaptive sends in flight are within the limit.
		if (admittedSinceCheck) expect(adaptive.length).toBeLessThanOrEqual(service.limit);
		const isLarge = (s: Send) => s.bytes >= SMALL_BODY_BYTES;
		const total = (list: Send[]) => list.reduce((sum, s) => sum + s.bytes, 0);
		// Adaptive large bodies: within the budget, or one alone.
		const adaptiveLarge = adaptive.filter(isLarge);
		if (adaptiveLarge.length > 1) expect(total(adaptiveLarge)).toBeLessThanOrEqual(BUDGET);
		// Fixed runs' bodies count: an adaptive large body starts only where they leave room (Fixed ones
		// never wait, so only a step in which none started shows it).
		const large = inFlight(isLarge);
		if (largeAdmittedSinceCheck && !fixedAdmittedSinceCheck && large.length > 1) {
			expect(total(large)).toBeLessThanOrEqual(BUDGET);
		}
		expect(budget.bytesInFlight).toBe(total(inFlight()));
		admittedSinceCheck = false;
		largeAdmittedSinceCheck = false;
		fixedAdmittedSinceCheck = false;
	};

	return { clock, service, runs, sends, openRun, send, answer, inFlight, check };
}

test.prop(
	[
		fc.array(runArb, { minLength: 1, maxLength: 4 }),
		fc.array(actionArb, { minLength: 1, maxLength: 80 }),
		fc.integer({ min: 1, max: 30 }),
	],
)(
	'caps, the shared limit and the byte budget hold; every send settles; none is starved by a run that keeps sending',
	async (runSpecs, actions, streamCap) => {
		const sim = simulation(runSpecs);
		const { clock, runs, sends } = sim;

		for (const action of actions) {
			if (action.kind === 'send') sim.send(action.run % runs.length, action.bytes);
			else if (action.kind === 'burst') for (let i = 0; i < action.count; i++) sim.send(action.run % runs.length, 100);
			else if (action.kind === 'answer') {
				const flying = sim.inFlight();
				if (flying.length > 0) sim.answer(flying[action.pick % flying.length], action.outcome);
			} else if (action.kind === 'cancel') runs[action.run % runs.length].controller?.abort();
			await clock.advance(action.kind === 'tick' ? action.ms : 0);
			sim.check();
		}

		// Then a run that keeps two small sends coming for every answer, while the oldest send in flight is
		// answered each step: every send waiting now is still admitted.
		const stream = sim.openRun({ adaptive: true, cap: streamCap, cancellable: false });
		const waiting = () => sends.filter((s) => s.state === 'waiting' && s.run !== stream);
		let steps = 0;
		const allowedSteps = 20 * (waiting().length + 10);
		while (waiting().length > 0) {
			expect(steps++).toBeLessThan(allowedSteps);
			if (sends.filter((s) => s.run === stream && s.state === 'waiting').length < 2) {
				sim.send(stream, 300);
				sim.send(stream, 300);
			}
			const oldest = sim.inFlight()[0];
			if (oldest) sim.answer(oldest, { kind: 'success', latencyMs: 50 });
			await clock.advance(10);
			sim.check();
		}

		// No more arrivals: everything in flight is answered, and every send has settled.
		for (let i = 0; i < 10_000 && sends.some((s) => s.state === 'waiting' || s.state === 'inFlight'); i++) {
			for (const entry of sim.inFlight()) sim.answer(entry, { kind: 'success', latencyMs: 50 });
			await clock.advance(10);
			sim.check();
		}
		expect(sends.filter((s) => s.state === 'waiting' || s.state === 'inFlight')).toEqual([]);
		// Only the sends of a cancelled run end without being sent.
		for (const entry of sends.filter((s) => s.state === 'cancelled')) {
			expect(runs[entry.run].controller?.signal.aborted).toBe(true);
		}
		expect(sim.service.snapshot()).toMatchObject({ inFlight: 0, waiting: 0 });
	},
);
