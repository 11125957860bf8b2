/**
 * The credential's Test button as n8n runs it (cli's CredentialsTester.testCredentials, the same in 2.41.1 and
 * 1.123.81): the test request as a declarative node's routing request, run by n8n-core's RoutingNode in the
 * engine with the credential's `authenticate`; then n8n's rules in n8n's order. A status n8n throws on meets
 * the responseCode rules, and fails with its status text when none matches; an answer it does not throw on
 * meets the responseSuccessBody rules (lodash's get on the body, compared with ===); else "Connection successful!".
 */
import type { ICredentialDataDecryptedObject, ICredentialTestRequest, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ContentModerationApi } from '../../packages/n8n-nodes-content-moderation/credentials/ContentModerationApi.credentials';
import { runWorkflow } from './engine';

const CREDENTIAL = new ContentModerationApi();
const PROBE = 'harness.credentialProbe';

function probeNodeType(test: ICredentialTestRequest): INodeType {
	return {
		description: {
			displayName: 'Credential Probe',
			name: 'credentialProbe',
			group: ['transform'],
			version: 1,
			description: "The node n8n's credential tester builds",
			defaults: { name: 'Probe' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: CREDENTIAL.name, required: true }],
			properties: [{ displayName: 'Temp', name: 'temp', type: 'string', default: '', routing: { request: test.request } }],
		},
	};
}

/** lodash's get for a dotted path, as n8n's tester reads it: a text's properties (constructor.name) too. */
function get(value: unknown, path: string): unknown {
	return path.split('.').reduce<unknown>((at, key) => (at === null || at === undefined ? undefined : (at as Record<string, unknown>)[key]), value);
}

export interface TestResult {
	status: 'OK' | 'Error';
	message: string;
}

export async function testCredential(data: ICredentialDataDecryptedObject, test = CREDENTIAL.test): Promise<TestResult> {
	const run = await runWorkflow({
		nodes: [{ name: 'Probe', type: PROBE, parameters: {}, credentials: { [CREDENTIAL.name]: { id: '1', name: 'c' } } }],
		nodeTypes: { [PROBE]: probeNodeType(test) },
		credentials: { [CREDENTIAL.name]: data },
	});
	const error = run.errorOf('Probe') as (Error & { httpCode?: string | null }) | undefined;
	if (error) {
		const statusCode = Number(error.httpCode);
		if (!Number.isInteger(statusCode)) return { status: 'Error', message: error.message };
		const rule = test.rules?.find((r) => r.type === 'responseCode' && r.properties.value === statusCode);
		return { status: 'Error', message: rule?.properties.message ?? `HTTP ${statusCode}` };
	}
	const body: unknown = run.outputOf('Probe')[0]?.json;
	for (const rule of test.rules ?? []) {
		if (rule.type === 'responseSuccessBody' && get(body, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
