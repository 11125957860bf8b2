/**
 * fast-check's settings for every property in `npm test` (jest's setupFiles): bounded runs so that the suite
 * stays fast, more with FC_NUM_RUNS, and FC_SEED (with FC_PATH) to replay a failure. A failing property
 * prints its seed and path in the error, which is all a replay needs.
 */
import fc from 'fast-check';

const numRuns = Number(process.env.FC_NUM_RUNS ?? '');
const seed = Number(process.env.FC_SEED ?? '');

fc.configureGlobal({
	numRuns: Number.isInteger(numRuns) && numRuns > 0 ? numRuns : 100,
	...(process.env.FC_SEED !== undefined && Number.isInteger(seed) ? { seed } : {}),
	...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}),
	// A property that loops or waits for ever fails instead of hanging the suite.
	interruptAfterTimeLimit: 20_000,
	markInterruptAsFailure: true,
});
