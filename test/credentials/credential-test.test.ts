/**
 * The credential's Test button, run the way n8n's CredentialsTester runs a declarative `test`: a temporary
 * node whose only property routes `credential.test.request`, executed by n8n-core's real RoutingNode with
 * the credential's `authenticate` applied, then the tester's rules on status codes. Against the mock service.
 */
import type {
	ICredentialsDecrypted,
	IExecuteData,
	INode,
	INodeCredentialTestResult,
	INodeType,
	IRunExecutionData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { ContentModerationApi } from '../../credentials/ContentModerationApi.credentials';
import { startMockService, type MockService } from '../../dev/mock/server';
import { prepareWorkflow } from '../helpers/engine';

const credentialType = new ContentModerationApi();

/** Mirrors the declarative branch of n8n's CredentialsTester.testCredentials (packages/cli). */
async function testCredential(data: { baseUrl: string; accessToken: string }): Promise<INodeCredentialTestResult> {
	const testRequest = credentialType.test;
	const tempType: INodeType = {
		description: {
			displayName: 'Temp',
			name: 'credentialTestTemp',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: credentialType.name, required: true }],
			properties: [
				{ displayName: 'Temp', name: 'temp', type: 'string', default: '', routing: { request: testRequest.request } },
			],
		},
	};
	const { workflow, additionalData, core } = await prepareWorkflow({
		nodes: [{ name: 'Temp-Node', type: 'credentialTestTemp', parameters: {}, credentials: { contentModerationApi: { id: '1', name: 'cred' } } }],
		nodeTypes: { credentialTestTemp: tempType },
		credentials: { contentModerationApi: data },
	});
	const node = workflow.getNode('Temp-Node') as INode;
	const runExecutionData = { resultData: { runData: {} } } as unknown as IRunExecutionData;
	const executeData: IExecuteData = { node, data: {}, source: null };
	const ctx = new core.ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		runExecutionData,
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);
	const decrypted: ICredentialsDecrypted = { id: '1', name: 'cred', type: credentialType.name, data };
	const routingNode = new core.RoutingNode(ctx, tempType, decrypted);
	try {
		await routingNode.runNode();
	} catch (error) {
		const response = error.cause?.response;
		if (response) {
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && response.status === rule.properties.value) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			return { status: 'Error', message: response.statusText || `Received HTTP status code: ${response.status}` };
		}
		if (error.cause?.code) return { status: 'Error', message: error.cause.code };
		return { status: 'Error', message: String(error.message) };
	}
	return { status: 'OK', message: 'Connection successful!' };
}

describe('Content Moderation API credential test', () => {
	let mock: MockService;
	beforeAll(async () => {
		mock = await startMockService({ token: 'right-token-7f3a9c' });
	});
	afterAll(async () => mock.stop());
	beforeEach(() => mock.reset());

	it('passes with the right token (the probe id reads 404, so the token was accepted)', async () => {
		const result = await testCredential({ baseUrl: mock.url, accessToken: 'right-token-7f3a9c' });
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(mock.requests).toHaveLength(1);
		expect(mock.requests[0]).toMatchObject({ method: 'GET', path: '/image/n8n-credential-test', status: 404 });
		expect(mock.requests[0].headers.authorization).toBe('Bearer right-token-7f3a9c');
	});

	it('fails with a wrong token, saying so, without the token in the message', async () => {
		const result = await testCredential({ baseUrl: mock.url, accessToken: 'wrong-token-5521' });
		expect(result.status).toBe('Error');
		expect(result.message).toBe('The service rejected the access token (HTTP 401)');
		expect(result.message).not.toContain('wrong-token-5521');
		expect(result.message).not.toContain('right-token-7f3a9c');
		expect(mock.requests[0].status).toBe(401);
	});

	it('ignores a trailing slash on the base URL', async () => {
		const result = await testCredential({ baseUrl: `${mock.url}/`, accessToken: 'right-token-7f3a9c' });
		expect(result.status).toBe('OK');
		expect(mock.requests[0].path).toBe('/image/n8n-credential-test');
	});

	describe('against a server that answers with a fixed status', () => {
		let server: Server;
		let url: string;
		let status = 200;
		beforeAll(async () => {
			server = createServer((_req, res) => {
				res.writeHead(status, { 'content-type': 'application/json' }).end('{"message":"x"}');
			});
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
			url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		});
		afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

		it.each([
			[403, 'Error', 'The service rejected the access token (HTTP 403)'],
			[500, 'Error', undefined],
			[503, 'Error', undefined],
			[200, 'OK', 'Connection successful!'],
		])('status %d → %s', async (code, expected, message) => {
			status = code;
			const result = await testCredential({ baseUrl: url, accessToken: 'some-token-9' });
			expect(result.status).toBe(expected);
			if (message) expect(result.message).toBe(message);
			expect(result.message).not.toContain('some-token-9');
		});
	});
});
