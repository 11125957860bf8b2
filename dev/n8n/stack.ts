/**
 * The whole local stack shared by `npm start` and the e2e runner: the cached n8n install, this package
 * built/packed/installed as a community package, a credential pointing at a service URL, the example
 * workflows (plus extra ones) imported with fixed ids, published triggers, n8n started and an owner signed in.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureN8n, PROJECT_ROOT } from './install';
import { CREDENTIAL_TYPE, installPackage } from './package';
import { N8nRest, OWNER } from './rest';
import { createN8n, N8nInstance } from './server';

export const EXAMPLES_DIR = join(PROJECT_ROOT, 'examples');
/** Fixed id of the credential the example workflows reference. */
export const CREDENTIAL_ID = 'cmCredential0001';
export const CREDENTIAL_NAME = 'Content Moderation account';
/** Host the example files use for n8n's own URLs (the callback URL); replaced by the real one on import. */
const EXAMPLE_N8N_URL = 'http://localhost:5678';

export interface WorkflowFile {
	id: string;
	name: string;
	nodes: any[];
	connections: any;
	[k: string]: unknown;
}

/** A fresh Callback Secret for a run, with a character URL encoding changes (so encodings are exercised). */
export function newCallbackSecret(prefix: string): string {
	return `${prefix}/${randomBytes(9).toString('hex')}`;
}

export function readWorkflow(file: string): WorkflowFile {
	return JSON.parse(readFileSync(file, 'utf8'));
}

function exampleFiles(): string[] {
	return readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => join(EXAMPLES_DIR, f));
}

/** Workflows that hold a trigger which must be published to receive production webhooks. */
function needsPublish(wf: WorkflowFile): boolean {
	// A Webhook node (example 07) is a trigger too, though its type does not say so.
	return wf.nodes.some((n) => (/Trigger$/.test(n.type) && !/manualTrigger$/.test(n.type)) || n.type === 'n8n-nodes-base.webhook');
}

export interface StackOptions {
	serviceUrl: string;
	serviceToken: string;
	/** The credential's Callback Secret: added to callback URLs and checked by the trigger. */
	callbackSecret: string;
	/** Extra workflow files (absolute paths) imported beside the examples. */
	extraWorkflows?: string[];
	/** Replacements applied to the text of each workflow file before import. */
	replace?: Array<[string, string]>;
	log?: (line: string) => void;
	n8nEnv?: Record<string, string>;
	/** n8n's port; a free one when not given */
	port?: number;
	/** n8n's user folder; a new temporary one when not given */
	userFolder?: string;
	/** Base URL of production webhooks (queue mode: the webhook processor); n8n's own URL when not given */
	webhookBaseUrl?: string;
	/** Ids of extra workflows to publish as well */
	publish?: string[];
	/**
	 * Puts the package where n8n loads it, before n8n starts. Default: build, pack and install the tarball with
	 * the README's manual-install lines (what users get); `npm run dev` compiles into the folder instead.
	 */
	installPackage?: (userFolder: string, log: (line: string) => void) => Promise<void>;
}

export interface Stack {
	n8n: N8nInstance;
	/** The credential's Callback Secret. */
	callbackSecret: string;
	rest: N8nRest;
	workflows: WorkflowFile[];
	owner: typeof OWNER;
	/** Where production webhooks (the trigger's Production URL) are served */
	webhookUrl: string;
	/** Runs a workflow from its Manual Trigger and resolves with the finished execution's id (queue mode) */
	run?(workflowId: string, timeoutMs: number): Promise<number>;
	stop(): Promise<void>;
}

async function cliOk(n8n: N8nInstance, args: string[], what: string): Promise<string> {
	const r = await n8n.cli(args);
	if (r.code !== 0) throw new Error(`n8n ${what} failed (${r.code}):\n${(r.stdout + r.stderr).slice(-3000)}`);
	return r.stdout;
}

/**
 * Imports credentials and workflows (objects with fixed ids; credential data in plain text, which n8n
 * encrypts with the instance key) into n8n's database with its CLI. Works while n8n runs.
 */
export async function importIntoN8n(n8n: N8nInstance, credentials: object[], workflows: object[]): Promise<void> {
	const dir = mkdtempSync(join(tmpdir(), 'cm-import-'));
	try {
		const batches = [
			['import:credentials', 'credentials', credentials],
			['import:workflow', 'workflows', workflows],
		] as const;
		for (const [command, folder, items] of batches) {
			if (items.length === 0) continue;
			mkdirSync(join(dir, folder));
			items.forEach((item, i) => writeFileSync(join(dir, folder, `${i}.json`), JSON.stringify(item)));
			await cliOk(n8n, [command, '--separate', `--input=${join(dir, folder)}`], command);
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * Prepares the user folder and starts n8n; `replace` maps text in the workflow files (e.g. the example
 * callback host) before import. The callback host is known before start because the port is chosen first.
 */
export async function startStack(opts: StackOptions): Promise<Stack> {
	const log = opts.log ?? (() => undefined);
	await ensureN8n(log);
	const n8n = await createN8n({ log, env: opts.n8nEnv, port: opts.port, userFolder: opts.userFolder });
	let started = false;
	try {
		await (opts.installPackage ?? installPackage)(n8n.userFolder, log);

		const credential = {
			id: CREDENTIAL_ID,
			name: CREDENTIAL_NAME,
			type: CREDENTIAL_TYPE,
			// Plain object data: the import command encrypts it with the instance key.
			data: { baseUrl: opts.serviceUrl, accessToken: opts.serviceToken, callbackSecret: opts.callbackSecret },
		};
		const webhookUrl = opts.webhookBaseUrl ?? n8n.url;
		const replace: Array<[string, string]> = [[EXAMPLE_N8N_URL, webhookUrl], ...(opts.replace ?? [])];
		const workflows: WorkflowFile[] = [];
		const toPublish: string[] = [];
		const examples = exampleFiles();
		for (const file of [...examples, ...(opts.extraWorkflows ?? [])]) {
			let text = readFileSync(file, 'utf8');
			for (const [from, to] of replace) text = text.split(from).join(to);
			const wf = JSON.parse(text) as WorkflowFile;
			workflows.push(wf);
			// The examples' triggers go live; extra (test) workflows stay unpublished unless named in `publish`.
			if ((examples.includes(file) && needsPublish(wf)) || opts.publish?.includes(wf.id)) toPublish.push(wf.id);
		}
		log(`importing 1 credential and ${workflows.length} workflows...`);
		await importIntoN8n(n8n, [credential], workflows);

		log('starting n8n...');
		await n8n.start();
		started = true;
		const rest = new N8nRest(n8n.url);
		await rest.setupOwnerAndLogin();
		// Through the REST API, as the editor's Publish button does: one CLI process per workflow costs seconds each.
		log(`publishing ${toPublish.length} workflows...`);
		for (const id of toPublish) await rest.publish(id);
		return {
			n8n,
			callbackSecret: opts.callbackSecret,
			rest,
			workflows,
			owner: OWNER,
			webhookUrl,
			async stop() {
				await n8n.stop();
			},
		};
	} catch (e) {
		if (started) await n8n.stop();
		throw Object.assign(e instanceof Error ? e : new Error(String(e)), { userFolder: n8n.userFolder });
	}
}
