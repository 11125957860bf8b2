/** Operation parameters and request records shared by the operations' tests. */
import type { IDataObject } from 'n8n-workflow';

import type { MockService } from '../../dev/mock/server';

/** Image > Moderate with these parameters. */
export const moderateImage = (extra: Record<string, unknown>) => ({
	resource: 'image',
	operation: 'moderate',
	...extra,
});

/** The POST /image requests the mock received. */
export function imagePosts(service: MockService) {
	return service.requests.filter((r) => r.method === 'POST' && r.path === '/image');
}
