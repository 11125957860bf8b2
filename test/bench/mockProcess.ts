/**
 * The mock service in its own process, as a real service is: for the memory check (so its copies of the
 * bodies are not counted there) and S1's second measurement (so it accepts connections while the node
 * works). `startMockProcess(options)` spawns this file with --serve-mock, which serves and prints its URL
 * and token.
 * SIGUSR2 asks it for the peak of requests in flight (answered on stdout).
 */
import { spawn, type ChildProcess } from 'node:child_process';

import { startMockService, type MockServiceOptions } from '../../dev/mock/server';

const MB = 1024 * 1024;
const OPTIONS_ENV = 'BENCH_MOCK_OPTIONS';

/** Starts this file as the mock service's process, with `options` over the memory check's defaults. */
export async function startMockProcess(
	options: MockServiceOptions = {},
): Promise<{ url: string; token: string; child: ChildProcess }> {
	const child = spawn(process.execPath, ['--import', 'tsx', __filename, '--serve-mock'], {
		stdio: ['ignore', 'pipe', 'inherit'],
		env: { ...process.env, [OPTIONS_ENV]: JSON.stringify(options) },
	});
	const line = await new Promise<string>((res, rej) => {
		let out = '';
		const timer = setTimeout(() => rej(new Error(`mock did not start: ${out}`)), 30_000);
		child.stdout!.on('data', (d: Buffer) => {
			out += d.toString();
			if (out.includes('\n')) {
				clearTimeout(timer);
				res(out.split('\n')[0]);
			}
		});
		child.on('exit', (code) => rej(new Error(`mock exited ${code}: ${out}`)));
	});
	const { url, token } = JSON.parse(line) as { url: string; token: string };
	return { url, token, child };
}

async function serveMock() {
	const options = JSON.parse(process.env[OPTIONS_ENV] ?? '{}') as MockServiceOptions;
	const mock = await startMockService({ maxBodyBytes: 64 * MB, record: false, token: 'memory-token', ...options });
	console.log(JSON.stringify({ url: mock.url, token: mock.token }));
	// The parent asks for the peak of requests in flight by sending SIGUSR2; answered on stdout.
	process.on('SIGUSR2', () => {
		console.log(JSON.stringify({ peakInFlight: mock.traffic.peakInFlight }));
		mock.reset();
	});
	// Ends with the parent: stdin is not used, so watch the parent pid.
	const parent = process.ppid;
	setInterval(() => {
		try {
			process.kill(parent, 0);
		} catch {
			void mock.stop().then(() => process.exit(0));
		}
	}, 500);
	process.on('SIGTERM', () => void mock.stop().then(() => process.exit(0)));
}


if (process.argv.includes('--serve-mock')) {
	serveMock().catch((error) => {
		console.error(error);
		process.exit(1);
	});
}
