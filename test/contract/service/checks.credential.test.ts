/**
 * The contract's credential.test line tells a service that answers a path it does not serve as a web framework
 * does (text) from one that answers it like the API (JSON, as a catch-all gateway might): the second would pass
 * the credential's Test under a wrong Base URL, and the line's answer then differs from the mock's.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Inputs } from './answers';
import { CHECKS } from './checks';
import type { Target } from './target';

const line = CHECKS.find((check) => check.id === 'credential.test');
const inputs: Inputs = { text: 'hello', imageUrl: 'https://example.com/a.png', meta: {} };

async function answerFrom(unknownPath: 'text' | 'json'): Promise<string> {
	const server = http.createServer((req, res) => {
		const api = /^\/image\/[0-9a-f-]{36}$/.test(req.url ?? '');
		if (api || unknownPath === 'json') {
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: { status: 404, code: 'not_found', message: 'Not found' } }));
		} else {
			res.writeHead(404, { 'content-type': 'text/plain' });
			res.end('404 Not Found');
		}
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	try {
		const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		const target = { role: 'service', baseUrl, secretKey: 'contract-key-0000', callbackSecret: 'c'.repeat(16) } as Target;
		const outcome = await line!.run(target, inputs, new Map());
		return 'answer' in outcome ? outcome.answer : outcome.notChecked;
	} finally {
		server.close();
	}
}

test('a path the API does not serve: text fails the Test (as on the mock), JSON would pass it and so reads differently', async () => {
	expect(line).toBeDefined();
	const text = await answerFrom('text');
	const json = await answerFrom('json');
	expect(text).toBe('right key: OK; a path it does not serve: Error (Nothing at this Base URL answers like the ContentMod API)');
	expect(json).toBe('right key: OK; a path it does not serve: OK (Connection successful!)');
});
