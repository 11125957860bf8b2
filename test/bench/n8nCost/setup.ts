/** The n8n-cost bench's setting up: the service traffic it watches, moderations, publishing, a quiet n8n. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { PACKAGE_DIR } from '../../../dev/n8n/install';
import type { N8nInstance } from '../../../dev/n8n/server';
import type { MockService } from '../../../dev/mock/server';
import type { Exchange } from '../chart';
import { pause } from '../harness';
import { TreeMonitor } from './proc';

/** Service exchanges the workflows cause (GET /image/{id}, POST /text), in ms from `reset()`. */
export class ServiceTraffic {
	exchanges: Exchange[] = [];
	private t0 = Date.now();
	reset(): void {
		this.exchanges = [];
		this.t0 = Date.now();
	}
	observe = (req: IncomingMessage, res: ServerResponse): void => {
		const counted = (req.method === 'GET' && req.url?.startsWith('/image/')) || (req.method === 'POST' && req.url === '/text');
		if (!counted) return;
		const start = Date.now() - this.t0;
		res.on('finish', () => this.exchanges.push({ start, end: Date.now() - this.t0, status: res.statusCode }));
	};
}

/** Deferred image moderations the callbacks name, processed before the first burst. */
export async function createModerations(mock: MockService, count: number): Promise<string[]> {
	const ids: string[] = [];
	for (let i = 0; i < count; i += 50) {
		const batch = Array.from({ length: Math.min(50, count - i) }, async (_, j) => {
			const res = await fetch(`${mock.url}/image`, {
				method: 'POST',
				headers: { authorization: `Bearer ${mock.token}`, 'content-type': 'application/json' },
				body: JSON.stringify({ image: `https://example.com/cost/${i + j}.png`, options: { defer: true } }),
			});
			const body = (await res.json()) as { id?: string };
			if (!res.ok || typeof body.id !== 'string') throw new Error(`POST /image answered ${res.status}: ${JSON.stringify(body)}`);
			return body.id;
		});
		ids.push(...(await Promise.all(batch)));
	}
	return ids;
}

/** Whether the mock moderates texts (POST /text), so the text variant can run. */
export async function textSupported(mock: MockService): Promise<string | undefined> {
	const res = await fetch(`${mock.url}/text`, {
		method: 'POST',
		headers: { authorization: `Bearer ${mock.token}`, 'content-type': 'application/json' },
		body: JSON.stringify({ text: 'hello' }),
	}).catch(() => undefined);
	return res?.status === 200 ? undefined : `the mock answers POST /text with ${res?.status ?? 'nothing'}`;
}

export async function publish(n8n: N8nInstance, id: string): Promise<void> {
	const r = await n8n.cli(['publish:workflow', `--id=${id}`]);
	if (r.code !== 0) throw new Error(`publish:workflow ${id} failed (${r.code}): ${(r.stdout + r.stderr).slice(-1500)}`);
}

/** Waits until n8n's tree uses under 10% of a core over a second (at most `maxMs`). */
export async function settle(pid: number, maxMs = 15_000): Promise<void> {
	const t0 = Date.now();
	while (Date.now() - t0 < maxMs) {
		const m = new TreeMonitor(pid, 1_000_000);
		await pause(1000);
		if (m.stop().cpuSeconds < 0.1) return;
	}
}

/** The bare community trigger of workflow A0 (fixture/), installed beside the package as a user installs one. */
export const BARE_TRIGGER_TYPE = 'n8n-nodes-bench-bare-trigger.bareTrigger';

export function installBareTrigger(userFolder: string): void {
	// Its node is plain JavaScript kept in git (not under dist/, which git ignores).
	if (!existsSync(join(__dirname, 'fixture', 'nodes', 'BareTrigger.node.js'))) throw new Error('bench fixture: nodes/BareTrigger.node.js missing');
	const args = ['install', '--install-links', '--legacy-peer-deps', '--no-audit', '--no-fund', join(__dirname, 'fixture')];
	execFileSync('npm', args, { cwd: join(userFolder, '.n8n', 'nodes'), stdio: 'ignore', env: { ...process.env, HOME: userFolder } });
}
