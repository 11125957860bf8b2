import type { Operation } from '../operation';
import { defineResource } from '../resource';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as moderate from './moderate.operation';

const list: Operation[] = [moderate, get, del];

export const { operations, description } = defineResource('text', list, {
	// Stays Get: workflows saved with the default operation keep what they did.
	default: 'get',
	// Versions 1-2 moderate through a review queue, and their option says so. Plain version lists: n8n 1.x's
	// nodes panel drops an Operation field whose @version uses a _cnd condition (no Text actions listed there).
	variants: [
		{ show: { '@version': [1, 2] }, options: { moderate: moderate.queuedOption } },
		{ show: { '@version': [3] } },
	],
});
