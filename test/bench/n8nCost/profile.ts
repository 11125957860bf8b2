/**
 * Where n8n's CPU time goes in a V8 CPU profile (.cpuprofile, as `--cpu-prof` or the inspector's
 * Profiler.stop writes it): self time by package and by function. Run alone on saved profiles:
 *   npx tsx test/bench/n8nCost/profile.ts bench-results/n8n-cost-*.cpuprofile
 */
import { readFileSync } from 'node:fs';

export interface CpuProfile {
	nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
	startTime: number;
	endTime: number;
	samples: number[];
	timeDeltas: number[];
}

const THIS_PACKAGE = 'n8n-nodes-content-moderation';

/**
 * The package a script URL belongs to: the last `node_modules/<name>` (scoped names whole) in it; this
 * package wherever it is installed; `node:*` for Node's own; V8's pseudo frames by name.
 */
export function packageOf(url: string, functionName = ''): string {
	if (url === '') {
		if (/^\((program|idle|garbage collector|root)\)$/.test(functionName)) return functionName;
		return '(native)';
	}
	if (url.startsWith('node:')) return 'node:internal';
	const path = url.replace(/^file:\/\//, '');
	const parts = path.split('/node_modules/');
	if (parts.length === 1) return path.includes(THIS_PACKAGE) ? THIS_PACKAGE : '(other)';
	const rest = parts[parts.length - 1].split('/');
	return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
}

export interface ProfileSummary {
	totalMs: number;
	/** Time with a frame of this package anywhere on the stack (what it runs and what it makes n8n do) */
	packageInclusiveMs: number;
	byPackage: Array<{ name: string; ms: number; share: number }>;
	byFunction: Array<{ name: string; package: string; ms: number; share: number }>;
}

const PSEUDO = /^\((program|idle|garbage collector|root)\)$/;

/**
 * Self time per package and per function (name, file and line), largest first. A native function (no
 * script URL: isolated-vm's `eval`, sqlite's calls) is charged to the package of its nearest caller
 * with a script, so the expression isolate's time shows under the package that called it.
 */
export function summarise(profile: CpuProfile, top = 25): ProfileSummary {
	const parent = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const owner = (id: number): string => {
		const { functionName, url } = byId.get(id)!.callFrame;
		if (url !== '' || PSEUDO.test(functionName)) return packageOf(url, functionName);
		for (let up = parent.get(id); up !== undefined; up = parent.get(up)) {
			const frame = byId.get(up)!.callFrame;
			if (frame.url !== '') return `${packageOf(frame.url)} (native)`;
		}
		return '(native)';
	};
	const selfMs = new Map<number, number>();
	profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
	const byPackage = new Map<string, number>();
	const byFunction = new Map<string, { package: string; ms: number }>();
	const underPackage = new Map<number, boolean>();
	const isUnder = (id: number): boolean => {
		let known = underPackage.get(id);
		if (known === undefined) {
			const up = parent.get(id);
			known = packageOf(byId.get(id)!.callFrame.url) === THIS_PACKAGE || (up !== undefined && isUnder(up));
			underPackage.set(id, known);
		}
		return known;
	};
	let totalMs = 0;
	let packageInclusiveMs = 0;
	for (const node of profile.nodes) {
		const ms = selfMs.get(node.id) ?? 0;
		if (ms === 0) continue;
		if (isUnder(node.id)) packageInclusiveMs += ms;
		const { functionName, url, lineNumber } = node.callFrame;
		const pkg = owner(node.id);
		totalMs += ms;
		byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + ms);
		const file = url.split('/').slice(-2).join('/');
		const key = `${functionName || '(anonymous)'} ${file}${url ? `:${lineNumber + 1}` : ''}`;
		const entry = byFunction.get(key) ?? { package: pkg, ms: 0 };
		entry.ms += ms;
		byFunction.set(key, entry);
	}
	const share = (ms: number) => (totalMs > 0 ? Number((ms / totalMs).toFixed(4)) : 0);
	const r = (ms: number) => Number(ms.toFixed(1));
	return {
		totalMs: r(totalMs),
		packageInclusiveMs: r(packageInclusiveMs),
		byPackage: [...byPackage.entries()]
			.sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
			.slice(0, top)
			.map(([name, ms]) => ({ name, ms: r(ms), share: share(ms) })),
		byFunction: [...byFunction.entries()]
			.sort((x, y) => y[1].ms - x[1].ms || x[0].localeCompare(y[0]))
			.slice(0, top)
			.map(([name, e]) => ({ name, package: e.package, ms: r(e.ms), share: share(e.ms) })),
	};
}

/** The summary as lines for the console. */
export function formatSummary(title: string, s: ProfileSummary, rows = 12): string[] {
	const pct = (share: number) => `${(share * 100).toFixed(1)}%`.padStart(6);
	return [
		`${title}: ${(s.totalMs / 1000).toFixed(1)} s sampled, ${(s.packageInclusiveMs / 1000).toFixed(2)} s (${pct(s.packageInclusiveMs / (s.totalMs || 1)).trim()}) with ${THIS_PACKAGE} on the stack`,
		'  by package (self time):',
		...s.byPackage.slice(0, rows).map((p) => `    ${pct(p.share)} ${(p.ms / 1000).toFixed(2).padStart(7)} s  ${p.name}`),
		'  by function (self time):',
		...s.byFunction.slice(0, rows).map((f) => `    ${pct(f.share)} ${(f.ms / 1000).toFixed(2).padStart(7)} s  ${f.name} [${f.package}]`),
	];
}

/** Sampled ms with a frame named `functionName` (from a script whose URL contains `urlPart`) on the stack. */
export function timeUnder(profile: CpuProfile, functionName: string, urlPart = ''): number {
	const parent = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const under = new Map<number, boolean>();
	const isUnder = (id: number): boolean => {
		let known = under.get(id);
		if (known === undefined) {
			const { callFrame } = byId.get(id)!;
			const up = parent.get(id);
			known =
				(callFrame.functionName === functionName && callFrame.url.includes(urlPart)) || (up !== undefined && isUnder(up));
			under.set(id, known);
		}
		return known;
	};
	let ms = 0;
	profile.samples.forEach((id, i) => {
		if (isUnder(id)) ms += (profile.timeDeltas[i] ?? 0) / 1000;
	});
	return Number(ms.toFixed(1));
}

if (require.main === module) {
	const args = process.argv.slice(2);
	const at = args.indexOf('--under');
	const [fn, urlPart] = at >= 0 ? args.splice(at, 2)[1].split(':') : [];
	for (const file of args) {
		const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
		if (fn) console.log(`${file}: ${timeUnder(profile, fn, urlPart)} ms under ${fn}${urlPart ? ` (${urlPart})` : ''}`);
		else console.log(formatSummary(file, summarise(profile), 20).join('\n'));
	}
}
