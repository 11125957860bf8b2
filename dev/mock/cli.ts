import { parseArgs } from 'node:util';

import { startMockService, type MockServiceOptions } from './server';

const USAGE = `Usage: npm run mock -- [flags]
  --port N               port on 127.0.0.1 (default 4010; 0 = a free port)
  --token T              accepted bearer token (default test-token)
  --latency-ms N         added before every response (default 0)
  --process-ms N         time a deferred image or image queue item takes (default 200)
  --text-process-ms N    time a deferred text or text queue item takes (default: --process-ms)
  --text-moderate-ms N   time an immediate POST /text works before answering (default 0)
  --webhook-url U        the account webhook URL: review decisions and deferred results go there
  --metadata-key K       request key read as metadata: meta, metadata or both (default both)
  --fault-rate F         fraction of requests answered 503 + Retry-After (default 0)
  --throttle-rate F      fraction of requests answered 429 + Retry-After (default 0)
  --proxy-fault-rate F   fraction of requests acted on, then answered 503 by a proxy: text, no Retry-After (default 0)
  --retry-after S        Retry-After seconds for faults and throttling (default 1)
  --fault-seed N         faults and throttling at random from this seed (default 0 = evenly spread)
  --capacity N           requests worked on at once; more are answered 503 at once, no Retry-After (default 0 = none)
  --rate-limit N         requests per second; over it 429 + Retry-After (default 0 = none)
  --rate-limit-burst N   make the rate limit a token bucket of N requests (default 0 = fixed windows)
  --deferred-status N    status of the answer to a deferred submission (default 200, the vendor's; a 2xx)
  --callback-retries N   retries of a failed callback delivery (default 3)
  --callback-backoff-ms N  first retry delay, doubled each retry (default 100)
  --host H               listen address (default 127.0.0.1)
  --backlog N            listen backlog: connections waiting to be accepted (default 511, Node's and nginx's)
  --help`;

const NUMBER_FLAGS = {
	port: 'port',
	'latency-ms': 'latencyMs',
	'process-ms': 'processMs',
	'text-process-ms': 'textProcessMs',
	'text-moderate-ms': 'textModerateMs',
	'fault-rate': 'faultRate',
	'throttle-rate': 'throttleRate',
	'proxy-fault-rate': 'proxyFaultRate',
	'retry-after': 'retryAfterSeconds',
	'fault-seed': 'faultSeed',
	capacity: 'capacity',
	'rate-limit': 'rateLimit',
	'rate-limit-burst': 'rateLimitBurst',
	'deferred-status': 'deferredStatus',
	'callback-retries': 'callbackRetries',
	'callback-backoff-ms': 'callbackBackoffMs',
	backlog: 'backlog',
} as const;

function fail(message: string): never {
	process.stderr.write(`${message}\n\n${USAGE}\n`);
	process.exit(2);
}

async function main(): Promise<void> {
	let values: Record<string, string | boolean | undefined>;
	try {
		const flags = Object.fromEntries(Object.keys(NUMBER_FLAGS).map((name) => [name, { type: 'string' as const }]));
		({ values } = parseArgs({
			options: {
				...flags,
				token: { type: 'string' },
				host: { type: 'string' },
				'webhook-url': { type: 'string' },
				'metadata-key': { type: 'string' },
				help: { type: 'boolean' },
			},
			strict: true,
			allowPositionals: false,
		}));
	} catch (error) {
		fail((error as Error).message);
	}
	if (values.help) {
		process.stdout.write(`${USAGE}\n`);
		return;
	}
	// Nobody can read the records of a standalone service, so it keeps none (memory stays flat in long runs).
	const options: MockServiceOptions = { port: 4010, token: 'test-token', record: false };
	for (const [flag, key] of Object.entries(NUMBER_FLAGS)) {
		const text = values[flag];
		if (text === undefined) continue;
		const value = Number(text);
		if (typeof text !== 'string' || text.trim() === '' || !Number.isFinite(value)) fail(`--${flag} must be a number`);
		options[key] = value;
	}
	if (values.token !== undefined) options.token = String(values.token);
	if (values.host !== undefined) options.host = String(values.host);
	if (values['webhook-url'] !== undefined) options.webhookUrl = String(values['webhook-url']);
	if (values['metadata-key'] !== undefined) {
		options.metadataKey = String(values['metadata-key']) as MockServiceOptions['metadataKey'];
	}

	let service;
	try {
		service = await startMockService(options);
	} catch (error) {
		process.stderr.write(`Cannot start the mock service: ${(error as Error).message}\n`);
		process.exit(1);
	}
	process.stdout.write(`Content Moderation mock service listening on ${service.url} (token: ${service.token})\n`);

	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		service.stop().then(
			() => process.exit(0),
			(error: Error) => {
				process.stderr.write(`Error while stopping: ${error.message}\n`);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

void main();
