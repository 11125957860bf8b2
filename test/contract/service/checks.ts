/**
 * The contract's lines: each assumption the package makes about the service (docs/service-interface.md,
 * "the choices"), checked by running the package's own operations. A line's answer is what the service
 * showed, in words that do not depend on the content (ids, scores): the same assumption gives the same words.
 */
import { IMAGE_RESULT, TEXT_RESULT } from '../vendor-facts';
import { bodyKind, idField, image, isObject, keys, last, metaOption, sameMeta, shape, status, UNKNOWN_ID, WRONG_KEY, type Check } from './answers';
import { CALLBACK_CHECKS } from './callbackChecks';
import type { Exchange } from './observe';
import { QUEUE_CHECKS } from './queueChecks';
import { operate } from './target';
import { testCredential } from '../../helpers/credentialTester';

export const CHECKS: Check[] = [
	{
		id: 'key.refused',
		assumption: 'A wrong Secret Key is refused with 401 (the SDK: "Unauthorized: Invalid API Key"); the node names the credential',
		async run(target) {
			const outcome = await operate(target, { resource: 'image', operation: 'get', imageId: UNKNOWN_ID }, { secretKey: WRONG_KEY });
			return { answer: status(last(outcome, 'GET', /^\/image\//)) };
		},
	},
	{
		id: 'id.unknown',
		assumption: "A well-formed id that does not exist is answered 404 with a JSON body (the credential Test's probe, Image > Get)",
		async run(target) {
			const outcome = await operate(target, { resource: 'image', operation: 'get', imageId: UNKNOWN_ID });
			const exchange = last(outcome, 'GET', /^\/image\//);
			return { answer: `${status(exchange)}; ${bodyKind(exchange?.body)}` };
		},
	},
	{
		id: 'credential.test',
		assumption:
			"The credential's Test passes with the right key, and fails under a path the API does not serve (answered as text, not JSON): how it tells a wrong Base URL",
		async run(target) {
			const data = { baseUrl: target.baseUrl, accessToken: target.secretKey, callbackSecret: target.callbackSecret };
			const right = await testCredential(data);
			const wrongPath = await testCredential({ ...data, baseUrl: `${target.baseUrl}/contract-no-such-prefix` });
			return { answer: `right key: ${right.status}; a path it does not serve: ${wrongPath.status} (${wrongPath.message.split(':')[0]})` };
		},
	},
	{
		id: 'text.immediate',
		assumption: 'Text > Moderate (Immediate) is answered 200 with the text result, its id included',
		async run(target, inputs) {
			const outcome = await operate(target, { resource: 'text', operation: 'moderate', text: inputs.text, mode: 'immediate' });
			const exchange = last(outcome, 'POST', /^\/text$/);
			return { answer: `${status(exchange)}; ${shape(exchange?.body, TEXT_RESULT)}` };
		},
	},
	{
		id: 'image.url',
		assumption: 'Image > Moderate (Immediate, an image URL) is answered 200 with the image result, which has no id',
		async run(target, inputs) {
			const outcome = await operate(target, image(inputs, { mode: 'immediate' }));
			const exchange = last(outcome, 'POST', /^\/image$/);
			return { answer: `${status(exchange)}; ${idField(exchange?.body)}; ${shape(exchange?.body, IMAGE_RESULT)}` };
		},
	},
	{
		id: 'image.base64',
		assumption: 'Image > Moderate (Immediate, the same image as base64) is answered 200 with the image result, which has no id',
		async run(target, inputs) {
			if (inputs.imageBase64 === undefined) return { notChecked: inputs.imageBase64Problem ?? 'no base64 image' };
			const outcome = await operate(target, { ...image(inputs, { mode: 'immediate' }), inputType: 'base64', imageBase64: inputs.imageBase64 });
			const exchange = last(outcome, 'POST', /^\/image$/);
			return { answer: `${status(exchange)}; ${idField(exchange?.body)}; ${shape(exchange?.body, IMAGE_RESULT)}` };
		},
	},
	{
		id: 'image.deferred',
		assumption: 'A deferred submission (Image > Moderate, Deferred) is answered 200 with only {id}',
		async run(target, inputs, memory) {
			const submitted = await operate(target, image(inputs, { mode: 'deferred' }));
			const exchange = last(submitted, 'POST', /^\/image$/);
			const id = isObject(exchange?.body) && typeof exchange.body.id === 'string' ? exchange.body.id : undefined;
			if (id) memory.set('deferredImageId', id);
			// Read at once: what the service answers while it is still working (the next line).
			if (id) {
				const read = await operate(target, { resource: 'image', operation: 'get', imageId: id });
				memory.set('workingRead', describeWorkingRead(last(read, 'GET', /^\/image\//)));
			}
			return { answer: `${status(exchange)}; body ${keys(exchange?.body)}` };
		},
	},
	{
		id: 'image.working',
		assumption: 'A read while the service still works is answered 200 without a boolean isSafe (the node then reads again)',
		async run(_target, _inputs, memory) {
			const read = memory.get('workingRead');
			if (read === undefined) return { notChecked: 'the deferred submission gave no id to read' };
			if (read.startsWith('finished')) return { notChecked: `the result was ${read} at the first read` };
			return { answer: read };
		},
	},
	{
		id: 'image.finished',
		assumption: 'A finished read (Deferred and Wait) is answered 200 with the image result, which has no id (the node adds the id it asked for)',
		async run(target, inputs) {
			const outcome = await operate(target, image(inputs, { mode: 'deferredWait', pollInterval: 1, waitTimeout: target.waitMs / 1000 }));
			const reads = outcome.exchanges.filter((e) => e.method === 'GET');
			const done = reads.find((e) => isObject(e.body) && typeof e.body.isSafe === 'boolean');
			if (!done) return { notChecked: `no finished result within ${target.waitMs / 1000} s (${reads.length} reads; ${outcome.error?.message ?? ''})` };
			return { answer: `${status(done)}; ${idField(done.body)}; ${shape(done.body, IMAGE_RESULT)}` };
		},
	},
	{
		id: 'metadata.keys',
		assumption: 'Metadata sent under both meta and metadata (as the node sends it) is accepted, and comes back as meta, the object sent',
		async run(target, inputs) {
			const outcome = await operate(target, { resource: 'text', operation: 'moderate', text: inputs.text, mode: 'immediate', options: metaOption(inputs) });
			const exchange = last(outcome, 'POST', /^\/text$/);
			const sent = isObject(exchange?.sent) && isObject(exchange.sent.options) ? Object.keys(exchange.sent.options).sort().join(' and ') : 'nothing';
			const body = isObject(exchange?.body) ? exchange.body : {};
			return { answer: `sent ${sent}: ${status(exchange)}; meta: ${sameMeta(body.meta, inputs.meta)}; metadata: ${sameMeta(body.metadata, inputs.meta)}` };
		},
	},
	...QUEUE_CHECKS,
	...CALLBACK_CHECKS,
];

function describeWorkingRead(exchange: Exchange | undefined): string {
	if (!exchange) return 'not read';
	const body = exchange.body;
	if (isObject(body) && typeof body.isSafe === 'boolean') return `finished (${status(exchange)})`;
	const state = isObject(body) && 'status' in body ? `; status: ${JSON.stringify(body.status)}` : '';
	return `${status(exchange)}; isSafe: ${isObject(body) && 'isSafe' in body ? JSON.stringify(body.isSafe) : 'absent'}; body ${keys(body)}${state}`;
}

