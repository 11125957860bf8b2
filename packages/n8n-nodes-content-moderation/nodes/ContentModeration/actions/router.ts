import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { readRequestOptions } from '../descriptions/requestOptions';
import { asNodeError, errorItem } from '../helpers/errorItems';
import { mapConcurrent } from '../helpers/pool';
import { createApiClient } from '../transport/client';
import { addNote } from '../transport/errors';
import { redactError, redactValue } from '../redaction/redact';
import { DEFAULT_RETRY_SETTINGS } from '../retry/policy';
import { isVerdictRoutingOn, readRules, routeByVerdict } from '../verdict/outputs';
import { deliveries } from '../inbound/deliveries';
import { RunClaims } from '../inbound/runClaims';
import { addHints, refusalsHint, thresholdsHint } from './hints';
import { NO_ITEM, type NodeRun } from './operation';
import { resources } from './resources';

/** Runs one operation over all input items; the run's claims on completions are committed only when it succeeds. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const claims = new RunClaims(deliveries, this.getExecutionCancelSignal());
	try {
		const outputs = await runItems.call(this, claims);
		claims.commit();
		return outputs;
	} finally {
		// A run that failed passed nothing on (committed claims ignore this).
		claims.release();
	}
}

async function runItems(this: IExecuteFunctions, claims: RunClaims): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = resources[resource]?.[operationName];
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of resource "${resource}" is not supported`,
		);
	}

	const { concurrency, maxRetries, maxImageBytes } = readRequestOptions(this);
	// When one item fails the run, the others leave the shared limiter and send nothing, as on cancel.
	const runFailed = new AbortController();
	const cancel = this.getExecutionCancelSignal();
	let runFailure: unknown;
	const client = createApiClient(this, {
		retry: { ...DEFAULT_RETRY_SETTINGS, maxRetries },
		signal: cancel ? AbortSignal.any([cancel, runFailed.signal]) : runFailed.signal,
		limiter: { adaptive: concurrency.adaptive, cap: concurrency.limit },
	});
	const nodeRun: NodeRun = { client, maxImageBytes, claims, hints: [] };
	const routing = isVerdictRoutingOn.call(this, operation.verdict);
	const indexes = this.getInputData().map((_, itemIndex) => itemIndex);
	const { claimKey } = operation;
	if (claimKey !== undefined) {
		// Before any item runs, in one order for every run: two runs never wait on each other (runClaims.ts).
		const keys = await Promise.all(
			indexes.map(async (itemIndex) => await claimKey.call(this, itemIndex, nodeRun).catch(() => undefined)),
		);
		await claims.takeAll(keys);
	}

	const processItem = async (itemIndex: number): Promise<INodeExecutionData[]> => {
		try {
			const refusal = routing ? operation.verdict?.refusal?.call(this, itemIndex) : undefined;
			if (refusal) throw refusal;
			// A threshold that is not a number fails the item before anything is sent.
			if (routing) nodeRun.hints.push(thresholdsHint(readRules.call(this, itemIndex, false)));
			const json = await operation.execute.call(this, itemIndex, nodeRun);
			claims.itemDone(itemIndex, json !== NO_ITEM);
			if (json === NO_ITEM) return [];
			// A service that echoes a request (its callback URL, say) must not put a secret in an output.
			return [{ json: redactValue(json, client.secrets), pairedItem: { item: itemIndex } }];
		} catch (error) {
			claims.itemDone(itemIndex, false);
			// An item stopped because another failed reports that failure, not its own cancel.
			if (runFailed.signal.aborted) throw runFailure;
			const failure = redactError(asNodeError(this, error, itemIndex), client.secrets);
			if (!this.continueOnFail()) {
				// A failed run keeps no hints (n8n-core drops the context with them): the refusals go in its error.
				runFailure = addNote(failure, refusalsHint(client.load()));
				runFailed.abort();
				throw runFailure;
			}
			return [errorItem(failure, itemIndex)];
		}
	};

	// Up to the cap items run at once, results in input order; the client's limiter decides what is in flight.
	const results = (await mapConcurrent(indexes, concurrency.limit, processItem)).flat();
	const hints = addHints(this, [...nodeRun.hints, refusalsHint(client.load())]);
	const finished = await operation.finishRun?.call(this, results, routing, hints);
	if (finished) return finished;
	if (routing && operation.verdict) return routeByVerdict.call(this, operation.verdict, results);
	return [results];
}
