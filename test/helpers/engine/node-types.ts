/** Node types of the harness: our nodes loaded from source, extra types, the Start node. */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers, UnexpectedError } from 'n8n-workflow';

import { ACTION_TYPE, TRIGGER_TYPE } from '../../../dev/n8n/package';
import { fromPackage } from './fromPackage';

export const START_NODE_TYPE = 'harness.start';
export const START_NODE_NAME = 'Start';

export type AnyNodeType = INodeType | IVersionedNodeType;

/** Our node classes, loaded lazily from source so a missing file only fails the tests using it. */
const OWN_NODE_LOADERS: Record<string, () => AnyNodeType> = {
	[ACTION_TYPE]: () => new (fromPackage<AnyNodeType>('nodes/ContentModeration/ContentModeration.node.ts', 'ContentModeration'))(),
	[TRIGGER_TYPE]: () =>
		new (fromPackage<AnyNodeType>('nodes/ContentModeration/ContentModerationTrigger.node.ts', 'ContentModerationTrigger'))(),
};

/**
 * The one version our node declares: what a saved workflow holds as its typeVersion. n8n's webhook code
 * reads the workflow's typeVersion, not the description's, so a test workflow naming another version
 * would take a path n8n takes differently (HarnessNodeTypes refuses it).
 */
export function ownNodeVersion(type: typeof ACTION_TYPE | typeof TRIGGER_TYPE): number {
	const { version } = (OWN_NODE_LOADERS[type]() as INodeType).description;
	if (typeof version !== 'number') throw new UnexpectedError(`${type} declares more than one version`);
	return version;
}

/**
 * Loads a node class from any module path (e.g. n8n-nodes-base's HTTP Request node from a cached
 * n8n install): `loadNodeType('/…/dist/nodes/HttpRequest/HttpRequest.node.js', 'HttpRequest')`.
 */
export function loadNodeType(modulePath: string, className: string): AnyNodeType {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const mod = require(modulePath) as Record<string, new () => AnyNodeType>;
	const cls = mod[className];
	if (typeof cls !== 'function') {
		throw new UnexpectedError(`${modulePath} does not export a class ${className}`);
	}
	return new cls();
}

/** Emits the items given to runWorkflow; binaries are put into the real binary data store. */
export function createStartNode(items: INodeExecutionData[]): INodeType {
	return {
		description: {
			displayName: 'Start',
			name: 'start',
			group: ['trigger'],
			version: 1,
			description: 'Emits the test items',
			defaults: { name: START_NODE_NAME },
			inputs: [],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		} as INodeTypeDescription,
		async execute(this: IExecuteFunctions) {
			const out: INodeExecutionData[] = [];
			for (const item of items) {
				const stored: INodeExecutionData = { json: item.json };
				if (item.binary) {
					stored.binary = {};
					for (const [key, bin] of Object.entries(item.binary)) {
						// A test gives the bytes as base64 in `data`; store them like a real upload would.
						const buffer = Buffer.from(bin.data, 'base64');
						stored.binary[key] = await this.helpers.prepareBinaryData(
							buffer,
							bin.fileName,
							bin.mimeType,
						);
					}
				}
				out.push(stored);
			}
			return [out];
		},
	};
}

export class HarnessNodeTypes implements INodeTypes {
	private readonly cache = new Map<string, AnyNodeType>();

	constructor(private readonly extra: Record<string, AnyNodeType>) {}

	private resolve(type: string): AnyNodeType {
		const cached = this.cache.get(type);
		if (cached) return cached;
		const loader = OWN_NODE_LOADERS[type];
		const nodeType = this.extra[type] ?? loader?.();
		if (!nodeType) throw new UnexpectedError(`Unknown node type in test workflow: ${type}`);
		this.cache.set(type, nodeType);
		return nodeType;
	}

	getByName(nodeType: string): AnyNodeType {
		return this.resolve(nodeType);
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		const resolved = this.resolve(nodeType);
		const declared = (resolved as INodeType).description?.version;
		if (nodeType in OWN_NODE_LOADERS && version !== undefined && version !== declared) {
			throw new UnexpectedError(`Test workflow names ${nodeType} at typeVersion ${version}; the node declares ${String(declared)}`);
		}
		return NodeHelpers.getVersionedNodeType(resolved, version);
	}

	getKnownTypes() {
		return {};
	}
}
