/** Stores of a test's own for the owners of process state (helpers/processState.ts): its clock, its bounds. */
import { BoundedMap, type Bounds } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/helpers/boundedMap';
import type { Clock } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/helpers/clock';
import { PROCESS_STATE, type StoreName, type Stores } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/helpers/processState';

export function storesOn(clock: Clock, bounds: Partial<Record<StoreName, Partial<Bounds>>> = {}): Stores {
	return <V>(name: StoreName) => new BoundedMap<string, V>({ ...PROCESS_STATE[name], ...bounds[name] }, clock);
}
