import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { RunClaims } from '../inbound/runClaims';
import type { ApiClient } from '../transport/client';
import type { VerdictFacts } from '../verdict/outputs';

/** What one node run hands each item. */
export interface NodeRun {
	client: ApiClient;
	/** Request Options > Max Image Size, in bytes. */
	maxImageBytes: number;
	/** Claims on completions (Callback > Receive), committed or released by the router when the run ends. */
	claims: RunClaims;
	/** Warnings for the run's output (hints.ts); undefined entries and repeats are dropped. */
	hints: Array<string | undefined>;
}

/** What execute() returns for an item that outputs nothing (a repeated delivery Receive does not pass on). */
export const NO_ITEM = Symbol('no output item');

export interface Operation {
	option: INodePropertyOptions;
	/** Its fields; defineResource shows them for this resource and operation only. */
	description: INodeProperties[];
	/** What an AI Agent is told; the short `action` names a node added from the panel, so it cannot say this. */
	toolDescription: string;
	execute(this: IExecuteFunctions, itemIndex: number, run: NodeRun): Promise<IDataObject | typeof NO_ITEM>;
	/** The completion the item would pass on (Callback > Receive), claimed before any item runs. */
	claimKey?(this: IExecuteFunctions, itemIndex: number, run: NodeRun): Promise<string | undefined>;
	/** Present where the result carries a moderation, so Route by Verdict is offered. */
	verdict?: VerdictFacts;
	/**
	 * Turns every item's result (input order, error items included) into the node's outputs, or returns
	 * undefined for the router's own. Wait for Callback pauses the execution here. `hints`: the run's warnings.
	 */
	finishRun?(
		this: IExecuteFunctions,
		results: INodeExecutionData[],
		routing: boolean,
		hints: string[],
	): Promise<INodeExecutionData[][] | undefined>;
}
