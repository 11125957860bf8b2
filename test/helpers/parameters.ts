/** Operation parameters and request records shared by the operations' tests. */
import type { IDataObject } from 'n8n-workflow';

import type { MockService } from '../../dev/mock/server';

/** Text > Moderate through a review queue (versions 1-2), polling fast; the defaults (1 s, 60 s) are measured by the bench. */
export const moderateQueuedText = (text: string, extra: IDataObject = {}) => ({
	resource: 'text',
	operation: 'moderate',
	text,
	queueId: 'chat',
	pollInterval: 0.1,
	...extra,
});

/** Image > Moderate with these parameters. */
export const moderateImage = (extra: Record<string, unknown>) => ({
	resource: 'image',
	operation: 'moderate',
	...extra,
});

/** The mock's requests as "METHOD path status" lines, ids shown as <id>. */
export function requestLines(service: MockService): string[] {
	return service.requests.map((r) => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/g, '<id>')} ${r.status}`);
}

/** The POST /image requests the mock received. */
export function imagePosts(service: MockService) {
	return service.requests.filter((r) => r.method === 'POST' && r.path === '/image');
}
