/** Workflow building helpers: node JSON as a saved workflow holds it, connections, binary items. */
import type { IConnections, IDataObject, INode, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ACTION_TYPE, CREDENTIAL_TYPE, TRIGGER_TYPE } from '../../../dev/n8n/package';
import { ownNodeVersion } from './node-types';


export type NodeSpec = Omit<INode, 'id' | 'typeVersion' | 'position'> &
	Partial<Pick<INode, 'id' | 'typeVersion' | 'position'>>;

export interface NodeOptions {
	name?: string;
	/** n8n's node setting "On Error": continueRegularOutput = the old "Continue On Fail". */
	onError?: INode['onError'];
	/** Set false to build a node without credentials (to test that failure). */
	withCredentials?: boolean;
	typeVersion?: number;
}

/** Node JSON for our action node, as a saved workflow would hold it. */
export function moderationNode(parameters: INodeParameters, options: NodeOptions = {}): NodeSpec {
	return {
		name: options.name ?? 'Content Moderation',
		type: ACTION_TYPE,
		typeVersion: options.typeVersion ?? ownNodeVersion(ACTION_TYPE),
		parameters,
		...(options.onError ? { onError: options.onError } : {}),
		...(options.withCredentials === false
			? {}
			: { credentials: { [CREDENTIAL_TYPE]: { id: '1', name: 'Content Moderation account' } } }),
	};
}

/** Image > Moderate (immediate) of each input item's `url`, plus `extra` parameters. */
export function moderateUrlParameters(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'image',
		operation: 'moderate',
		inputType: 'url',
		imageUrl: '={{ $json.url }}',
		mode: 'immediate',
		...extra,
	};
}

/** Node JSON for our trigger node, with a fixed webhookId as an imported workflow would have. */
export function triggerNode(
	parameters: INodeParameters,
	options: NodeOptions & { webhookId?: string } = {},
): NodeSpec {
	return {
		name: options.name ?? 'Content Moderation Trigger',
		type: TRIGGER_TYPE,
		typeVersion: options.typeVersion ?? ownNodeVersion(TRIGGER_TYPE),
		webhookId: options.webhookId ?? '7b0f1c9e-5a52-4a3e-9a53-2d4c1f0e6b11',
		parameters,
		...(options.withCredentials === true
			? { credentials: { [CREDENTIAL_TYPE]: { id: '1', name: 'Content Moderation account' } } }
			: {}),
	};
}

/** Connections chaining the given node names in order, output 0 → input 0. */
export function chain(...names: string[]): IConnections {
	const connections: IConnections = {};
	for (let i = 0; i + 1 < names.length; i++) {
		connect(connections, names[i], names[i + 1]);
	}
	return connections;
}

/** Adds one connection `from`[outputIndex] → `to`[0] to `connections` (returned for chaining). */
export function connect(
	connections: IConnections,
	from: string,
	to: string,
	outputIndex = 0,
): IConnections {
	connections[from] ??= { main: [] };
	const main = (connections[from].main ??= []);
	while (main.length <= outputIndex) main.push([]);
	(main[outputIndex] ??= []).push({ node: to, type: NodeConnectionTypes.Main, index: 0 });
	return connections;
}

/** A binary input item for runWorkflow: the harness stores the bytes in the filesystem store. */
export function binaryItem(
	bytes: Buffer,
	options: { property?: string; mimeType?: string; fileName?: string; json?: IDataObject } = {},
): INodeExecutionData {
	return {
		json: options.json ?? {},
		binary: {
			[options.property ?? 'data']: {
				data: bytes.toString('base64'),
				mimeType: options.mimeType ?? 'image/png',
				fileName: options.fileName ?? 'image.png',
			},
		},
	};
}
