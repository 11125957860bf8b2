/** What the retry tests share: a fixed now, small retry settings, and the two kinds of failed try. */
import type { RetrySettings, TryOutcome } from '../../../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/retry/policy';

export const NOW = Date.parse('2026-11-21T12:00:00.000Z');
export const settings: RetrySettings = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000 };
export const status = (statusCode: number, retryAfter?: unknown): TryOutcome => ({ kind: 'status', statusCode, retryAfter });
export const network = (code?: string): TryOutcome => ({ kind: 'network', code });
