/**
 * `npm run test:contract` as a process: against the mock it starts itself every line holds and it exits 0;
 * pointed at a mock started with one answer changed (a deferred submission answered 202), it names that line,
 * and only that one, as differing and exits 1; pointed at a service it cannot drive (a mock off 127.0.0.1,
 * as the live service is), the lines that need a callback URL or a person say why they were not checked.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { makePng } from '../../../dev/mock/png';
import { spawnMockCli, type MockCliProcess } from '../../../dev/mock/process';

const ROOT = path.resolve(__dirname, '../../..');
const dir = mkdtempSync(path.join(tmpdir(), 'cm-contract-'));
const KEY = 'contract-test-key-5e1c9a';

function contract(env: Record<string, string>, report: string): Promise<{ code: number | null; out: string }> {
	const base = { ...process.env };
	for (const name of Object.keys(base)) if (name.startsWith('CONTENTMOD_') || name.startsWith('CONTRACT_')) delete base[name];
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--import', 'tsx', 'test/contract/service/run.ts'], {
			cwd: ROOT,
			env: { ...base, ...env, CONTRACT_REPORT: report },
		});
		let out = '';
		child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) => resolve({ code, out }));
	});
}

const verdicts = (out: string) =>
	out
		.split('\n')
		.map((line) => /^(held|DIFFERS|not checked)\s+(\S+)/.exec(line))
		.filter((match) => match !== null)
		.map((match) => [match[2], match[1]]);

let deviating: MockCliProcess | undefined;
let remote: MockCliProcess | undefined;
// The public image a release run reads; here a PNG on this machine (no internet needed).
const images = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(makePng('contract')));

afterAll(async () => {
	images.closeAllConnections();
	images.close();
	await Promise.all([deviating?.stop(), remote?.stop()]);
	rmSync(dir, { recursive: true, force: true });
});

test('held against the mock it starts; a mock answering deferred submissions 202 makes that line differ and exit 1; a service it cannot drive leaves the callback and decision lines not checked, saying why', async () => {
	deviating = await spawnMockCli(['--port', '0', '--token', KEY, '--process-ms', '2000', '--deferred-status', '202']);
	// Not on 127.0.0.1: taken for the live service (no dashboard to use), as a release run sees it.
	remote = await spawnMockCli(['--host', '127.0.0.2', '--port', '0', '--token', KEY, '--process-ms', '2000']);
	await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
	const imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}/contract.png`;
	const [plain, changed, live] = await Promise.all([
		contract({}, path.join(dir, 'plain.json')),
		contract({ CONTENTMOD_SECRET_KEY: KEY, CONTENTMOD_BASE_URL: deviating.url }, path.join(dir, 'changed.json')),
		contract({ CONTENTMOD_SECRET_KEY: KEY, CONTENTMOD_BASE_URL: remote.url, CONTENTMOD_QUEUE_ID: 'release-queue', CONTRACT_IMAGE_URL: imageUrl }, path.join(dir, 'live.json')),
	]);

	expect({ code: plain.code, differs: verdicts(plain.out).filter(([, verdict]) => verdict !== 'held') }).toEqual({
		code: 0,
		differs: [['refusal.503', 'not checked']],
	});
	expect(verdicts(plain.out)).toHaveLength(17);

	expect(changed.code).toBe(1);
	expect(verdicts(changed.out).filter(([, verdict]) => verdict === 'DIFFERS')).toEqual([['image.deferred', 'DIFFERS']]);
	expect(changed.out).toMatch(/^DIFFERS\s+image\.deferred\s+service: HTTP 202; body \{id\}\s+\|\s+mock: HTTP 200; body \{id\}$/m);
	const report = JSON.parse(readFileSync(path.join(dir, 'changed.json'), 'utf8'));
	expect(report.lines.find((line: { id: string }) => line.id === 'image.deferred')).toMatchObject({ verdict: 'differs', service: 'HTTP 202; body {id}' });
	expect(report.differs).toBe(1);
	expect(changed.out + readFileSync(path.join(dir, 'changed.json'), 'utf8')).not.toContain(KEY);

	// A release run has no callback URL, no account webhook on the run and no dashboard: those lines say why.
	expect(live.code).toBe(0);
	expect(verdicts(live.out).filter(([, verdict]) => verdict !== 'held')).toEqual([
		['queue.decision', 'not checked'],
		['callback.body', 'not checked'],
		['callback.account', 'not checked'],
		['refusal.503', 'not checked'],
		['size.limit', 'not checked'],
	]);
	expect(live.out).toMatch(/^not checked\s+callback\.body\s+no CONTRACT_CALLBACK_URL given/m);
}, 180_000);
