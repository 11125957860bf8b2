/** apiError without n8n's engine: the service's own message, whatever a text answer says. */
import { apiError } from '@package/nodes/ContentModeration/transport/errors';
import { contentModerationNode } from '@test/helpers/fixtures';

describe('apiError: a text answer is the message', () => {
	// Texts that look empty or falsy are still what the service said.
	it.each(['Service Unavailable', '0', 'undefined', 'null'])('%j, as it is', (text) => {
		const error = apiError(contentModerationNode, 503, ` ${text}\n`, { method: 'GET', path: '/image/a' }, 'https://cm.test', []);
		expect(error.message).toBe(`The Content Moderation Service answered 503: ${text}`);
	});
});
