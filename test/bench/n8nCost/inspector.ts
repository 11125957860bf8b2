/**
 * A minimal Chrome DevTools Protocol client over the inspector of a process started with
 * `--inspect=127.0.0.1:0`: CPU profile of exactly one burst, V8 heap use while it runs.
 */
import { readFileSync } from 'node:fs';

import type { CpuProfile } from './profile';

/** The inspector's WebSocket URL that the process printed ("Debugger listening on ws://..."). */
export function inspectorUrl(log: string): string | undefined {
	return /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)/.exec(log)?.[1];
}

export class Inspector {
	private nextId = 1;
	private readonly pending = new Map<number, { res: (v: any) => void; rej: (e: Error) => void }>();
	private constructor(private readonly ws: WebSocket) {
		ws.addEventListener('message', (event) => {
			const msg = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
			const waiter = msg.id !== undefined ? this.pending.get(msg.id) : undefined;
			if (!waiter) return;
			this.pending.delete(msg.id!);
			if (msg.error) waiter.rej(new Error(msg.error.message));
			else waiter.res(msg.result);
		});
	}

	/** Connects to the first inspector URL printed in `logFile`. */
	static async fromLog(logFile: string): Promise<Inspector> {
		const url = inspectorUrl(readFileSync(logFile, 'utf8'));
		if (!url) throw new Error(`no "Debugger listening on ws://..." line in ${logFile}`);
		const ws = new WebSocket(url);
		await new Promise<void>((res, rej) => {
			ws.addEventListener('open', () => res(), { once: true });
			ws.addEventListener('error', () => rej(new Error(`cannot connect to ${url}`)), { once: true });
		});
		return new Inspector(ws);
	}

	send<T = any>(method: string, params: object = {}): Promise<T> {
		const id = this.nextId++;
		this.ws.send(JSON.stringify({ id, method, params }));
		return new Promise<T>((res, rej) => this.pending.set(id, { res, rej }));
	}

	async startProfile(): Promise<void> {
		await this.send('Profiler.enable');
		await this.send('Profiler.start');
	}

	async stopProfile(): Promise<CpuProfile> {
		return (await this.send<{ profile: CpuProfile }>('Profiler.stop')).profile;
	}

	/** V8 heap in use now (bytes). */
	async heapUsed(): Promise<number> {
		return (await this.send<{ usedSize: number }>('Runtime.getHeapUsage')).usedSize;
	}

	close(): void {
		this.ws.close();
	}
}
