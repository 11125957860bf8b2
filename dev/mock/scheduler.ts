/** The mock's timers: cancelled all at once on stop, with a count of jobs still processing for `whenIdle`. */
export class Scheduler {
	private readonly timers = new Set<NodeJS.Timeout>();
	/** Jobs started with `process` and not yet done */
	processing = 0;

	later(ms: number, fn: () => void): void {
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			fn();
		}, ms);
		this.timers.add(timer);
	}

	/** Jobs whose processing time ran out while results are held, in that order */
	private held: Array<() => void> | undefined;
	/** Holds of some jobs only (`holdSome`), each with the jobs it parked */
	private readonly scoped = new Set<{ matches: (subject: string) => boolean; jobs: Array<() => void> }>();

	/**
	 * Runs `done` after ms (and once results are not held), counting the job as processing until then.
	 * `subject` (the image URL or the text) is what a scoped hold matches.
	 */
	process(ms: number, done: () => void, subject = ''): void {
		this.processing++;
		this.later(ms, () => {
			const scope = [...this.scoped].find((h) => h.matches(subject));
			if (scope) {
				// Parked by one test while others run beside it: not "processing" for whenIdle meanwhile.
				this.processing--;
				scope.jobs.push(done);
				return;
			}
			const finish = () => {
				this.processing--;
				done();
			};
			if (this.held) this.held.push(finish);
			else finish();
		});
	}

	/** From now on, a job whose time is up waits for `release()`: a test decides when results are ready. */
	hold(): void {
		this.held ??= [];
	}

	/** Finishes the held jobs in the order their time ran out, and holds no more. */
	release(): void {
		const held = this.held ?? [];
		this.held = undefined;
		for (const finish of held) finish();
	}

	/**
	 * Holds only the jobs whose subject `matches`, apart from `hold()`/`release()`, so that a test can hold its
	 * own results while other tests run; returns the release of that hold.
	 */
	holdSome(matches: (subject: string) => boolean): () => void {
		const scope = { matches, jobs: [] as Array<() => void> };
		this.scoped.add(scope);
		return () => {
			if (!this.scoped.delete(scope)) return;
			for (const done of scope.jobs) done();
		};
	}

	cancelAll(): void {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		this.held = undefined;
		this.scoped.clear();
		this.processing = 0;
	}
}
