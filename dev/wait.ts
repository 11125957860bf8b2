/** Waiting helpers shared by the dev tools and the tests. */

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `probe` every `everyMs` until it returns a value other than undefined and resolves with it; a probe
 * that throws is retried. Throws after `timeoutMs`, naming `what` (a function: read then, e.g. output so far)
 * and the probe's last error.
 */
export async function waitFor<T>(
	what: string | (() => string),
	probe: () => T | undefined | Promise<T | undefined>,
	timeoutMs: number,
	everyMs = 250,
): Promise<T> {
	const t0 = Date.now();
	let last: unknown;
	while (Date.now() - t0 < timeoutMs) {
		try {
			const value = await probe();
			if (value !== undefined) return value;
		} catch (error) {
			last = error;
		}
		await sleep(everyMs);
	}
	throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${typeof what === 'function' ? what() : what}${last ? `: ${(last as Error).message}` : ''}`);
}
