/**
 * Case: n8n's AI Agent calls the Content Moderation node as a tool. The "model" is a small
 * OpenAI-compatible stub on 127.0.0.1 (the OpenAI credential's Base URL points at it) whose scripted
 * replies first ask for a moderation with arguments it chose, then answer with the verdict it was given
 * back. Run once through the Chat Completions API and once through the Responses API.
 */
import { N8N_MAJOR } from '../../../dev/n8n/install';
import { ACTION_TYPE } from '../../../dev/n8n/package';
import { toolDescription as MODERATE_TOOL_DESCRIPTION } from '../../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/actions/image/moderate.operation';
import { CREDENTIAL_ID, CREDENTIAL_NAME, importIntoN8n } from '../../../dev/n8n/stack';
import { executeWorkflow } from '../../../dev/n8n/summary';
import { ownNodeVersion } from '../../helpers/engine/node-types';
import { startScriptedServer, type ScriptedRequest, type ScriptedReply } from '../../helpers/scripted-server';
import { assert, E2eContext } from '../context';
import { checkTextRun, TEXT_AGENT, TEXT_ARGS, TEXT_TOOL_NAME, textVerdictAnswer, type AgentWorkflowSpec } from './aiAgentText';

const TOOL_NODE = 'Content Moderation';
/** What n8n names the tool it derives from the node: the node name, other characters as `_`. */
const TOOL_NAME = 'Content_Moderation';
const OPENAI_CREDENTIAL = { id: 'cmOpenAiStub0001', name: 'OpenAI-compatible stub' };
const STUB_KEY = 'sk-stub-not-a-secret';
const MODEL_ID = 'stub-moderation-model';

/** The arguments the stub "model" chooses; mock_* parameters make the mock's verdict exact. */
const CHOSEN = {
	imageUrl: 'https://images.example.com/uploads/agent-7.jpg?mock_risk=87&mock_violence_gore=91',
	actorId: 'agent-user-42',
};
const EXPECTED_RISK = 87;

type Api = 'chat' | 'responses';
const WORKFLOWS: Record<Api, string> = { chat: 'cmE2eAgentChat01', responses: 'cmE2eAgentResp01' };
const ENDPOINT: Record<Api, string> = { chat: '/v1/chat/completions', responses: '/v1/responses' };

function agentWorkflowWith(spec: AgentWorkflowSpec) {
	return {
		id: spec.id,
		name: spec.name,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'c0000000-0001-4000-8000-000000000000',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'c0000000-0002-4000-8000-000000000000',
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				// 3.1 is the current version in 2.x; 1.123 has 3.
				typeVersion: N8N_MAJOR >= 2 ? 3.1 : 3,
				position: [220, 0],
				parameters: { promptType: 'define', text: spec.prompt, options: {} },
			},
			{
				id: 'c0000000-0003-4000-8000-000000000000',
				name: 'OpenAI Chat Model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: 1.3,
				position: [120, 220],
				parameters: {
					model: { __rl: true, mode: 'id', value: MODEL_ID },
					responsesApiEnabled: spec.responsesApi,
					options: {},
				},
				credentials: { openAiApi: OPENAI_CREDENTIAL },
			},
			{
				id: 'c0000000-0004-4000-8000-000000000000',
				name: spec.toolNode,
				type: `${ACTION_TYPE}Tool`,
				typeVersion: ownNodeVersion(ACTION_TYPE),
				position: [340, 220],
				parameters: spec.toolParameters,
				credentials: { contentModerationApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
			},
		],
		connections: {
			Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
			[spec.toolNode]: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
	};
}

function agentWorkflow(api: Api) {
	return agentWorkflowWith({
		id: WORKFLOWS[api],
		name: `E2E: AI Agent moderates an image (${api === 'chat' ? 'Chat Completions' : 'Responses'} API)`,
		prompt: 'A user posted an image. Check whether it can be published and tell me the verdict.',
		responsesApi: api === 'responses',
		toolNode: TOOL_NODE,
		toolParameters: {
			resource: 'image',
			operation: 'moderate',
			inputType: 'url',
			imageUrl: "={{ $fromAI('imageUrl', 'The http or https URL of the image to moderate', 'string') }}",
			mode: 'immediate',
			options: { actorId: "={{ $fromAI('actorId', 'The ID of the user who posted the image', 'string') }}" },
		},
	});
}

/** The moderation result inside what the tool returned to the model (a JSON text of the node's items). */
function resultFromToolOutput(text: string): any {
	let v: any = JSON.parse(text);
	while (Array.isArray(v)) v = v[0];
	return v?.json ?? v;
}

function verdictAnswer(result: any): string {
	const cats = (result?.nsfwCategories ?? []).map((c: any) => `${c.category} ${c.severity}`).join(', ');
	return `Verdict: ${result?.isSafe ? 'SAFE' : 'FLAGGED'}, overall risk ${result?.riskScores?.overall}${cats ? ` (${cats})` : ''}.`;
}

const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };

/** Scripted OpenAI-compatible replies: a tool call first, then an answer built from the tool's output. */
function openAiStubReply(req: ScriptedRequest): ScriptedReply {
	const body = (req.body ?? {}) as any;
	if (req.method === 'GET' && req.path.endsWith('/models')) {
		return { status: 200, body: { object: 'list', data: [{ id: MODEL_ID, object: 'model', created: 0, owned_by: 'stub' }] } };
	}
	if (body.stream) return { status: 400, body: { error: { message: 'the stub answers non-streaming requests only' } } };
	const args = JSON.stringify(CHOSEN);
	if (req.path.endsWith('/chat/completions')) {
		const toolMsg = (body.messages ?? []).find((m: any) => m.role === 'tool');
		// Offered the text guardrail tool: moderate the user's message with it, answer from its verdict.
		const text = (body.tools ?? []).some((t: any) => t?.function?.name === TEXT_TOOL_NAME);
		const [name, callArgs, answer] = text ? [TEXT_TOOL_NAME, JSON.stringify(TEXT_ARGS), textVerdictAnswer] : [TOOL_NAME, args, verdictAnswer];
		const message = toolMsg
			? { role: 'assistant', content: answer(resultFromToolOutput(String(toolMsg.content))) }
			: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name, arguments: callArgs } }] };
		return {
			status: 200,
			body: {
				id: 'chatcmpl-stub',
				object: 'chat.completion',
				created: Math.floor(Date.now() / 1000),
				model: MODEL_ID,
				choices: [{ index: 0, message, finish_reason: toolMsg ? 'stop' : 'tool_calls', logprobs: null }],
				usage,
			},
		};
	}
	if (req.path.endsWith('/responses')) {
		const input: any[] = Array.isArray(body.input) ? body.input : [];
		const out = input.find((i) => i?.type === 'function_call_output');
		const output = out
			? [
					{
						type: 'message',
						id: 'msg_1',
						role: 'assistant',
						status: 'completed',
						content: [{ type: 'output_text', text: verdictAnswer(resultFromToolOutput(String(out.output))), annotations: [] }],
					},
				]
			: [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: TOOL_NAME, arguments: args, status: 'completed' }];
		return {
			status: 200,
			body: {
				id: 'resp_stub',
				object: 'response',
				created_at: Math.floor(Date.now() / 1000),
				status: 'completed',
				model: MODEL_ID,
				output,
				usage: { input_tokens: 10, output_tokens: 10, total_tokens: 20 },
			},
		};
	}
	return { status: 404, body: { error: { message: `stub: no route ${req.method} ${req.path}` } } };
}

async function runOnce(ctx: E2eContext, stub: { requests: ScriptedRequest[] }, api: Api): Promise<string> {
	const since = ctx.mock.requests.length;
	const stubSince = stub.requests.length;
	const run = await executeWorkflow(ctx.stack, ctx.db, WORKFLOWS[api]);
	const modelCalls = stub.requests.slice(stubSince).filter((r) => r.method === 'POST');
	assert(run.status === 'success', `${api}: execution #${run.executionId} status ${run.status} (${modelCalls.length} model calls)`);
	assert(
		modelCalls.length === 2 && modelCalls.every((r) => r.path === ENDPOINT[api]),
		`${api}: the model stub got ${modelCalls.map((r) => r.path).join(', ') || 'nothing'}, expected 2 x ${ENDPOINT[api]}`,
	);

	assert(
		modelCalls.every((r) => r.headers.authorization === `Bearer ${STUB_KEY}`),
		`${api}: the model stub was called without the OpenAI credential's key`,
	);

	// What n8n offered the model: one tool, named after the node, its parameters from the $fromAI calls.
	const first = modelCalls[0].body as any;
	const tools: any[] = first.tools ?? [];
	const tool = tools.map((t) => (api === 'chat' ? t.function : t)).find((t) => t?.name === TOOL_NAME);
	assert(tool, `${api}: no tool ${TOOL_NAME} offered to the model (got ${JSON.stringify(tools).slice(0, 300)})`);
	// All the model learns about what the tool does and returns: the operation's tool description (the
	// node's short action, "Moderate an image", only names the node).
	assert(tool.description === MODERATE_TOOL_DESCRIPTION, `${api}: tool description ${JSON.stringify(tool.description)}`);
	const props = Object.keys(tool.parameters?.properties ?? {}).sort();
	assert(props.join() === 'actorId,imageUrl', `${api}: tool parameters ${props.join()} (expected actorId,imageUrl)`);

	// The service received exactly the model's arguments, once, with the credential's token.
	const posts = ctx.mock.requests.slice(since).filter((r) => r.method === 'POST' && r.path === '/image');
	assert(posts.length === 1, `${api}: the service received ${posts.length} POST /image (expected 1)`);
	const sent = posts[0].body as any;
	assert(sent?.image === CHOSEN.imageUrl, `${api}: service got image ${JSON.stringify(sent?.image)}, the model chose ${CHOSEN.imageUrl}`);
	assert(sent?.options?.actorId === CHOSEN.actorId, `${api}: service got options ${JSON.stringify(sent?.options)}, the model chose actorId ${CHOSEN.actorId}`);
	assert(posts[0].headers.authorization === `Bearer ${ctx.mock.token}`, `${api}: POST /image without the credential's token`);

	// n8n's records: the tool node ran with the model's arguments and returned the verdict.
	const detail = await ctx.db.execution(run.executionId);
	const toolRun = detail.raw?.resultData?.runData?.[TOOL_NODE]?.[0];
	const override = toolRun?.inputOverride?.ai_tool?.[0]?.[0]?.json ?? {};
	assert(
		override.imageUrl === CHOSEN.imageUrl && override.actorId === CHOSEN.actorId,
		`${api}: tool node input in n8n's records ${JSON.stringify(override)}`,
	);
	const returned = toolRun?.data?.ai_tool?.[0]?.[0]?.json;
	const result = returned?.response !== undefined ? resultFromToolOutput(JSON.stringify(returned.response)) : returned;
	assert(
		result?.isSafe === false && result?.riskScores?.overall === EXPECTED_RISK,
		`${api}: tool node output in n8n's records ${JSON.stringify(returned).slice(0, 300)}`,
	);

	// The model got that result back, and the agent's final answer carries it.
	const second = modelCalls[1].body as any;
	assert(JSON.stringify(second).includes(`\\"overall\\":${EXPECTED_RISK}`), `${api}: the tool result did not reach the model`);
	const answer: string = detail.items['AI Agent']?.[0]?.output ?? '';
	assert(answer === verdictAnswer(result), `${api}: agent answered ${JSON.stringify(answer)}, expected ${JSON.stringify(verdictAnswer(result))}`);
	return `${api}: #${run.executionId} "${answer}"`;
}

/** The guardrail run: the agent moderates a user's message with Text > Moderate and answers from the verdict. */
async function textRun(ctx: E2eContext, stub: { requests: ScriptedRequest[] }): Promise<string> {
	const since = ctx.mock.requests.length;
	const stubSince = stub.requests.length;
	const run = await executeWorkflow(ctx.stack, ctx.db, TEXT_AGENT.id);
	const modelCalls = stub.requests.slice(stubSince).filter((r) => r.method === 'POST');
	return await checkTextRun(ctx, run, modelCalls, since, resultFromToolOutput);
}

export async function aiAgent(ctx: E2eContext): Promise<string> {
	const stub = await startScriptedServer(openAiStubReply);
	try {
		const credential = { ...OPENAI_CREDENTIAL, type: 'openAiApi', data: { apiKey: STUB_KEY, url: `${stub.url}/v1` } };
		await importIntoN8n(ctx.stack.n8n, [credential], [agentWorkflow('chat'), agentWorkflow('responses'), agentWorkflowWith(TEXT_AGENT)]);
		const parts: string[] = [];
		for (const api of ['chat', 'responses'] as const) parts.push(await runOnce(ctx, stub, api));
		parts.push(await textRun(ctx, stub));
		const tool = (stub.requests.find((r) => r.method === 'POST')?.body as any)?.tools?.[0];
		parts.push(`tool description: "${tool?.function?.description ?? tool?.description}"`);
		return parts.join('; ');
	} finally {
		await stub.stop();
	}
}
