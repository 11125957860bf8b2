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

	/** Runs `done` after ms, counting the job as processing until then. */
	process(ms: number, done: () => void): void {
		this.processing++;
		this.later(ms, () => {
			this.processing--;
			done();
		});
	}

	cancelAll(): void {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		this.processing = 0;
	}
}
