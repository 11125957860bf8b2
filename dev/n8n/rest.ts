/** Minimal client for n8n's internal REST API: owner setup, login, JSON requests with the auth cookie. */
import { waitFor } from '../wait';

export const OWNER = {
	email: 'owner@example.com',
	firstName: 'Demo',
	lastName: 'Owner',
	// n8n asks for 8+ characters with a number and an uppercase letter.
	password: 'Moderate123!',
};

export class N8nRest {
	private cookie = '';
	constructor(readonly baseUrl: string) {}

	async request(method: string, path: string, body?: unknown): Promise<{ status: number; json: any; text: string }> {
		const res = await fetch(this.baseUrl + path, {
			method,
			headers: {
				'content-type': 'application/json',
				// The auth cookie is bound to this id; a browser sends it too.
				'browser-id': 'cm-e2e',
				...(this.cookie ? { cookie: this.cookie } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(30_000),
		});
		const setCookie = res.headers.getSetCookie?.() ?? [];
		const auth = setCookie.find((c) => c.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		const text = await res.text();
		let json: any;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		return { status: res.status, json, text };
	}

	async get(path: string): Promise<any> {
		const r = await this.request('GET', path);
		if (r.status !== 200) throw new Error(`GET ${path} -> ${r.status}: ${r.text.slice(0, 300)}`);
		return r.json;
	}

	/**
	 * Publishes (activates) a saved workflow's current version, as the editor's Publish button does: its
	 * triggers go live at once. The same endpoint on n8n 1.123 and 2.41.
	 */
	async publish(workflowId: string): Promise<void> {
		const workflow = (await this.get(`/rest/workflows/${workflowId}`))?.data;
		const path = `/rest/workflows/${workflowId}/activate`;
		const r = await this.request('POST', path, { versionId: workflow?.versionId });
		if (r.status !== 200) throw new Error(`POST ${path} answered ${r.status}: ${r.text.slice(0, 500)}`);
	}

	/**
	 * Starts a saved workflow from its Manual Trigger, as the editor's Execute button does, and resolves with
	 * the execution id. n8n 1.x wants the workflow in the body; 2.x reads the trigger's name and drops the rest.
	 */
	async startManualRun(workflowId: string): Promise<number> {
		const workflow = (await this.get(`/rest/workflows/${workflowId}`))?.data;
		const trigger = (workflow?.nodes as Array<{ name: string; type: string }> | undefined)?.find((n) => /manualTrigger$/.test(n.type));
		if (!trigger) throw new Error(`workflow ${workflowId} has no Manual Trigger to start from`);
		const path = `/rest/workflows/${workflowId}/run`;
		const r = await this.request('POST', path, { workflowData: workflow, triggerToStartFrom: { name: trigger.name } });
		const id = Number(r.json?.data?.executionId);
		if (r.status !== 200 || !id) throw new Error(`POST ${path} answered ${r.status}: ${r.text.slice(0, 300)}`);
		return id;
	}

	/**
	 * A POST while n8n is still coming up. n8n 1.x answers /healthz/readiness before its REST API is up (404
	 * until the routes are mounted), and under load its database check briefly answers 503 "Database is
	 * not ready!" (seen after a restart); both are retried for up to two minutes.
	 */
	private postWhileStarting(path: string, body: unknown) {
		return waitFor(
			`n8n REST API (POST ${path} answers other than 404 or 503)`,
			async () => {
				const r = await this.request('POST', path, body);
				return r.status === 404 || r.status === 503 ? undefined : r;
			},
			120_000,
			500,
		);
	}

	/** Creates the owner account (first start only) and signs in. */
	async setupOwnerAndLogin(owner = OWNER): Promise<void> {
		const setup = await this.postWhileStarting('/rest/owner/setup', owner);
		if (setup.status !== 200 && setup.status !== 400) {
			throw new Error(`owner setup failed: ${setup.status} ${setup.text.slice(0, 300)}`);
		}
		const login = await this.postWhileStarting('/rest/login', {
			emailOrLdapLoginId: owner.email,
			password: owner.password,
		});
		if (login.status !== 200 || !this.cookie) {
			throw new Error(`login failed: ${login.status} ${login.text.slice(0, 300)}`);
		}
	}
}
