/**
 * Case 5: n8n's node catalogue lists both nodes and the credential, with icons that load, and n8n serves
 * each node's output schemas for the version it lists, where the editor asks for them
 * (`/schemas/<node type>/<version as x.y.z>[/<resource>/<operation>].json`).
 */
import { ACTION_TYPE, CREDENTIAL_TYPE, TRIGGER_TYPE } from '../../../dev/n8n/package';
import { resources } from '../../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/actions/resources';
import { assert, E2eContext } from '../context';

async function iconOk(ctx: E2eContext, iconUrl: string | undefined, what: string): Promise<string> {
	assert(typeof iconUrl === 'string' && iconUrl.length > 0, `${what} has no iconUrl`);
	const res = await fetch(`${ctx.stack.n8n.url}/${iconUrl.replace(/^\//, '')}`);
	const body = await res.text();
	assert(res.status === 200, `${what} icon ${iconUrl} answered ${res.status}`);
	assert(/<svg[\s>]/.test(body), `${what} icon ${iconUrl} is not an SVG`);
	return iconUrl;
}

/** iconUrl is a string, or {light, dark} for themed icons: check every variant. */
async function iconsOk(ctx: E2eContext, iconUrl: unknown, what: string): Promise<number> {
	const urls = typeof iconUrl === 'object' && iconUrl ? Object.values(iconUrl as Record<string, string>) : [iconUrl as string];
	for (const u of urls) await iconOk(ctx, u, what);
	return urls.length;
}

/** What the editor asks n8n for to preview a node's output before it runs (its `getSchemaPreview`). */
async function schemasOk(ctx: E2eContext, type: string, version: unknown): Promise<number> {
	assert(typeof version === 'number', `${type} lists versions ${JSON.stringify(version)}, expected one`);
	const padded = String(version).split('.').concat(['0', '0']).slice(0, 3).join('.');
	const paths = type === TRIGGER_TYPE ? [''] : Object.entries(resources).flatMap(([resource, ops]) => Object.keys(ops).map((op) => `/${resource}/${op}`));
	for (const path of paths) {
		const url = `${ctx.stack.n8n.url}/schemas/${type}/${padded}${path}.json`;
		const res = await fetch(url);
		const text = await res.text();
		assert(res.status === 200, `${url} answered ${res.status}`);
		const schema = JSON.parse(text) as { type?: string; properties?: object };
		assert(schema.type === 'object' && typeof schema.properties === 'object', `${url} is not an object schema`);
	}
	return paths.length;
}

export async function catalogue(ctx: E2eContext): Promise<string> {
	const nodes: any[] = await ctx.stack.rest.get('/types/nodes.json');
	const credentials: any[] = await ctx.stack.rest.get('/types/credentials.json');
	const parts: string[] = [];
	for (const type of [ACTION_TYPE, TRIGGER_TYPE]) {
		const versions = nodes.filter((n) => n.name === type);
		assert(versions.length > 0, `${type} is not in /types/nodes.json (${nodes.length} node types listed)`);
		const node = versions[versions.length - 1];
		const creds = (node.credentials ?? []).map((c: any) => c.name);
		assert(creds.includes(CREDENTIAL_TYPE) || type === TRIGGER_TYPE, `${type} does not use ${CREDENTIAL_TYPE}`);
		const n = await iconsOk(ctx, node.iconUrl, type);
		const schemas = await schemasOk(ctx, type, node.version);
		parts.push(`${node.displayName} v${node.version} (${n} icon${n > 1 ? 's' : ''}, ${schemas} output schema${schemas > 1 ? 's' : ''})`);
	}
	const cred = credentials.find((c) => c.name === CREDENTIAL_TYPE);
	assert(cred, `${CREDENTIAL_TYPE} is not in /types/credentials.json`);
	const n = await iconsOk(ctx, cred.iconUrl, CREDENTIAL_TYPE);
	parts.push(`${cred.displayName} (${n} icon${n > 1 ? 's' : ''})`);
	return parts.join(', ');
}
