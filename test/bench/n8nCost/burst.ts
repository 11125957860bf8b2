/** Sends a burst of JSON POSTs at once over a fixed number of connections and times their answers. */
import { Pool } from 'undici';

export interface BurstResult {
	sent: number;
	/** answered 2xx */
	acknowledged: number;
	/** status -> count of the others (0: no answer) */
	failures: Record<string, number>;
	/** from the first request to the last 2xx answer */
	seconds: number;
	/** acknowledged / seconds */
	perSecond: number;
}

export async function sendBurst(
	baseUrl: string,
	path: string,
	bodies: object[],
	connections: number,
	timeoutMs = 300_000,
): Promise<BurstResult> {
	const pool = new Pool(baseUrl, { connections, pipelining: 1, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
	const failures: Record<string, number> = {};
	let acknowledged = 0;
	let lastAck = 0;
	const t0 = performance.now();
	try {
		await Promise.all(
			bodies.map(async (body) => {
				try {
					const res = await pool.request({
						method: 'POST',
						path: `/${path.replace(/^\//, '')}`,
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify(body),
					});
					await res.body.dump();
					if (res.statusCode >= 200 && res.statusCode < 300) {
						acknowledged++;
						lastAck = performance.now();
					} else failures[res.statusCode] = (failures[res.statusCode] ?? 0) + 1;
				} catch {
					failures[0] = (failures[0] ?? 0) + 1;
				}
			}),
		);
	} finally {
		await pool.close();
	}
	const seconds = acknowledged > 0 ? (lastAck - t0) / 1000 : 0;
	return {
		sent: bodies.length,
		acknowledged,
		failures,
		seconds: Number(seconds.toFixed(3)),
		perSecond: seconds > 0 ? Number((acknowledged / seconds).toFixed(1)) : 0,
	};
}
