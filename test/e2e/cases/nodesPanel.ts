/**
 * Case 19: a person adds the nodes from n8n's nodes panel, as a new user would. In an empty workflow the
 * trigger is added first (its panel shows Events and the verdict filter, and no token field), then
 * every action of the Content Moderation node, one by one; n8n names each node after the action picked,
 * so every canvas name must be that action text, and short (the rule in test/helpers/actionNames.ts).
 * Screenshots of the action list and the canvas.
 */
import { ACTION_TYPE } from '../../../dev/n8n/package';
import { closePanel, hasParam, TIMEOUT, withEditor } from '../../../dev/n8n/editor';
import { isShortActionName } from '../../helpers/actionNames';
import { assert, E2eContext } from '../context';
import type { Page } from 'playwright-core';

const SEARCH = 'Content Moderation';

/** The actions the node declares (what the nodes panel lists), from the description n8n serves. */
function declaredActions(desc: any): string[] {
	return (desc?.properties ?? [])
		.filter((p: any) => p.name === 'operation')
		// n8n adds a Custom API Call option (no action) to nodes whose credential allows it; it is not ours.
		.flatMap((p: any) => (p.options ?? []).filter((o: any) => o.value !== '__CUSTOM_API_CALL__').map((o: any) => String(o.action ?? '')));
}

/** Opens the nodes panel, searches the package and opens its details (its triggers and actions). */
async function openPackageInPanel(page: Page, opener: string): Promise<void> {
	await page.getByTestId(opener).first().click();
	await page.getByTestId('node-creator-search-bar').fill(SEARCH);
	await page.getByTestId('node-creator-item-name').getByText(SEARCH, { exact: true }).first().click();
}

async function canvasNames(page: Page): Promise<string[]> {
	return page.locator('[data-test-id="canvas-node"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-node-name') ?? ''));
}

export async function nodesPanel(ctx: E2eContext): Promise<string> {
	const types: any[] = await ctx.stack.rest.get('/types/nodes.json');
	const actions = declaredActions(types.filter((t) => t.name === ACTION_TYPE).pop());
	assert(actions.length >= 6 && actions.every((a) => a !== ''), `the node declares actions ${JSON.stringify(actions)}`);
	// One Operation field per resource: each action is declared, and listed, once.
	assert(new Set(actions).size === actions.length, `the node declares an action twice: ${JSON.stringify(actions)}`);
	const login = { url: ctx.stack.n8n.url, email: ctx.stack.owner.email, password: ctx.stack.owner.password, log: ctx.log };

	const r = await withEditor(login, 'nodes-panel', async ({ page, consoleErrors, shot }) => {
		await page.goto('/workflow/new');
		// The first step: the trigger (its first event in the list).
		await openPackageInPanel(page, 'canvas-add-button');
		await page.waitForTimeout(800);
		await shot('nodes-panel-trigger-list');
		await page.getByTestId('node-creator-item-name').first().click();
		await page.getByTestId('node-parameters').waitFor({ state: 'visible' });
		const trigger = {
			events: await hasParam(page, 'eventTypes'),
			results: await hasParam(page, 'events'),
			callbackToken: await hasParam(page, 'callbackToken'),
		};
		await shot('nodes-panel-trigger');
		await closePanel(page);

		const added: Array<{ action: string; fresh: string[] }> = [];
		for (const action of actions) {
			const prior = await canvasNames(page);
			await openPackageInPanel(page, 'node-creator-plus-button');
			const item = page.getByTestId('node-creator-item-name').getByText(action, { exact: true });
			// The details list folds one of its two groups; open Actions when it is folded.
			if (!(await item.isVisible())) await page.getByTestId('node-creator-category-item').filter({ hasText: /^Actions/ }).click();
			await item.waitFor({ state: 'visible', timeout: TIMEOUT });
			if (added.length === 0) {
				// The details list slides in; the screenshot waits until it is in place.
				await page.waitForTimeout(800);
				await shot('nodes-panel-actions');
			}
			await item.click();
			await page.getByTestId('node-parameters').waitFor({ state: 'visible' });
			await closePanel(page);
			added.push({ action, fresh: (await canvasNames(page)).filter((n) => !prior.includes(n)) });
		}
		// n8n places nodes added this way on top of each other; its Tidy Up (2.x) lays them out.
		if (await page.getByTestId('tidy-up-button').isVisible()) await page.getByTestId('tidy-up-button').click();
		await page.getByTestId('zoom-to-fit').click();
		await shot('nodes-panel-canvas');
		return { trigger, added, consoleErrors: [...consoleErrors] };
	});

	const { events, results, callbackToken } = r.trigger;
	assert(events && results && !callbackToken, `the trigger added from the panel shows Events ${events}, Results ${results}, Callback Token ${callbackToken}`);
	for (const { action, fresh } of r.added) {
		assert(fresh.length === 1 && fresh[0] === action, `picking "${action}" added nodes named ${JSON.stringify(fresh)}`);
		assert(isShortActionName(fresh[0]), `n8n named a node "${fresh[0]}": not a short, n8n-like name`);
	}
	// The panel's package details ask the npm registry about the package from the browser (offline here).
	const errors = r.consoleErrors.filter((e) => !/@ https:\/\/registry\.npmjs\.org\//.test(e));
	assert(errors.length === 0, `${errors.length} browser console error(s): ${errors.slice(0, 5).join(' | ')}`);
	return `trigger with Events and Results, no token field; nodes named ${r.added.map((a) => `"${a.action}"`).join(', ')}`;
}
