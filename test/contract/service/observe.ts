/**
 * What the service answered, seen from inside n8n-core: an interceptor on the axios instance n8n-core sends
 * the node's requests with. It only reads: every request is the node's own, sent once, as users' are.
 */
import path from 'node:path';

export interface Exchange {
	method: string;
	/** The full URL the node requested */
	url: string;
	/** undefined when no answer came (a network error) */
	status?: number;
	headers: Record<string, string>;
	/** The answer's body, parsed JSON when it is JSON */
	body: unknown;
	/** The request body as sent, parsed JSON when it is JSON */
	sent: unknown;
	error?: string;
}

interface AxiosLike {
	interceptors: {
		response: { use(ok: (response: any) => any, failed: (error: any) => any): number };
	};
}

const exchanges: Exchange[] = [];
let installed = false;

function parsed(value: unknown): unknown {
	const text = Buffer.isBuffer(value) ? value.toString('utf8') : typeof value === 'string' ? value : undefined;
	if (text === undefined) return value;
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

function headersOf(raw: unknown): Record<string, string> {
	const out: Record<string, string> = {};
	const source = (raw && typeof (raw as { toJSON?: unknown }).toJSON === 'function' ? (raw as { toJSON(): object }).toJSON() : raw) as Record<string, unknown>;
	for (const [name, value] of Object.entries(source ?? {})) out[name.toLowerCase()] = String(value);
	return out;
}

function record(config: any, response?: any, error?: any): void {
	exchanges.push({
		method: String(config?.method ?? '').toUpperCase(),
		url: String(config?.url ?? ''),
		status: response?.status,
		headers: headersOf(response?.headers),
		body: parsed(response?.data),
		sent: parsed(config?.data),
		error: error === undefined ? undefined : String(error.code ?? error.message),
	});
}

/** Installs the interceptor on n8n-core's own axios (once per process). */
export function observeRequests(): void {
	if (installed) return;
	installed = true;
	const coreDir = path.dirname(require.resolve('n8n-core'));
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const loaded = require(require.resolve('axios', { paths: [coreDir] })) as { default?: AxiosLike } & AxiosLike;
	const axios = loaded.default ?? loaded;
	axios.interceptors.response.use(
		(response) => {
			record(response.config, response);
			return response;
		},
		(error) => {
			record(error?.config, error?.response, error?.response ? undefined : error);
			return Promise.reject(error);
		},
	);
}

/** The exchanges with URLs under `baseUrl` recorded from index `from` on. */
export function exchangesSince(from: number, baseUrl: string): Exchange[] {
	return exchanges.slice(from).filter((exchange) => exchange.url.startsWith(baseUrl));
}

export const exchangeCount = (): number => exchanges.length;
