/** The resume-URL side of the waiting harness (waiting.ts): n8n's answers to a call that may resume an execution. */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { IDataObject, INodeType, IWebhookResponseData } from 'n8n-workflow';

import { N8nRefusal, parseRequestBody, readableRequest } from './n8nBodyParsing';
import { load, resumeWith, type ExecutionRecord } from './waitingRecord';
import { webhookContext } from './webhookContext';

export function send(res: ServerResponse, status: number, body: unknown): void {
	if (res.headersSent) return;
	res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
	res.end(JSON.stringify(body));
}

/**
 * One call to `/webhook-waiting/<id>/<suffix>`, answered as n8n 2.41's WaitingWebhooks does (see waiting.ts).
 */
export async function answerResumeCall(record: ExecutionRecord, req: IncomingMessage, res: ServerResponse, suffix: string, baseUrl: string) {
	const url = new URL(req.url ?? '/', 'http://localhost');
	const query = Object.fromEntries(url.searchParams.entries()) as IDataObject;
	const recordCall = (status: number, answer: unknown, resumed = false) =>
		record.calls.push({ status, body: answer, resumed, query });
	const refuse = (status: number, answer: unknown) => {
		recordCall(status, answer);
		send(res, status, answer);
	};

	if (record.status === 'running') return refuse(409, { message: `The execution "${record.id}" is running already.` });
	if (record.status === 'finished') return refuse(409, { message: `The execution "${record.id} has finished already.` });

	const loaded = await load(record, baseUrl);
	const { data, workflow } = loaded;
	const token = data.resumeToken;
	const signature = query.signature;
	if (token && (typeof signature !== 'string' || signature !== token)) return refuse(401, { error: 'Invalid token' });

	const lastNodeExecuted = data.resultData.lastNodeExecuted ?? '';
	const stack = data.executionData?.nodeExecutionStack ?? [];
	stack[0].node.disabled = true;
	data.waitTill = undefined;
	data.resultData.runData[lastNodeExecuted]?.pop();

	const node = workflow.getNode(lastNodeExecuted);
	if (!node) return refuse(404, { message: 'Could not find node to process webhook.' });
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion) as INodeType;
	const description = nodeType.description.webhooks?.find(
		(webhook) => webhook.restartWebhook === true && webhook.httpMethod === req.method && webhook.path === suffix,
	);
	if (!description || typeof nodeType.webhook !== 'function') {
		return refuse(404, { message: `The workflow for execution "${record.id}" does not contain a waiting webhook with a matching path/method.` });
	}

	// n8n parses the body by the waiting node's typeVersion (it is the start node here).
	const request = Object.assign(readableRequest(req), { query, params: {} });
	try {
		await parseRequestBody(request, node.typeVersion);
	} catch (error) {
		const refusal = error as N8nRefusal;
		return refuse(refusal.status ?? 500, { message: refusal.message });
	}
	const context = webhookContext({
		core: loaded.core,
		workflow,
		node,
		description,
		additionalData: loaded.additionalData,
		req: request,
		res,
		mode: loaded.mode,
		runExecutionData: data,
	});

	let result: IWebhookResponseData;
	try {
		result = await nodeType.webhook.call(context);
	} catch (error) {
		record.webhookThrew = true;
		refuse(500, { code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' });
		// n8n resumes anyway, with the run data replaced by the error.
		data.resultData = { runData: {}, lastNodeExecuted: node.name, error: { message: String(error) } as never };
		stack[0].data.main = [[{ json: {} }]];
		record.status = 'running';
		await resumeWith(record, loaded);
		return;
	}

	if (result.noWebhookResponse === true) {
		recordCall(res.statusCode, undefined);
		return;
	}
	if (result.workflowData === undefined) {
		const answer = result.webhookResponse ?? { message: 'Webhook call received' };
		recordCall(200, answer);
		send(res, 200, answer);
		return;
	}
	// The claim: only a still-waiting execution can be resumed (2.x WorkflowRunner's expectedStatus).
	if (record.atomic && record.status !== 'waiting') {
		return refuse(500, { code: 0, message: `Execution ${record.id} is already resuming` });
	}
	record.status = 'running';
	const answer = result.webhookResponse ?? { message: 'Workflow was started' };
	// n8n answers an `onReceived` webhook (its default) before the resumed run, any other mode once it ended.
	const onReceived = (description.responseMode ?? 'onReceived') === 'onReceived';
	const answerNow = () => {
		recordCall(200, answer, true);
		send(res, 200, answer);
	};
	if (onReceived) answerNow();
	stack[0].data.main = result.workflowData;
	stack[0].metadata = { ...stack[0].metadata, forwardAllOutputs: true } as typeof stack[0]['metadata'];
	await resumeWith(record, loaded);
	if (!onReceived) answerNow();
}
