/** A clock for the registries' tests: time moves only when a test says so, and due timers fire then. */
import type { Clock } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/helpers/clock';

export const flush = async () => {
	for (let i = 0; i < 10; i++) await Promise.resolve();
};

export class FakeClock implements Clock {
	time = 1_000_000;
	private timers: Array<{ at: number; resolve: () => void }> = [];
	now = () => this.time;
	sleep = (ms: number) => new Promise<void>((resolve) => this.timers.push({ at: this.time + ms, resolve }));
	/** Moves time on, firing due timers (and those they start), and lets the promises they settle run. */
	async advance(ms: number): Promise<void> {
		this.time += ms;
		await flush();
		for (;;) {
			const due = this.timers.filter((t) => t.at <= this.time);
			if (due.length === 0) return;
			this.timers = this.timers.filter((t) => t.at > this.time);
			for (const t of due) t.resolve();
			await flush();
		}
	}
}
