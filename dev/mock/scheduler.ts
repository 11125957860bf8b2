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

	/** Runs `done` after ms (and once results are not held), counting the job as processing until then. */
	process(ms: number, done: () => void): void {
		this.processing++;
		this.later(ms, () => {
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

	cancelAll(): void {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		this.held = undefined;
		this.processing = 0;
	}
}
