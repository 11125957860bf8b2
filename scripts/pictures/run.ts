/**
 * `npm run pictures`: the package README's pictures, taken from n8n's editor. Starts the mock service and the
 * pinned n8n with the package, a credential and the example workflows (as `npm start` does), runs the examples
 * the pictures show from the editor in headless Chromium, and saves each picture into docs/pictures/, cropped to
 * what its README text is about, at npm's README width (check.ts), in a palette of 256 colours (optimise.ts).
 * Before a picture is saved the page is checked: it shows what the README says (item counts and output names;
 * the trigger's Production URL, Events and output with `event`), its labels are large enough to read where npm
 * shows it, it holds neither the Callback Secret nor the service's key, and it is at most 200 KB. Run it again
 * after a change to a node's panel.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockService } from '../../dev/mock/server';
import { N8nDb } from '../../dev/n8n/db';
import { N8N_VERSION } from '../../dev/n8n/install';
import { Running, teardownOnSignals } from '../../dev/n8n/lifecycle';
import { newCallbackSecret, startStack } from '../../dev/n8n/stack';
import { SCREENSHOT_DIR, withEditor } from '../../dev/n8n/editor';
import { PICTURE_SCALE, pictureProblems, pngSize } from './check';
import { optimisePng, PICTURE_COLOURS } from './optimise';
import { type Context, reviewLoop, routeByVerdict, triggerPanel } from './shots';
import { ROOT } from '../../dev/readmeLinks';

export const PICTURES_DIR = join(ROOT, 'docs', 'pictures');
/** The pictures this command makes, each shown once in the package README. */
export const PICTURES = ['route-by-verdict.png', 'trigger-panel.png', 'review-loop.png'] as const;
/** The address the trigger's panel shows: n8n behind a proxy with WEBHOOK_URL set, as the README tells users. */
const PUBLIC_URL = 'https://n8n.example.com/';

const started = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}`);
const running: Running = {};

async function main(): Promise<void> {
	// The README shows the n8n users get with the package's tested version, the pinned one.
	if (process.env.N8N_VERSION) throw new Error(`the pictures are taken with the pinned n8n; unset N8N_VERSION (${N8N_VERSION})`);
	const mock = (running.mock = await startMockService({ token: `pictures-${randomBytes(12).toString('hex')}` }));
	const stack = (running.stack = await startStack({
		serviceUrl: mock.url,
		serviceToken: mock.token,
		callbackSecret: newCallbackSecret('pictures-cb'),
		n8nEnv: { WEBHOOK_URL: PUBLIC_URL },
		log,
	}));
	const db = (running.db = N8nDb.forUserFolder(stack.n8n.userFolder));
	const c: Context = { stack, mock, db, secrets: [stack.callbackSecret, mock.token], log };
	const login = { url: stack.n8n.url, email: stack.owner.email, password: stack.owner.password, log };
	const pictures: Record<(typeof PICTURES)[number], Buffer> = await withEditor(
		login,
		'pictures',
		async ({ page }) => ({
			'route-by-verdict.png': await routeByVerdict(page, c),
			'trigger-panel.png': await triggerPanel(page, c),
			'review-loop.png': await reviewLoop(page, c),
		}),
		PICTURE_SCALE,
	);
	for (const [name, png] of Object.entries(pictures) as Array<[keyof typeof pictures, Buffer]>) {
		pictures[name] = optimisePng(png);
		log(`${name}: ${(png.length / 1000).toFixed(1)} kB as Chromium saved it, ${(pictures[name].length / 1000).toFixed(1)} kB at ${PICTURE_COLOURS} colours`);
	}
	const problems = Object.entries(pictures).flatMap(([name, png]) => pictureProblems(name, png));
	if (problems.length) throw new Error(problems.join('; '));
	mkdirSync(PICTURES_DIR, { recursive: true });
	for (const [name, png] of Object.entries(pictures)) {
		writeFileSync(join(PICTURES_DIR, name), png);
		const { width, height } = pngSize(png);
		log(`docs/pictures/${name}: ${width} x ${height} px, ${(png.length / 1000).toFixed(1)} kB`);
	}
}

if (require.main === module) {
	const cleanup = teardownOnSignals(running, { log, onSignal: () => process.exit(130) });
	main().then(
		() => cleanup().then(() => process.exit(0)),
		async (e) => {
			console.error(`npm run pictures failed: ${e instanceof Error ? e.stack : e}`);
			console.error(`the page at the failure: ${join(SCREENSHOT_DIR, 'failure-pictures.png')}`);
			await cleanup();
			process.exit(1);
		},
	);
}
