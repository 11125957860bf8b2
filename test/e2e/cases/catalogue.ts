/** Case 5: n8n's node catalogue lists both nodes and the credential, with icons that load. */
import { ACTION_TYPE, CREDENTIAL_TYPE, TRIGGER_TYPE } from '../../../dev/n8n/package';
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
		parts.push(`${node.displayName} (${n} icon${n > 1 ? 's' : ''})`);
	}
	const cred = credentials.find((c) => c.name === CREDENTIAL_TYPE);
	assert(cred, `${CREDENTIAL_TYPE} is not in /types/credentials.json`);
	const n = await iconsOk(ctx, cred.iconUrl, CREDENTIAL_TYPE);
	parts.push(`${cred.displayName} (${n} icon${n > 1 ? 's' : ''})`);
	return parts.join(', ');
}
