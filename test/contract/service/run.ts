/**
 * `npm run test:contract`: checks each assumption the package makes about the service, by running the
 * package's own operations in n8n-core's engine against the service given by the environment, and the same
 * against the project's mock in this process; one line each, the service's answer beside the mock's. Exits 1
 * when a line differs, 2 when it could not run. Without CONTENTMOD_SECRET_KEY it starts the mock and runs
 * against that. The variables: README.md, "Releasing".
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';

import { makePng } from '../../../dev/mock/png';
import { spawnMockCli, type MockCliProcess } from '../../../dev/mock/process';
import { startMockService, type MockService } from '../../../dev/mock/server';
import type { Inputs, Outcome } from './answers';
import { CHECKS } from './checks';
import { observeRequests } from './observe';
import { startReceiver, underPath, type Receiver } from './receiver';
import { judge, summarize, writeReport } from './report';
import type { Dashboard, Target } from './target';

const VENDOR_URL = 'https://api.contentmod.io';
const DEFAULT_IMAGE_URL = 'https://upload.wikimedia.org/wikipedia/commons/thumb/4/47/PNG_transparency_demonstration_1.png/280px-PNG_transparency_demonstration_1.png';
const QUEUE = 'contract-queue';
/** Mocks take this long per deferred result: long enough for the read while the service works. */
const MOCK_PROCESS_MS = '2000';
const env = process.env;

const secret = () => randomBytes(12).toString('hex');

function mockDashboard(url: string, token: string): Dashboard {
	const post = async (route: string, body: object) => {
		const response = await fetch(`${url}/__mock/${route}`, {
			method: 'POST',
			headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		if (!response.ok) throw new Error(`the mock's ${route} answered ${response.status}`);
	};
	return {
		setAccountWebhook: async (webhookUrl) => await post('settings', { webhookUrl }),
		decide: async (queueId, itemId, decision) => await post(`queues/${queueId}/items/${itemId}/decision`, { decision }),
	};
}

/** Whether a service on this machine is the project's mock (its dashboard answers). */
async function localMock(baseUrl: string, token: string): Promise<boolean> {
	if (!['127.0.0.1', 'localhost', '[::1]'].includes(new URL(baseUrl).hostname)) return false;
	const response = await fetch(`${baseUrl}/__mock/settings`, { headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
	return response?.status === 200;
}

async function imageBase64(url: string, onMock: boolean): Promise<Pick<Inputs, 'imageBase64' | 'imageBase64Problem'>> {
	try {
		// Image hosts such as Wikimedia refuse requests without a descriptive User-Agent.
		const headers = { 'user-agent': 'n8n-nodes-content-moderation contract check (npm run test:contract)' };
		const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
		if (!response.ok) throw new Error(`HTTP ${response.status}`);
		return { imageBase64: Buffer.from(await response.arrayBuffer()).toString('base64') };
	} catch (error) {
		const problem = `the image URL could not be read here (${(error as Error).message})`;
		// A mock does not look at the image behind a URL: any image stands in for it.
		return onMock ? { imageBase64: makePng('contract').toString('base64') } : { imageBase64Problem: problem };
	}
}

interface Started {
	service: Target;
	mock: Target;
	stop(): Promise<void>;
}

async function start(receiver: Receiver, waitMs: number): Promise<Started> {
	const common = { callbackSecret: secret(), receiver, sizeProbe: env.CONTRACT_SIZE_PROBE === '1' || !env.CONTENTMOD_SECRET_KEY };
	const mockToken = secret();
	const reference: MockService = await startMockService({ token: mockToken, processMs: Number(MOCK_PROCESS_MS), record: false, callbackBackoffMs: 50 });
	reference.configure({ webhookUrl: underPath(receiver.localUrl, 'mock/account') });
	const mock: Target = {
		...common,
		role: 'mock',
		baseUrl: reference.url,
		secretKey: mockToken,
		queueId: QUEUE,
		callbackUrl: underPath(receiver.localUrl, 'mock'),
		accountWebhook: true,
		dashboard: {
			setAccountWebhook: async (url) => reference.configure({ webhookUrl: url }),
			decide: async (queueId, itemId, decision) => void reference.decide(queueId, itemId, decision),
		},
		waitMs: 10_000,
	};

	let spawned: MockCliProcess | undefined;
	let baseUrl = (env.CONTENTMOD_BASE_URL || VENDOR_URL).replace(/\/+$/, '');
	let secretKey = env.CONTENTMOD_SECRET_KEY ?? '';
	if (!secretKey) {
		spawned = await spawnMockCli(['--port', '0', '--token', secret(), '--process-ms', MOCK_PROCESS_MS]);
		baseUrl = spawned.url;
		secretKey = spawned.token;
	}
	const onMock = spawned !== undefined || (await localMock(baseUrl, secretKey));
	const service: Target = {
		...common,
		role: 'service',
		baseUrl,
		secretKey,
		queueId: env.CONTENTMOD_QUEUE_ID || (onMock ? QUEUE : undefined),
		callbackUrl: onMock ? underPath(receiver.localUrl, 'service') : env.CONTRACT_CALLBACK_URL || undefined,
		accountWebhook: onMock || env.CONTRACT_ACCOUNT_WEBHOOK === '1',
		dashboard: onMock ? mockDashboard(baseUrl, secretKey) : undefined,
		waitMs: onMock ? 10_000 : waitMs,
	};
	if (service.dashboard) await service.dashboard.setAccountWebhook(underPath(receiver.localUrl, 'service/account'));
	return {
		service,
		mock,
		async stop() {
			await Promise.all([reference.stop(), spawned?.stop()]);
		},
	};
}

async function runAll(target: Target, inputs: Inputs): Promise<Outcome[]> {
	const memory = new Map<string, string>();
	const outcomes: Outcome[] = [];
	for (const check of CHECKS) {
		try {
			outcomes.push(await check.run(target, inputs, memory));
		} catch (error) {
			outcomes.push({ answer: `the check failed: ${(error as Error).message}` });
		}
	}
	return outcomes;
}

async function main(): Promise<number> {
	const startedAt = new Date();
	observeRequests();
	const port = env.CONTRACT_CALLBACK_URL ? Number(env.CONTRACT_CALLBACK_PORT || 8787) : 0;
	const receiver = await startReceiver(port);
	const started = await start(receiver, Number(env.CONTRACT_WAIT_S || 60) * 1000);
	const secrets = [started.service.secretKey, started.service.callbackSecret, started.mock.secretKey, started.mock.callbackSecret];
	try {
		const onMock = started.service.dashboard !== undefined;
		const imageUrl = env.CONTRACT_IMAGE_URL || DEFAULT_IMAGE_URL;
		const inputs: Inputs = {
			text: 'Contract check: what a lovely sunny morning for a walk in the park.',
			imageUrl,
			...(await imageBase64(imageUrl, onMock)),
			meta: { contractRun: startedAt.toISOString() },
		};
		const [service, mock] = await Promise.all([runAll(started.service, inputs), runAll(started.mock, inputs)]);
		const lines = CHECKS.map((check, index) => judge(check, service[index], mock[index]));
		const label = onMock && !env.CONTENTMOD_SECRET_KEY ? `the mock it started (${started.service.baseUrl})` : started.service.baseUrl;
		const report = summarize(label, startedAt, lines);
		const file = env.CONTRACT_REPORT || path.resolve(__dirname, '../../../reports/contract/report.json');
		process.stdout.write(`${writeReport(report, file, secrets)}\n`);
		return report.differs > 0 ? 1 : 0;
	} finally {
		await started.stop();
		await receiver.stop();
	}
}

main().then(
	(code) => process.exit(code),
	(error: Error) => {
		process.stderr.write(`The contract could not run: ${error.message}\n`);
		process.exit(2);
	},
);
