/**
 * In-process n8n engine harness: runs workflows through n8n-core's real `WorkflowExecute`
 * with our node classes loaded from source.
 *
 * What is real here (and why it matters for our tests):
 * - the execution engine (`WorkflowExecute`): pairing, `onError` (continueRegularOutput /
 *   continueErrorOutput), dynamic outputs, expression resolution of parameters;
 * - n8n-core's request helpers (`httpRequestWithAuthentication`), with a credentials helper that
 *   applies the credential type's `authenticate` block like n8n's CredentialsHelper does
 *   (expressions such as `={{$credentials.accessToken}}` are resolved by the workflow's
 *   expression engine), so requests carry the real Authorization header;
 * - binary data: n8n-core's BinaryDataService in filesystem mode in a temp dir, so the `data` field
 *   of a stored binary is the mode marker, not the bytes; nodes must call `getBinaryDataBuffer`;
 * - `additionalData.webhookBaseUrl`, so `getNodeWebhookUrl` resolves a trigger's production URL.
 *
 * Usage:
 *   const run = await runWorkflow({
 *     nodes: [moderationNode({ resource: 'image', operation: 'moderate', imageUrl })],
 *     credentials: { contentModerationApi: { baseUrl: mock.url, accessToken: mock.token } },
 *     items: [{ json: { a: 1 } }],
 *   });
 *   run.outputOf('Content Moderation');
 *
 * The harness adds a start node named `Start` (START_NODE_NAME) that emits `items`; when no
 * `connections` are given, Start and the listed nodes are chained in order (output 0 → input 0).
 */
export { binaryItem, connect, moderateUrlParameters, moderationNode, triggerNode, type NodeOptions } from './workflow';
export { loadNodeType, START_NODE_NAME } from './node-types';
export { dumpRun, prepareWorkflow, runWorkflow, type WorkflowRun } from './run';
export { startWaitingHarness, type EarlyCalls, type WaitingExecution, type WaitingHarness } from './waiting';
