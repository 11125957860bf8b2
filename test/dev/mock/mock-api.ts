/** Shared by the mock's endpoint tests: one mock per file, requests to it, and the error shape every refusal has. */
import { call, type CallOptions } from '../../../dev/mock/client';
import { useMock } from '../../helpers/mock';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A mock for this test file (token `test-token`, the client's default) and `api(method, path)` against it. */
export function useMockApi(options: Parameters<typeof useMock>[0] = {}) {
	const mock = useMock({ token: 'test-token', ...options });
	const api = (method: string, path: string, callOptions?: CallOptions) => call(mock.service.url, method, path, callOptions);
	return { mock, api };
}

export type Case = [name: string, json: unknown, code: string, field?: string];
export function asRows(cases: Case[]) {
	return cases.map(([name, json, code, field]) => ({ name, json, code, field }));
}

export function expectError(response: { status: number; body: any }, status: number, code: string, field?: string) {
	expect(response.status).toBe(status);
	expect(response.body.error).toMatchObject({ status, code });
	expect(typeof response.body.error.message).toBe('string');
	expect(response.body.error.message.length).toBeGreaterThan(5);
	if (field === undefined) expect(response.body.error).not.toHaveProperty('field');
	else {
		expect(response.body.error.field).toBe(field);
		expect(response.body.error.message).toContain(field);
	}
}
