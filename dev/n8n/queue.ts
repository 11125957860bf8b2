/**
 * n8n's queue mode for one run: a throwaway Postgres and Redis, the main process (`n8n start`, editor and
 * REST, production webhooks off), `workers` × `n8n worker` and one `n8n webhook` processor, all on free
 * 127.0.0.1 ports, with one encryption key and one user folder in which the package is installed once
 * (`.n8n/nodes`, as users get it from the UI). Built on startStack: the same import, publish and sign-in.
 */
import { ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureN8n, n8nBin, node24, node24Env } from './install';
import { PgN8nDb } from './pgdb';
import { Postgres, startPostgres } from './postgres';
import { Redis, startRedis } from './redis';
import { Stack, StackOptions, startStack } from './stack';
import { runManually } from './summary';
import { freePort } from '../ports';
import { killTree, READY_LINES, spawnGroup, waitUntilStarted } from './server';

export interface QueueProcess {
	name: string;
	/** what it was started with: `worker --concurrency=N` or `webhook` */
	args: string[];
	/** base URL of its HTTP server (health check for a worker, webhooks for the webhook processor) */
	url: string;
	logFile: string;
	process?: ChildProcess;
	/** (Re)starts it and waits for /healthz/readiness. */
	start(): Promise<void>;
	stop(): Promise<void>;
	/** SIGKILL to its whole process group (the process and its task runner), no shutdown at all. */
	kill(): void;
	log(): string;
}

export interface QueueStack extends Stack {
	postgres: Postgres;
	redis: Redis;
	workers: QueueProcess[];
	webhook: QueueProcess;
	/** n8n's records in the shared Postgres database */
	records: PgN8nDb;
	run(workflowId: string, timeoutMs: number): Promise<number>;
	/**
	 * Restarts the workers and the webhook processor with `changes` to n8n's settings (main too from its next
	 * start). They are the processes a burst works in: main takes no production webhooks here and runs no
	 * executions.
	 */
	restartBurstProcesses(changes: Record<string, string>): Promise<void>;
}

export interface QueueStackOptions extends Omit<StackOptions, 'webhookBaseUrl' | 'userFolder'> {
	workers?: number;
	/** jobs each worker runs at once (`n8n worker --concurrency`, n8n's default 10) */
	concurrency?: number;
	/** Postgres settings of every n8n process; BURST_DB_SETTINGS when not given, n8n's own with `{}`. */
	db?: Record<string, string>;
}

/**
 * What it took here for one webhook processor to take 1000 callbacks at once. With n8n's defaults (2
 * connections per process, 20 s to get one, a health ping every 2 s that fails after 5 s and, after 3
 * failures, closes the pool) the requests queue for a connection, the ping queues behind them and fails,
 * and n8n answers "Database is not ready!" (503) to everything until the pool is rebuilt; in-flight
 * executions then fail with "No active execution found". Seen with pool sizes 2 and 10.
 */
export const BURST_DB_SETTINGS: Record<string, string> = {
	DB_POSTGRESDB_POOL_SIZE: '10',
	DB_POSTGRESDB_CONNECTION_TIMEOUT: '120000',
	DB_PING_TIMEOUT_MS: '60000',
};

/** One environment for every process: same database, same Redis, same key (main's env is the base). */
function queueEnv(pg: Postgres, redis: Redis, db: Record<string, string>): Record<string, string> {
	return {
		...pg.n8nEnv(),
		...db,
		...redis.n8nEnv(),
		EXECUTIONS_MODE: 'queue',
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		// Production webhooks only through the webhook processor, so a callback that starts an execution
		// is proof it went through it (main answers 404 on /webhook/...).
		N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
	};
}

function queueProcess(
	name: string,
	args: string[],
	port: number,
	env: () => Promise<NodeJS.ProcessEnv>,
	logFile: string,
	log: (l: string) => void,
): QueueProcess {
	let stream: WriteStream | undefined;
	const readyLine = READY_LINES[args[0] as 'worker' | 'webhook'];
	const p: QueueProcess = {
		name,
		args,
		url: `http://127.0.0.1:${port}`,
		logFile,
		async start(timeoutMs = 120_000) {
			stream = createWriteStream(logFile, { flags: 'a' });
			const child = spawnGroup(node24(), [n8nBin(), ...args], { env: await env() });
			p.process = child;
			child.stdout!.pipe(stream, { end: false });
			child.stderr!.pipe(stream, { end: false });
			await waitUntilStarted(child, { name, url: p.url, readyLine, logFile, timeoutMs, log });
		},
		async stop() {
			await killTree(p.process);
			p.process = undefined;
			stream?.end();
		},
		kill() {
			if (p.process?.pid) process.kill(-p.process.pid, 'SIGKILL');
		},
		log: () => readFileSync(logFile, 'utf8'),
	};
	return p;
}

export async function startQueueStack(opts: QueueStackOptions): Promise<QueueStack> {
	const log = opts.log ?? (() => undefined);
	const userFolder = mkdtempSync(join(tmpdir(), 'cm-n8n-queue-'));
	const started: Array<{ stop(): Promise<void> }> = [];
	const processes: QueueProcess[] = [];
	const stopAll = async () => {
		// Workers and webhook processor together (each may wait for its shutdown grace), then the rest.
		await Promise.all(processes.map((p) => p.stop().catch(() => undefined)));
		for (const s of started.reverse()) await s.stop().catch(() => undefined);
	};
	try {
		// First: Postgres is driven with the `pg` client of the n8n install (a fresh clone has none yet).
		await ensureN8n(log);
		const postgres = await startPostgres(userFolder, log);
		started.push(postgres);
		const redis = await startRedis(userFolder, log);
		started.push(redis);
		const webhookPort = await freePort();
		const webhookUrl = `http://127.0.0.1:${webhookPort}`;
		const stack = await startStack({
			...opts,
			userFolder,
			webhookBaseUrl: webhookUrl,
			// WEBHOOK_URL: the Production URL the editor shows points at the webhook processor.
			n8nEnv: { ...queueEnv(postgres, redis, opts.db ?? BURST_DB_SETTINGS), WEBHOOK_URL: `${webhookUrl}/`, ...(opts.n8nEnv ?? {}) },
		});
		started.push(stack);
		// Each process its own ports; everything else as main.
		const envFor = (extra: Record<string, string>) => async () =>
			node24Env({ ...stack.n8n.env, N8N_RUNNERS_BROKER_PORT: String(await freePort()), ...extra });
		const workers: QueueProcess[] = [];
		for (let i = 1; i <= (opts.workers ?? 2); i++) {
			const port = await freePort();
			const w = queueProcess(
				`worker ${i}`,
				['worker', `--concurrency=${opts.concurrency ?? 10}`],
				port,
				envFor({
					QUEUE_HEALTH_CHECK_ACTIVE: 'true',
					QUEUE_HEALTH_CHECK_PORT: String(port),
					N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
				}),
				join(userFolder, `worker-${i}.log`),
				log,
			);
			workers.push(w);
			processes.push(w);
		}
		const webhook = queueProcess('webhook processor', ['webhook'], webhookPort, envFor({ N8N_PORT: String(webhookPort) }), join(userFolder, 'webhook.log'), log);
		processes.push(webhook);
		// Together: each start waits on Postgres and Redis as much as on a core.
		await Promise.all(processes.map((p) => p.start()));
		const records = new PgN8nDb(postgres);
		started.push({ stop: () => records.close() });
		return {
			...stack,
			webhookUrl,
			postgres,
			redis,
			workers,
			webhook,
			records,
			// `n8n execute` does not support queue mode (it would run the workflow in its own process).
			run: (workflowId, timeoutMs) => runManually(stack.rest, records, workflowId, timeoutMs),
			async restartBurstProcesses(changes) {
				stack.n8n.setEnv(changes);
				await Promise.all(processes.map((p) => p.stop()));
				await Promise.all(processes.map((p) => p.start()));
			},
			stop: stopAll,
		};
	} catch (e) {
		await stopAll();
		throw Object.assign(e instanceof Error ? e : new Error(String(e)), { userFolder });
	}
}
