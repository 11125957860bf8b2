/**
 * Cases on how users get the package: installed with the README's manual-install lines before n8n first
 * started (no peer `n8n-workflow` beside it), accepted by this n8n's own `checkNodesApiVersion` rule, every
 * `n8n-workflow` value the built nodes use present in this n8n; and n8n restarted with its data kept.
 */
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installDir, N8N_VERSION } from '../../../dev/n8n/install';
import { ACTION_TYPE, PACKAGE_NAME, TRIGGER_TYPE } from '../../../dev/n8n/package';
import { CREDENTIAL_ID } from '../../../dev/n8n/stack';
import { executeWorkflow } from '../../../dev/n8n/summary';
import { assert, E2eContext } from '../context';
import { callbackUrl } from './deferred';

/** n8n-workflow as this n8n resolves it (not the project's devDependency). */
function n8nWorkflowOfN8n(): Record<string, unknown> {
	return createRequire(join(installDir(), 'node_modules', 'n8n', 'package.json'))('n8n-workflow');
}

function jsFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
		e.isDirectory() ? jsFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
	);
}

/** Values the compiled nodes take from n8n-workflow at run time (`n8n_workflow_1.X` in tsc's CommonJS). */
function runtimeImports(packageDir: string): string[] {
	const names = new Set<string>();
	for (const f of jsFiles(join(packageDir, 'dist'))) {
		for (const m of readFileSync(f, 'utf8').matchAll(/\bn8n_workflow_\d+\.([A-Za-z_$][\w$]*)/g)) names.add(m[1]);
	}
	return [...names].sort();
}

export async function installedAsReadmeSays(ctx: E2eContext): Promise<string> {
	const nodesDir = join(ctx.stack.n8n.dataDir, 'nodes');
	const packageDir = join(nodesDir, 'node_modules', PACKAGE_NAME);
	assert(existsSync(join(packageDir, 'package.json')), `${PACKAGE_NAME} is not in ${nodesDir}/node_modules`);
	const beside = readdirSync(join(nodesDir, 'node_modules')).filter((n) => !n.startsWith('.') && n !== PACKAGE_NAME);
	assert(beside.length === 0, `the README's install put ${beside.join(', ')} beside the package (n8n provides n8n-workflow)`);
	const ledger = JSON.parse(readFileSync(join(nodesDir, 'package.json'), 'utf8'));
	assert(ledger.dependencies?.[PACKAGE_NAME], `${nodesDir}/package.json does not list ${PACKAGE_NAME}: ${JSON.stringify(ledger)}`);

	const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
	const workflow = n8nWorkflowOfN8n();
	let apiCheck: string;
	if (typeof workflow.checkNodesApiVersion === 'function') {
		// The rule n8n applies when it loads packages from nodes/ and when its installer installs one.
		const check = (workflow.checkNodesApiVersion as (p: unknown) => any)(pkg);
		assert(check?.compatible === true, `checkNodesApiVersion: ${JSON.stringify(check)} for n8nNodesApiVersion ${JSON.stringify(pkg.n8n?.n8nNodesApiVersion)}`);
		apiCheck = `checkNodesApiVersion accepts n8nNodesApiVersion ${pkg.n8n?.n8nNodesApiVersion} (n8n supports ${String(workflow.N8N_NODES_API_VERSION)})`;
	} else {
		apiCheck = `n8n ${N8N_VERSION} has no checkNodesApiVersion (n8nNodesApiVersion is not read)`;
	}

	const used = runtimeImports(packageDir);
	assert(used.length >= 3, `found only ${used.join(', ') || 'no'} n8n-workflow imports in the built nodes`);
	const missing = used.filter((name) => workflow[name] === undefined);
	assert(missing.length === 0, `n8n ${N8N_VERSION}'s n8n-workflow lacks ${missing.join(', ')}, which the nodes use`);

	const nodes: any[] = await ctx.stack.rest.get('/types/nodes.json');
	assert(nodes.some((n) => n.name === ACTION_TYPE), `${ACTION_TYPE} is not in /types/nodes.json: n8n did not load the package`);
	return `only ${PACKAGE_NAME} in nodes/node_modules; ${apiCheck}; n8n-workflow has ${used.join(', ')}`;
}

export async function restartKeepsData(ctx: E2eContext): Promise<string> {
	const { n8n, rest } = ctx.stack;
	await n8n.stop();
	const t0 = Date.now();
	await n8n.start();
	const restartS = ((Date.now() - t0) / 1000).toFixed(1);
	await rest.setupOwnerAndLogin();

	const nodes: any[] = await rest.get('/types/nodes.json');
	for (const type of [ACTION_TYPE, TRIGGER_TYPE]) {
		assert(nodes.some((n) => n.name === type), `${type} is not in /types/nodes.json after the restart`);
	}
	// The credential survived (same encryption key, same database): a workflow that uses it runs.
	const since = ctx.mock.requests.length;
	const run = await executeWorkflow(ctx.stack, ctx.db, 'cmExample01Url00');
	assert(run.status === 'success', `example 01 after the restart: execution #${run.executionId} status ${run.status}`);
	const calls = ctx.mock.requests.slice(since);
	assert(
		calls.length > 0 && calls.every((r) => r.headers.authorization === `Bearer ${ctx.mock.token}`),
		`after the restart the service got ${calls.length} calls, not all with credential ${CREDENTIAL_ID}'s token`,
	);
	// The published trigger is registered again: a callback with a wrong token is refused (401), not unknown (404).
	const res = await fetch(callbackUrl(ctx, 'wrong-token'), {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ id: 'after-restart', isSafe: true }),
	});
	assert(res.status === 401, `trigger webhook after the restart answered ${res.status}, expected 401`);
	return `ready again in ${restartS}s; both node types listed; example 01 #${run.executionId} ran with the stored credential; trigger webhook live`;
}
