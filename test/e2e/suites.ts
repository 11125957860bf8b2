/**
 * Which e2e cases each suite runs, in order, and with which n8n settings. A case is in a suite where that
 * suite's n8n can behave differently; the behaviour table in docs/testing.md says where each behaviour is
 * proven and why a case is not in a suite (test/docs/testing.test.ts keeps the two in step).
 * Data only: the runners (run.ts, queue/run.ts) and the docs test read it.
 */

/** n8n takes an isolate for an expression only when one is needed (n8n 2.x). */
export const LAZY_ACQUISITION = { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' };

/** Cases run on one n8n with the same settings; between phases n8n restarts with `env` added to its settings. */
export interface Phase {
	label: string;
	env?: Record<string, string>;
	cases: number[];
	/** A case that restarts n8n itself: when the phase begins with it, its restart is the phase's. */
	restartedBy?: number;
	/**
	 * Cases that mostly wait for n8n (14: n8n's wait tracker looks for due executions once a minute): each starts
	 * in its turn and runs beside the cases after it; a case that restarts n8n waits for it (runPhase).
	 */
	background?: number[];
}

export type SuiteName = 'n8n 2.x' | 'n8n 1.x' | 'queue mode';

/**
 * `npm run test:e2e` (n8n 2.41.1): every behaviour e2e proves in regular mode; then n8n restarted with lazy
 * isolate acquisition (the restart case 15 checks) for the 200-completion burst again, where the trigger must
 * lose none.
 */
const REGULAR_2X: Phase[] = [
	{ label: "n8n's defaults", cases: [1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 18, 19, 41, 40, 42, 44, 48, 47, 45, 49, 50, 51], background: [14] },
	{ label: 'lazy isolate acquisition', env: LAZY_ACQUISITION, cases: [15, 44], restartedBy: 15 },
];

/**
 * `N8N_VERSION=1.123.81 npm run test:e2e`: where n8n 1.x can behave differently: loading and installing,
 * the panels, webhooks and the trigger, binary data, Wait for Callback, the AI Agent, the dev loop, the
 * Error output.
 */
const REGULAR_1X: Phase[] = [{ label: "n8n's defaults", cases: [2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 19, 40, 42, 44, 48, 47, 49, 50, 15], background: [14] }];

/**
 * `npm run test:e2e:queue`: where queue mode can behave differently: where executions run, callbacks through
 * the webhook processor, binary data and Wait for Callback across processes, a limiter per worker, repeats
 * across processes, bursts, a worker killed; then the workers and the webhook processor restarted with lazy
 * isolate acquisition for the 200-completion burst.
 */
const QUEUE: Phase[] = [
	{ label: "n8n's defaults", cases: [2, 3, 7, 9, 47, 21, 22, 26, 30, 46, 14, 29, 24], background: [14] },
	{ label: 'lazy isolate acquisition', env: LAZY_ACQUISITION, cases: [44] },
];

export const SUITES: Record<SuiteName, Phase[]> = { 'n8n 2.x': REGULAR_2X, 'n8n 1.x': REGULAR_1X, 'queue mode': QUEUE };

/**
 * The phases to run: the suite's, or with E2E_ONLY=<ids> only those cases (a case outside the suite's list
 * runs in its first phase); E2E_N8N_ENV='{"NAME":"value"}' adds settings to every phase.
 */
export function selectPhases(suite: Phase[], only: number[] | undefined, known: number[]): Phase[] {
	const listed = new Set(suite.flatMap((p) => p.cases));
	const extra = (only ?? []).filter((id) => !listed.has(id) && known.includes(id));
	const unknown = (only ?? []).filter((id) => !known.includes(id));
	if (unknown.length) throw new Error(`E2E_ONLY names no case ${unknown.join(', ')}`);
	const gone = [...listed].filter((id) => !known.includes(id));
	if (gone.length) throw new Error(`suites.ts lists case ${gone.join(', ')}, which does not exist`);
	return suite
		.map((phase, i) => ({
			...phase,
			cases: [...phase.cases.filter((id) => !only || only.includes(id)), ...(i === 0 ? extra : [])],
		}))
		.filter((phase) => phase.cases.length > 0);
}

/** E2E_ONLY=1,4 as case ids; undefined when not set. */
export function onlyCases(env = process.env.E2E_ONLY): number[] | undefined {
	const ids = env?.split(',').map((s) => s.trim()).filter((s) => s !== '');
	return ids?.length ? ids.map(Number) : undefined;
}
