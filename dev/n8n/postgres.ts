/**
 * A throwaway PostgreSQL cluster for one run: Debian's `postgresql` (installed with apt-get when missing),
 * `initdb` into a temporary folder and the postmaster in the foreground on a free 127.0.0.1 port, in its own
 * process group like every n8n process, so the usual teardown (and the exit hook) stops it. No system service.
 * initdb and postgres refuse to run as root: as root they run as the `postgres` user the package creates.
 */
import { ChildProcess, execFileSync } from 'node:child_process';
import { chownSync, createWriteStream, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installDir } from './install';
import { ensureDebianPackages, run } from './apt';
import { freePort } from '../ports';
import { killTree, spawnGroup } from './server';

const PG_ROOT = '/usr/lib/postgresql';

/** bin folder of the newest installed PostgreSQL major version, if any. */
function pgBin(): string | undefined {
	if (!existsSync(PG_ROOT)) return undefined;
	const majors = readdirSync(PG_ROOT)
		.filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length ? join(PG_ROOT, majors[0], 'bin') : undefined;
}

/** `pg_dump` (plain SQL, data included) of a database of a cluster started here (trust auth on 127.0.0.1). */
export function pgDump(conn: { host: string; port: number; user: string; database: string }): Buffer {
	const bin = pgBin();
	if (!bin) throw new Error('pg_dump: no PostgreSQL installed under /usr/lib/postgresql');
	return execFileSync(join(bin, 'pg_dump'), ['-h', conn.host, '-p', String(conn.port), '-U', conn.user, '-d', conn.database], {
		maxBuffer: 1 << 30,
	});
}

/** The `pg` client that n8n itself uses, from the cached n8n install (no extra dependency for this project). */
export function pgModule(): any {
	return createRequire(join(installDir(), 'node_modules', 'n8n', 'package.json'))('pg');
}

export interface Postgres {
	host: string;
	port: number;
	user: string;
	database: string;
	dataDir: string;
	logFile: string;
	process: ChildProcess;
	/** DB_* variables for n8n */
	n8nEnv(): Record<string, string>;
	stop(): Promise<void>;
}

const asRoot = () => process.getuid?.() === 0;

/** Runs a command as the unprivileged `postgres` user when we are root, else as ourselves. */
function asPgUser(cmd: string, args: string[]): [string, string[]] {
	return asRoot() ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

/** `logDir` receives postgres.log (kept with the n8n user folder); the cluster itself is removed on stop. */
export async function startPostgres(logDir: string, log: (l: string) => void = () => undefined): Promise<Postgres> {
	await ensureDebianPackages(['postgresql'], () => pgBin() !== undefined, log);
	const bin = pgBin()!;
	const dataDir = mkdtempSync(join(tmpdir(), 'cm-pg-'));
	if (asRoot()) {
		const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
		chownSync(dataDir, id('-u'), id('-g'));
	}
	const user = 'postgres';
	// trust: a throwaway cluster that listens on 127.0.0.1 only, for this run.
	const [icmd, iargs] = asPgUser(join(bin, 'initdb'), ['-D', dataDir, '-U', user, '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
	await run(icmd, iargs, 120_000);
	const port = await freePort();
	const logFile = join(logDir, 'postgres.log');
	const [cmd, args] = asPgUser(join(bin, 'postgres'), [
		'-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-k', dataDir,
		// Durability is not under test: a throwaway cluster may skip fsync.
		'-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off',
		'-c', 'max_connections=200',
	]);
	const child = spawnGroup(cmd, args, { env: process.env });
	const out = createWriteStream(logFile, { flags: 'a' });
	child.stdout!.pipe(out);
	child.stderr!.pipe(out);
	const host = '127.0.0.1';
	const database = 'n8n';
	const pg = pgModule();
	const t0 = Date.now();
	for (;;) {
		if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}; see ${logFile}`);
		const client = new pg.Client({ host, port, user, database: 'postgres', connectionTimeoutMillis: 2000 });
		try {
			await client.connect();
			await client.query(`CREATE DATABASE ${database}`);
			await client.end();
			break;
		} catch (e) {
			await client.end().catch(() => undefined);
			if (Date.now() - t0 > 60_000) {
				await killTree(child);
				throw new Error(`postgres not ready within 60s: ${(e as Error).message}; see ${logFile}`);
			}
			await new Promise((r) => setTimeout(r, 300));
		}
	}
	log(`postgres ${bin.split('/').slice(-2)[0]} ready on ${host}:${port} after ${((Date.now() - t0) / 1000).toFixed(1)}s`);
	return {
		host,
		port,
		user,
		database,
		dataDir,
		logFile,
		process: child,
		n8nEnv: () => ({
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: host,
			DB_POSTGRESDB_PORT: String(port),
			DB_POSTGRESDB_DATABASE: database,
			DB_POSTGRESDB_USER: user,
			DB_POSTGRESDB_PASSWORD: '',
		}),
		async stop() {
			await killTree(child);
			out.end();
			rmSync(dataDir, { recursive: true, force: true });
		},
	};
}
