/** One teardown for what `npm start` and the e2e runner start (mock service, n8n, DB reader), signal-safe. */
import { ExecutionRecords } from './db';
import { Stack } from './stack';

export interface Running {
	mock?: { stop(): unknown };
	stack?: Stack;
	db?: ExecutionRecords;
}

/**
 * Returns an idempotent teardown. It stops in reverse order of start and removes the temporary n8n user
 * folder unless `keep` is set. SIGINT/SIGTERM run it once and then call `onSignal`.
 */
export function teardownOnSignals(
	running: Running,
	opts: { keep?: boolean; log: (line: string) => void; onSignal: (sig: NodeJS.Signals) => void },
): () => Promise<void> {
	let done: Promise<void> | undefined;
	const teardown = () =>
		(done ??= (async () => {
			await running.db?.close().catch(() => undefined);
			await running.stack?.stop().catch(() => undefined);
			await Promise.resolve(running.mock?.stop()).catch(() => undefined);
			if (running.stack && !opts.keep) running.stack.n8n.cleanup();
			else if (running.stack) opts.log(`kept n8n user folder ${running.stack.n8n.userFolder}`);
		})());
	// `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and relayed by tsx), and a
	// second signal without a handler would kill it before n8n is stopped.
	for (const sig of ['SIGINT', 'SIGTERM'] as const) {
		process.on(sig, () => {
			if (done) return;
			opts.log(`${sig}: stopping n8n and the mock service...`);
			void teardown().finally(() => opts.onSignal(sig));
		});
	}
	return teardown;
}

/**
 * Runs a command a person starts and stops with Ctrl-C (`npm start`, `npm run dev`): Ctrl-C tears down what
 * `running` holds and exits 0; a failing `main` says where n8n's log is, tears down and exits 1.
 */
export function runInteractive(name: string, running: Running, main: () => Promise<void>): void {
	const stopAll = teardownOnSignals(running, {
		log: (line) => console.log(`\n${line}`),
		onSignal: () => {
			console.log('stopped.');
			process.exit(0);
		},
	});
	main().catch(async (e) => {
		console.error(`${name} failed: ${e instanceof Error ? e.message : e}`);
		if (e?.userFolder) console.error(`n8n log: ${e.userFolder}/n8n.log`);
		await stopAll();
		process.exit(1);
	});
}

/**
 * Runs a test runner's `main` and exits with its code; a crash tears everything down first and still ends
 * with the `N passed, N failed` line CI reads.
 */
export function exitWhenDone(main: () => Promise<number>, cleanup: () => Promise<void>): void {
	main().then(
		(code) => process.exit(code),
		async (e) => {
			console.error(e);
			await cleanup();
			console.log('0 passed, 1 failed');
			process.exit(1);
		},
	);
}
