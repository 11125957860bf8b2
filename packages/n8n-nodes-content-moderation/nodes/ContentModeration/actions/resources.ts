import * as callback from './callback';
import * as image from './image';
import type { Operation } from './operation';
import * as queue from './queue';
import * as text from './text';

export const resources: Record<string, Record<string, Operation>> = {
	callback: callback.operations,
	image: image.operations,
	queue: queue.operations,
	text: text.operations,
};
