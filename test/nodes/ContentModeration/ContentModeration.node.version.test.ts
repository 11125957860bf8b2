/**
 * The workflows that name this package's nodes name the one version each declares. n8n's webhook code reads the
 * typeVersion a workflow holds for its start node (the trigger, or the action node resuming Wait for
 * Callback): at 1 it evaluates an expression on every call (docs/callbacks.md), so a workflow shipped at 1
 * would take that path whatever the node declares.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { ACTION_TYPE, PACKAGE_NAME } from '@dev/n8n/package';
import { ownNodeVersion } from '@test/helpers/engine/node-types';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const WORKFLOW_FOLDERS = ['examples', 'test/e2e/workflows'];

/** Every node of this package's types in the workflow files: [file, node name, type, typeVersion]. */
function ourNodes(): Array<[string, string, string, unknown]> {
	return WORKFLOW_FOLDERS.flatMap((folder) =>
		readdirSync(path.join(ROOT, folder))
			.filter((file) => file.endsWith('.json'))
			.flatMap((file) => {
				const workflow = JSON.parse(readFileSync(path.join(ROOT, folder, file), 'utf8')) as {
					nodes: Array<{ name: string; type: string; typeVersion: unknown }>;
				};
				return workflow.nodes
					.filter((node) => node.type.startsWith(`${PACKAGE_NAME}.`))
					.map((node): [string, string, string, unknown] => [`${folder}/${file}`, node.name, node.type, node.typeVersion]);
			}),
	);
}

test('every example and e2e workflow names this package\'s nodes at the version they declare', () => {
	const nodes = ourNodes();
	expect(nodes.length).toBeGreaterThan(20);
	const stale = nodes.filter(([, , type, version]) => version !== ownNodeVersion(type.replace(/Tool$/, '') as typeof ACTION_TYPE));
	expect(stale).toEqual([]);
});
