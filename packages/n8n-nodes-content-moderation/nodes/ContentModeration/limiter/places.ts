/**
 * The places sends take under an adaptive limit: one per send in flight, and a refused send's for a round
 * trip after it went out (the service said it is full). Pure: the caller gives the time.
 */
export class Places {
	inFlight = 0;
	/** When the places of refused sends come free. */
	private heldUntil: number[] = [];

	taken(now: number): number {
		if (this.heldUntil.length > 0) this.heldUntil = this.heldUntil.filter((until) => until > now);
		return this.inFlight + this.heldUntil.length;
	}

	take(): number {
		return ++this.inFlight;
	}

	/** A send came back; a refused one keeps its place until `holdUntil`. */
	free(now: number, holdUntil?: number): void {
		this.inFlight--;
		if (holdUntil !== undefined && holdUntil > now) this.heldUntil.push(holdUntil);
	}

	/** The earliest time one more send fits under `limit` if no answer comes first; undefined: only an answer makes room. */
	freeAt(now: number, limit: number): number | undefined {
		// Places that must come free before one is under the limit.
		const over = this.taken(now) - limit + 1;
		if (over > this.heldUntil.length) return undefined;
		return over <= 0 ? now : [...this.heldUntil].sort((a, b) => a - b)[over - 1];
	}
}
