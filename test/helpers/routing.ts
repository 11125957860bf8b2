/**
 * Route by Verdict through n8n-core's real engine and the mock service: the mock of a test file, and
 * images and items whose verdict the mock's URL decides.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { mockImageUrl, type MockImageSpec } from '../../dev/mock/fixtures';
import { startMockService, type MockService } from '../../dev/mock/server';
import { moderateUrlParameters } from './engine';

export const NODE = 'Content Moderation';
export const SAFE = 0;
export const FLAGGED = 1;
export const REVIEW = 2;

/** The mock (processMs 50), reset before each test; `credentials()` points the node at it. */
export function useRoutingMock(): { readonly mock: MockService; credentials(): { contentModerationApi: { baseUrl: string; accessToken: string } } } {
	let mock: MockService;
	beforeAll(async () => {
		mock = await startMockService({ processMs: 50 });
	});

	afterAll(async () => {
		await mock.stop();
	});

	beforeEach(() => mock.reset());

	const credentials = () => ({ contentModerationApi: { baseUrl: mock.url, accessToken: mock.token } });
	return {
		get mock() {
			return mock;
		},
		credentials,
	};
}

/** A harmless image unless the spec says otherwise (exact numbers from the mock, see docs/service-interface.md). */
export function imageUrl(name: string, spec: MockImageSpec = {}): string {
	return mockImageUrl({ safe: true, reject: false, review: false, risk: 10, ...spec }, name);
}

export function moderate(routing: INodeParameters, extra: INodeParameters = {}): INodeParameters {
	return moderateUrlParameters({ routeByVerdict: true, ...routing, ...extra });
}

/** Input items carry a name and the URL to moderate; outputs are matched back by name. */
export function inputs(cases: Record<string, string>): INodeExecutionData[] {
	return Object.entries(cases).map(([name, url]) => ({ json: { name, url } }));
}

export function names(items: INodeExecutionData[]): string[] {
	return items.map((item) => String(item.json.name));
}
