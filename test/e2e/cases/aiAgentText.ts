/**
 * Case 11's guardrail run: the AI Agent moderates a user's message with Text > Moderate (POST /text) as a tool, then
 * answers from the verdict. The operation's own prefilled tool Description tells the model what it takes
 * and returns; the OpenAI stub of aiAgent.ts plays the model.
 */
import { PROFANE_TEXT, PROFANE_TEXT_FILTERED } from '../../../dev/mock/fixtures';
import { toolDescription as TEXT_TOOL_DESCRIPTION } from '../../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/actions/text/moderate.operation';
import { assert, E2eContext } from '../context';

/** What differs between the agent workflows: the tool node (the rest is one trigger, agent and stub model). */
export interface AgentWorkflowSpec {
	id: string;
	name: string;
	prompt: string;
	responsesApi: boolean;
	toolNode: string;
	toolParameters: Record<string, unknown>;
}

const TEXT_TOOL_NODE = 'Moderate Message';
/** n8n's tool name for the node: its name with other characters as `_`. */
export const TEXT_TOOL_NAME = 'Moderate_Message';
/** What the stub "model" sends to the tool: the user's message as written. */
export const TEXT_ARGS = { message: PROFANE_TEXT };

/** The agent's answer the stub builds from the tool's result (what a model would say). */
export function textVerdictAnswer(result: any): string {
	const cats = (result?.nsfwCategories ?? []).map((c: any) => c.category).join(', ');
	return result?.isSafe
		? `The message is fine: "${result?.filteredContent}".`
		: `I can't pass this message on (${cats || 'flagged'}). Cleaned: "${result?.filteredContent}".`;
}

/** The guardrail agent: the text tool with its default Description, the rest as the image runs. */
export const TEXT_AGENT: AgentWorkflowSpec = {
	id: 'cmE2eAgentText01',
	name: 'E2E: AI Agent moderates a user message with Text > Moderate (Chat Completions API)',
	prompt: `A user wrote: ${PROFANE_TEXT}\nCheck it before you answer.`,
	responsesApi: false,
	toolNode: TEXT_TOOL_NODE,
	toolParameters: {
		resource: 'text',
		operation: 'moderate',
		text: "={{ $fromAI('message', 'The user message to check, exactly as written', 'string') }}",
	},
};

/** Checks one run of TEXT_AGENT: what the model was offered and sent, what the service got, the answer. */
export async function checkTextRun(
	ctx: E2eContext,
	run: { executionId: number; status: string },
	modelCalls: Array<{ body: unknown }>,
	since: number,
	resultOf: (toolOutput: string) => any,
): Promise<string> {
	assert(run.status === 'success', `text: execution #${run.executionId} status ${run.status} (${modelCalls.length} model calls)`);
	assert(modelCalls.length === 2, `text: the model stub got ${modelCalls.length} calls, expected 2`);
	const tool = ((modelCalls[0].body as any).tools ?? []).map((t: any) => t.function).find((t: any) => t?.name === TEXT_TOOL_NAME);
	// No toolDescription is set on the node: the model is told the operation's default.
	assert(tool?.description === TEXT_TOOL_DESCRIPTION, `text: tool offered ${JSON.stringify(tool).slice(0, 400)}`);
	assert(Object.keys(tool.parameters?.properties ?? {}).join() === 'message', `text: tool parameters ${JSON.stringify(tool.parameters)}`);

	const posts = ctx.mock.requests.slice(since).filter((r) => r.method === 'POST');
	assert(
		posts.length === 1 && posts[0].path === '/text' && (posts[0].body as any)?.text === PROFANE_TEXT,
		`text: the service got ${JSON.stringify(posts.map((r) => [r.path, r.body]))}`,
	);
	const detail = await ctx.db.execution(run.executionId);
	const returned = detail.raw?.resultData?.runData?.[TEXT_TOOL_NODE]?.[0]?.data?.ai_tool?.[0]?.[0]?.json;
	const result = returned?.response !== undefined ? resultOf(JSON.stringify(returned.response)) : returned;
	assert(
		result?.isSafe === false && result?.filteredContent === PROFANE_TEXT_FILTERED && typeof result?.id === 'string' && result?.queueId === undefined,
		`text: tool node output in n8n's records ${JSON.stringify(returned).slice(0, 300)}`,
	);
	const toolMessage = ((modelCalls[1].body as any).messages ?? []).find((m: any) => m.role === 'tool');
	assert(String(toolMessage?.content).includes(PROFANE_TEXT_FILTERED), 'text: the cleaned text did not reach the model');
	const answer: string = detail.items['AI Agent']?.[0]?.output ?? '';
	assert(answer === textVerdictAnswer(result), `text: agent answered ${JSON.stringify(answer)}, expected ${JSON.stringify(textVerdictAnswer(result))}`);
	return `text: #${run.executionId} "${answer}"`;
}
