import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { RunClaims } from '../inbound/runClaims';
import type { ApiClient } from '../transport/client';
import type { VerdictFacts } from '../verdict/outputs';

/** What one node run hands each item: its API client, the Request Options items use, its claims. */
export interface NodeRun {
	client: ApiClient;
	/** Request Options > Max Image Size, in bytes. */
	maxImageBytes: number;
	/** The run's claims on completions (Callback > Receive), settled by the router when the run ends. */
	claims: RunClaims;
}

/** What execute() returns for an item that outputs nothing (a repeated delivery Receive does not pass on). */
export const NO_ITEM = Symbol('no output item');

/** One operation: its fields, its per-item work and, when its result can be routed, its verdict facts. */
export interface Operation {
	/** Its entry in the resource's Operation list: name, value, action, description. */
	option: INodePropertyOptions;
	description: INodeProperties[];
	/**
	 * What an AI model is told the operation does and returns when the node is an AI Agent tool. The
	 * operation's `action` stays short: n8n names a node added from the nodes panel after it.
	 */
	toolDescription: string;
	/** Checks the item's inputs, sends its request(s) through the run's client and returns its result (or NO_ITEM). */
	execute(this: IExecuteFunctions, itemIndex: number, run: NodeRun): Promise<IDataObject | typeof NO_ITEM>;
	/**
	 * The completion an item would pass on (Callback > Receive), taken for the whole run before any item
	 * runs; undefined when there is none (or the item fails: its `execute` then says why).
	 */
	claimKey?(this: IExecuteFunctions, itemIndex: number, run: NodeRun): Promise<string | undefined>;
	/** Present on operations whose result carries a moderation, so Route by Verdict is offered. */
	verdict?: VerdictFacts;
	/**
	 * Takes over once every item went through `execute` (their results in input order, error items
	 * included): returns the node's outputs, or undefined to let the router finish as usual. Image >
	 * Moderate's Wait for Callback pauses the execution here.
	 */
	settle?(
		this: IExecuteFunctions,
		results: INodeExecutionData[],
		routing: boolean,
	): Promise<INodeExecutionData[][] | undefined>;
}
