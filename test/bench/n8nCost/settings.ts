/**
 * The n8n-cost bench's settings, from the environment. Defaults: workflows A, A0, B, C (D on request), the
 * image variant ones and their envelope and text twins, 3 pairs.
 *
 * Env: BENCH_N8N_CALLBACKS (500), BENCH_N8N_CONNECTIONS (100), BENCH_N8N_PAIRS (3),
 * BENCH_N8N_VARIANTS (image,envelope,text), BENCH_N8N_WORKFLOWS (A,A0,B,C; D too on request), BENCH_N8N_LATENCY
 * (50 ms), BENCH_N8N_ENV (NAME=value,... for n8n, e.g. N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true),
 * BENCH_N8N_PROFILE=1 (a CPU profile of n8n per run through its inspector, saved under bench-results/,
 * summarised by package and function; heap in use sampled), BENCH_N8N_KEEP=1 (keep n8n's user folder).
 */
import { join } from 'node:path';

import { ROOT } from '../harness';
import { parseEnvList } from './stats';
import { VARIANTS, WORKFLOW_KEYS, type Variant, type WorkflowKey } from './workflows';

export const CALLBACKS = Number(process.env.BENCH_N8N_CALLBACKS ?? 500);
export const CONNECTIONS = Number(process.env.BENCH_N8N_CONNECTIONS ?? 100);
export const PAIRS = Number(process.env.BENCH_N8N_PAIRS ?? 3);
export const LATENCY_MS = Number(process.env.BENCH_N8N_LATENCY ?? 50);
const list = <T extends string>(text: string | undefined, all: T[], defaults: T[] = all) =>
	text ? (text.split(',').map((s) => s.trim()).filter((s) => (all as string[]).includes(s)) as T[]) : defaults;
export const WANTED_VARIANTS = list<Variant>(process.env.BENCH_N8N_VARIANTS, VARIANTS);
export const WANTED_KEYS = list<WorkflowKey>(process.env.BENCH_N8N_WORKFLOWS, WORKFLOW_KEYS, ['A', 'A0', 'B', 'C']);
export const N8N_ENV = parseEnvList(process.env.BENCH_N8N_ENV);
export const PROFILE = process.env.BENCH_N8N_PROFILE === '1';
export const OUT_DIR = join(ROOT, 'bench-results');
