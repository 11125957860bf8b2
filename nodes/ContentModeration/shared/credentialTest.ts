import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { parseBaseUrl, pathSegment, redact } from './transport';

/**
 * The spec has no "who am I" endpoint, so the test reads a moderation that cannot exist: every endpoint
 * requires the bearer token, so 401/403 means a wrong token and 404 means the token was accepted.
 * Change PROBE_PATH here if the service gains a cheaper endpoint.
 */
export const PROBE_ID = 'n8n-credential-test';
export const PROBE_PATH = `/image/${pathSegment(PROBE_ID)}`;
export const REJECTED_TOKEN_MESSAGE = 'The service rejected the access token';

interface ProbeResponse {
	statusCode: number;
}

export async function contentModerationApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const base = parseBaseUrl(data.baseUrl);
	if ('error' in base) return { status: 'Error', message: base.error };
	const token = typeof data.accessToken === 'string' ? data.accessToken : '';
	if (token === '') return { status: 'Error', message: 'The Access Token is empty' };

	let response: ProbeResponse;
	try {
		response = (await this.helpers.request({
			method: 'GET',
			uri: `${base.url}${PROBE_PATH}`,
			headers: { Authorization: `Bearer ${token}` },
			json: true,
			simple: false,
			resolveWithFullResponse: true,
		})) as ProbeResponse;
	} catch (error) {
		const code = (error as { code?: string }).code;
		return {
			status: 'Error',
			message: redact(`Could not reach the service at ${base.url}${code ? ` (${code})` : ''}`, token),
		};
	}

	const { statusCode } = response;
	if (statusCode === 401 || statusCode === 403) {
		return { status: 'Error', message: `${REJECTED_TOKEN_MESSAGE} (HTTP ${statusCode})` };
	}
	if ((statusCode >= 200 && statusCode < 300) || statusCode === 404) {
		return { status: 'OK', message: 'Connection successful: the service accepted the access token' };
	}
	return {
		status: 'Error',
		message: `The service answered HTTP ${statusCode} at ${base.url}; check the Base URL`,
	};
}
