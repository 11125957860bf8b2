/** The Queue ID field Queue > Add Item and Queue > Get Item share (queueId.ts). */
import { queueIdProperty } from '@package/nodes/ContentModeration/actions/queue/queueId';

it('is a required text field named queueId, empty by default', () => {
	expect(queueIdProperty).toMatchObject({ name: 'queueId', type: 'string', default: '', required: true });
});
