/**
 * fast-check's time limit (propertySettings.ts) cuts a property whose run is still going: fast-check stops
 * waiting for that run, not the run. Properties that share the process state (resetProcessState, the fake
 * clock) wrap their bodies with `tracked`: the test's afterEach waits for the run it left, so that the run
 * cannot reset or claim in the middle of the next test's runs. Declare it before other afterEach hooks.
 */
export function finishCutRuns() {
	let running: Promise<unknown> = Promise.resolve();
	afterEach(async () => await running.catch(() => undefined));
	return <A extends unknown[]>(body: (...args: A) => Promise<void>) =>
		(...args: A): Promise<void> =>
			(running = body(...args)) as Promise<void>;
}
