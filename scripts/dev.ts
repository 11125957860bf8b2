/**
 * `npm run dev`: the edit-and-see loop. The local mock service and the pinned n8n of `npm start`, with the
 * package compiled into n8n's community-package folder by `tsc --watch` and reloaded by n8n on each save
 * (dev/n8n/devLoop.ts). A change to a node's description shows in the open editor after a page reload.
 * Ctrl-C stops tsc, n8n and the mock.
 */
import { PACKAGE_DIR } from '../dev/n8n/install';
import { Running, runInteractive } from '../dev/n8n/lifecycle';
import { startDevLoop } from '../dev/n8n/devLoop';
import { newCallbackSecret } from '../dev/n8n/stack';
import { startMockService } from '../dev/mock/server';

const t0 = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - t0) / 1000).toFixed(0).padStart(4)}s] ${line}`);

const running: Running = {};

async function main(): Promise<void> {
	const mock = (running.mock = await startMockService({ port: process.env.MOCK_PORT ? Number(process.env.MOCK_PORT) : undefined }));
	log(`mock Content Moderation Service at ${mock.url}`);
	// CM_DEV_PACKAGE_DIR: another copy of the package folder (the e2e's dev-loop case edits a copy, not this one).
	const loop = await startDevLoop(process.env.CM_DEV_PACKAGE_DIR || PACKAGE_DIR, {
		serviceUrl: mock.url,
		serviceToken: mock.token,
		callbackSecret: newCallbackSecret('dev-cb'),
		log,
		port: process.env.N8N_PORT ? Number(process.env.N8N_PORT) : undefined,
	});
	running.stack = { ...loop.stack, stop: loop.stop };
	const { n8n, owner } = loop.stack;
	console.log(`
==================================================================================================
 n8n editor:   ${n8n.url}/
 login:        ${owner.email} / ${owner.password}
 credential:   "Content Moderation account" -> ${mock.url} (mock service)
 watching:     ${process.env.CM_DEV_PACKAGE_DIR || PACKAGE_DIR} -> ${loop.target}
 Save a file, then reload the editor page to see the change. Icons and package.json are copied at
 start only (restart for those). Press Ctrl-C to stop tsc, n8n and the mock service.
==================================================================================================`);
}

runInteractive('npm run dev', running, main);
