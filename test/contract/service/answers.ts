/** The words a contract line answers in: what the service showed, without the content's own values. */
import type { INodeParameters } from 'n8n-workflow';

import { shapeProblems } from '../shape';
import type { Shape } from '../vendor-facts';
import type { Exchange } from './observe';
import type { NodeOutcome, Target } from './target';

export type Outcome = { answer: string } | { notChecked: string };

export interface Inputs {
	text: string;
	imageUrl: string;
	/** The image at imageUrl as base64; undefined when it could not be read (then said why) */
	imageBase64?: string;
	imageBase64Problem?: string;
	/** Metadata sent with the text, the image and the queue item: unique to this run */
	meta: Record<string, string>;
}

export interface Check {
	id: string;
	/** What the package assumes, in one sentence */
	assumption: string;
	run(target: Target, inputs: Inputs, memory: Map<string, string>): Promise<Outcome>;
}

/** A well-formed id that cannot exist: what the credential's Test reads. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
export const WRONG_KEY = 'contract-wrong-secret-key-0000';

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
export const last = (outcome: NodeOutcome, method: string, path: RegExp): Exchange | undefined =>
	outcome.exchanges.filter((e) => e.method === method && path.test(new URL(e.url).pathname)).at(-1);

export function status(exchange: Exchange | undefined): string {
	if (!exchange) return 'no request was sent';
	return exchange.status === undefined ? `no answer (${exchange.error})` : `HTTP ${exchange.status}`;
}

/** Whether an answer's body was JSON (an object or a list), text or nothing. */
export function bodyKind(body: unknown): string {
	if (body === undefined || body === null || body === '') return 'no body';
	return typeof body === 'string' ? 'a text body' : 'a JSON body';
}

/** The documented shape, its problems named without values (these differ from service to service). */
export function shape(body: unknown, documented: Shape): string {
	const problems = shapeProblems(body, documented).map((problem) => problem.replace(/, got .*$/, ''));
	return problems.length === 0 ? "the vendor's documented fields" : `unlike the vendor's documents: ${problems.join('; ')}`;
}

export function keys(body: unknown): string {
	return isObject(body) ? `{${Object.keys(body).sort().join(', ')}}` : JSON.stringify(body)?.slice(0, 60) ?? 'no body';
}

export function idField(body: unknown): string {
	if (!isObject(body) || !('id' in body)) return 'id: absent';
	return typeof body.id === 'string' && body.id !== '' ? 'id: a string' : `id: ${JSON.stringify(body.id)}`;
}

export function sameMeta(value: unknown, meta: Record<string, string>): string {
	if (value === undefined) return 'absent';
	return JSON.stringify(value) === JSON.stringify(meta) ? 'the object sent' : `another value (${JSON.stringify(value)?.slice(0, 60)})`;
}

export const image = (inputs: Inputs, extra: INodeParameters): INodeParameters => ({
	resource: 'image',
	operation: 'moderate',
	inputType: 'url',
	imageUrl: inputs.imageUrl,
	...extra,
});
export const metaOption = (inputs: Inputs) => ({ meta: JSON.stringify(inputs.meta) });
