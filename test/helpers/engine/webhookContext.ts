/** The context n8n-core gives a node's webhook(), with the IWebhookData n8n builds from the node's webhook description. */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { INode, IRunExecutionData, IWebhookData, IWebhookDescription, Workflow, WorkflowExecuteMode } from 'n8n-workflow';

export interface WebhookCall {
	core: typeof import('n8n-core');
	workflow: Workflow;
	node: INode;
	description: IWebhookDescription;
	additionalData: object;
	req: IncomingMessage;
	res: ServerResponse;
	mode: WorkflowExecuteMode;
	/** The waiting execution's data, for a resumed one; null for a trigger. */
	runExecutionData: IRunExecutionData | null;
	webhookId?: string;
}

export function webhookContext(call: WebhookCall) {
	const { core, workflow, node, description } = call;
	const webhookData = {
		httpMethod: description.httpMethod,
		node: node.name,
		path: description.path,
		webhookDescription: description,
		workflowId: workflow.id,
		...(call.webhookId === undefined ? {} : { webhookId: call.webhookId }),
		isTest: false,
	} as unknown as IWebhookData;
	const additionalData = { ...call.additionalData, httpRequest: call.req, httpResponse: call.res };
	return new core.WebhookContext(workflow, node, additionalData as never, call.mode, webhookData, [], call.runExecutionData);
}
