/**
 * Review repro: a Callback Secret (16+ characters) leaks into an error in the form a URL parser gives it.
 * The node puts the secret into the Callback URL with encodeURIComponent (inbound/token.ts), which keeps
 * ' ! ( ) * ~. A service that echoes the URL after parsing it (WHATWG `new URL(u).href`, as Node and
 * browsers serialize a query) writes ' as %27 but keeps ! ( ) * ~: a mix the forms of secretPatterns.ts did not
 * cover until each of those characters matched in any of its ways (formPattern).
 */
import type { IDataObject } from 'n8n-workflow';

import { dumpRun, moderationNode, runWorkflow } from '@test/helpers/engine';
import { nodeError, SECRET_TOKEN } from '@test/helpers/nodeRun';
import { startScriptedServer, type ScriptedReply } from '@test/helpers/scripted-server';

const CALLBACK_SECRET = "cb'secret!2026-abcd";

/** A deferred Text > Moderate with a Callback URL, against a service answering with `answer(callbackUrl sent)`. */
async function deferredText(answer: (callbackUrl: string) => ScriptedReply) {
	const server = await startScriptedServer((request) =>
		answer(((request.body as IDataObject).options as IDataObject).callbackUrl as string),
	);
	try {
		return await runWorkflow({
			nodes: [
				moderationNode({
					resource: 'text',
					operation: 'moderate',
					text: 'hello there',
					mode: 'deferred',
					options: { callbackUrl: 'https://hooks.example.com/cb' },
				}),
			],
			credentials: { contentModerationApi: { baseUrl: server.url, accessToken: SECRET_TOKEN, callbackSecret: CALLBACK_SECRET } },
		});
	} finally {
		await server.stop();
	}
}

it("the Callback Secret echoed by the service in a parsed URL (' as %27, ! kept) never reaches the node's error", async () => {
	const run = await deferredText((url) => ({ status: 400, body: { message: `callbackUrl not allowed: ${new URL(url).href}` } }));
	expect(nodeError(run).httpCode).toBe('400');
	// The secret as the service's URL parser writes it: cb%27secret!2026-abcd.
	const echoed = new URL(`https://h/?token=${encodeURIComponent(CALLBACK_SECRET)}`).href.split('token=')[1];
	expect(echoed).toBe('cb%27secret!2026-abcd');
	expect(dumpRun(run)).not.toContain(echoed);
});

it.each([
	['Python html.escape', '&#x27;'],
	['PHP htmlspecialchars ENT_QUOTES', '&#039;'],
])("the Callback Secret echoed HTML-escaped by %s (' as %s) in the service's error page never reaches the node's error", async (_name, apostrophe) => {
	const run = await deferredText((url) => {
		const page = `<html><body><p>Bad callback URL: ${url.replace(/'/g, apostrophe)}</p></body></html>`;
		return { status: 400, raw: { text: page, contentType: 'text/html; charset=utf-8' } };
	});
	expect(nodeError(run).httpCode).toBe('400');
	expect(dumpRun(run)).not.toContain(`cb${apostrophe}secret!2026-abcd`);
});
