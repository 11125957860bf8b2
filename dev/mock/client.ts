import { request } from 'undici';

import { parseBody } from './http';

interface MockResponse {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	/** Parsed JSON, the text of a plain answer, or undefined for an empty body */
	body: any;
	durationMs: number;
}

export interface CallOptions {
	/** Bearer token; null sends no Authorization header. Default: the mock's default token */
	token?: string | null;
	/** Sent as JSON with Content-Type application/json */
	json?: unknown;
	/** Sent as is (set your own content-type) */
	raw?: string | Buffer;
	headers?: Record<string, string>;
}

/** One request to the mock (or any JSON service) and its parsed answer: a small helper for tests. */
export async function call(baseUrl: string, method: string, path: string, options: CallOptions = {}): Promise<MockResponse> {
	const headers: Record<string, string> = {};
	const token = options.token === undefined ? 'test-token' : options.token;
	if (token !== null) headers.authorization = `Bearer ${token}`;
	let body: string | Buffer | undefined = options.raw;
	if (options.json !== undefined) {
		headers['content-type'] = 'application/json';
		body = JSON.stringify(options.json);
	}
	Object.assign(headers, options.headers);
	const started = Date.now();
	const response = await request(`${baseUrl}${path}`, { method: method as 'GET', headers, body });
	const text = await response.body.text();
	return {
		status: response.statusCode,
		headers: response.headers,
		// JSON, or the text of a plain answer (an unknown route's)
		body: parseBody(Buffer.from(text)),
		durationMs: Date.now() - started,
	};
}
