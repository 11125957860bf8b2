/**
 * Figures of one callback burst, from the mock's delivery records (every attempt, its start, duration and
 * answer) and n8n's own records (one row per execution, its status and the moderation id it received).
 */
import type { CallbackAttempt } from '../../../dev/mock/callbacks';

export interface BurstFigures {
	mode: string;
	callbacks: number;
	/** deliveries the trigger answered 2xx (on any attempt) */
	acknowledged: number;
	/** deliveries that needed more than one attempt */
	retried: number;
	/** deliveries never acknowledged after all retries */
	unacknowledged: number;
	executions: number;
	successful: number;
	/** status -> count, for the executions that did not succeed */
	otherStatuses: Record<string, number>;
	/** moderation ids with more than one execution / with none */
	duplicated: number;
	missing: number;
	/** acknowledged ids with no execution at all in n8n's records */
	ackedWithoutExecution: string[];
	/** successful executions per second, first callback attempt -> last execution stopped */
	executionsPerSecond: number;
	seconds: number;
	/** time from a delivery's first attempt to its 2xx answer (retries included), ms */
	ackP50Ms: number;
	ackP95Ms: number;
	ackMaxMs: number;
	/** executions per worker (queue mode; from the workers' logs) */
	perWorker?: Record<string, number>;
	/** 1-minute load average of the machine when the burst started and ended (2 cores, shared) */
	load?: [number, number];
}

export function percentile(sorted: number[], p: number): number {
	if (!sorted.length) return NaN;
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export interface BurstExecution {
	id: number;
	status: string;
	stoppedAt: string | null;
	/** the moderation id the trigger passed on, when the execution has data */
	moderationId?: string;
}

export function burstFigures(mode: string, ids: string[], attempts: CallbackAttempt[], executions: BurstExecution[]): BurstFigures {
	const idSet = new Set(ids);
	const byId = new Map<string, CallbackAttempt[]>();
	for (const a of attempts) if (idSet.has(a.moderationId)) byId.set(a.moderationId, [...(byId.get(a.moderationId) ?? []), a]);
	const ackMs: number[] = [];
	let retried = 0;
	const acked = new Set<string>();
	let firstAttempt = Infinity;
	for (const [id, list] of byId) {
		list.sort((a, b) => a.attempt - b.attempt);
		firstAttempt = Math.min(firstAttempt, list[0].time);
		if (list.length > 1) retried++;
		const ok = list.find((a) => a.ok);
		if (ok) {
			acked.add(id);
			ackMs.push(ok.time + ok.durationMs - list[0].time);
		}
	}
	ackMs.sort((a, b) => a - b);
	const perId = new Map<string, number>();
	for (const e of executions) if (e.moderationId) perId.set(e.moderationId, (perId.get(e.moderationId) ?? 0) + 1);
	const successful = executions.filter((e) => e.status === 'success');
	const otherStatuses: Record<string, number> = {};
	for (const e of executions) if (e.status !== 'success') otherStatuses[e.status] = (otherStatuses[e.status] ?? 0) + 1;
	const lastStop = Math.max(...successful.map((e) => (e.stoppedAt ? Date.parse(e.stoppedAt) : 0)));
	const seconds = (lastStop - firstAttempt) / 1000;
	return {
		mode,
		callbacks: ids.length,
		acknowledged: acked.size,
		retried,
		unacknowledged: ids.length - acked.size,
		executions: executions.length,
		successful: successful.length,
		otherStatuses,
		duplicated: [...perId.values()].filter((n) => n > 1).length,
		missing: ids.filter((id) => !perId.has(id)).length,
		ackedWithoutExecution: [...acked].filter((id) => !perId.has(id)),
		executionsPerSecond: successful.length && seconds > 0 ? successful.length / seconds : 0,
		seconds,
		ackP50Ms: percentile(ackMs, 50),
		ackP95Ms: percentile(ackMs, 95),
		ackMaxMs: ackMs[ackMs.length - 1] ?? NaN,
	};
}

/** A markdown table, one column per mode, as the README shows it. */
export function figuresTable(rows: BurstFigures[]): string {
	const line = (label: string, f: (r: BurstFigures) => string) => `| ${label} | ${rows.map(f).join(' | ')} |`;
	const s = (n: number) => (Number.isFinite(n) ? (n / 1000).toFixed(2) + ' s' : '-');
	return [
		`| | ${rows.map((r) => r.mode).join(' | ')} |`,
		`|---|${rows.map(() => '---').join('|')}|`,
		line('Callbacks sent at once', (r) => String(r.callbacks)),
		line('Acknowledged (2xx, any attempt)', (r) => String(r.acknowledged)),
		line('Executions in n8n (successful)', (r) => `${r.executions} (${r.successful})`),
		line('Executions per second', (r) => r.executionsPerSecond.toFixed(1)),
		line('Time to acknowledge, p50', (r) => s(r.ackP50Ms)),
		line('Time to acknowledge, p95', (r) => s(r.ackP95Ms)),
		line('Deliveries that needed a retry', (r) => String(r.retried)),
		line('Never acknowledged (all retries failed)', (r) => String(r.unacknowledged)),
		line('Moderation ids run twice or more / never', (r) => `${r.duplicated} / ${r.missing}`),
		line('Executions per worker', (r) => (r.perWorker ? Object.values(r.perWorker).join(' + ') : 'one process')),
		line('Load average at start → end', (r) => (r.load ? `${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)}` : '-')),
	].join('\n');
}
