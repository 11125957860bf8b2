/**
 * What package.json declares to the n8n versions users run (README, Compatibility): nothing in it may tell
 * an n8n 1.123 user on Node 20 to upgrade, and it must pass n8n's own checks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkNodesApiVersion } from 'n8n-workflow';

const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'packages', 'n8n-nodes-content-moderation', 'package.json'), 'utf8'));

/** n8n 1.123.x declares engines.node ">=20.19 <= 24.x": the oldest Node an n8n user may have. */
const OLDEST_NODE_OF_N8N_1 = [20, 19];

describe('package.json as n8n sees it', () => {
	it('declares only the peer n8n-workflow, as n8n requires (its installer strips peers)', () => {
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(pkg.dependencies ?? {}).toEqual({});
	});

	it('accepts the Node.js that n8n 1.123 runs on (Node 24 is needed only to develop)', () => {
		const m = /^>=\s*(\d+)(?:\.(\d+))?/.exec(pkg.engines?.node ?? '');
		expect(m).not.toBeNull();
		const [major, minor] = [Number(m![1]), Number(m![2] ?? 0)];
		const [oMajor, oMinor] = OLDEST_NODE_OF_N8N_1;
		expect(major < oMajor || (major === oMajor && minor <= oMinor)).toBe(true);
	});

	it("passes n8n-workflow's checkNodesApiVersion (the rule n8n 2.x applies when it loads a package)", () => {
		expect(pkg.n8n.n8nNodesApiVersion).toBe(1);
		expect(checkNodesApiVersion(pkg)).toMatchObject({ compatible: true });
	});
});
