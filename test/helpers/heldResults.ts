/** Deferred moderations at the mock whose results a test holds back and then releases. */
import type { IDataObject } from 'n8n-workflow';

import { call } from '../../dev/mock/client';
import { mockImageUrl } from '../../dev/mock/fixtures';
import type { MockService } from '../../dev/mock/server';

/** A deferred image submission whose result stays `processing` until `release()`; its id. */
export async function heldSubmission(mock: MockService, name: string): Promise<{ id: string; release: () => void }> {
	const image = mockImageUrl({}, `${name}-${Date.now()}`);
	const release = mock.holdResultsOf((subject) => subject === image);
	const submitted = await call(mock.url, 'POST', '/image', { token: mock.token, json: { image, options: { defer: true } } });
	return { id: submitted.body.id as string, release };
}

/** The result of `id` once the mock has it, with its id (GET /image/{id} gives none). */
export async function finishedResult(mock: MockService, id: string): Promise<IDataObject> {
	for (let tries = 0; tries < 500; tries++) {
		const { body } = await call(mock.url, 'GET', `/image/${id}`, { token: mock.token });
		if (typeof body.isSafe === 'boolean') return { ...body, id };
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	throw new Error(`moderation ${id} never finished`);
}
