/**
 * A map that keeps at most `max` entries and forgets the oldest first: the memory bound of the
 * process-wide registries (the secret cache, the deliveries). Setting a key again makes it the newest.
 * No timer: expired entries are dropped when their registry is next used (`dropOldestWhile`).
 */
export class BoundedMap<K, V> {
	private readonly entries = new Map<K, V>();

	constructor(private readonly max: number) {}

	get size(): number {
		return this.entries.size;
	}

	get(key: K): V | undefined {
		return this.entries.get(key);
	}

	has(key: K): boolean {
		return this.entries.has(key);
	}

	delete(key: K): void {
		this.entries.delete(key);
	}

	clear(): void {
		this.entries.clear();
	}

	/** Puts `key` last (the newest), then forgets the oldest beyond the bound. */
	set(key: K, value: V): void {
		this.entries.delete(key);
		this.entries.set(key, value);
		for (const oldest of this.entries.keys()) {
			if (this.entries.size <= this.max) break;
			this.entries.delete(oldest);
		}
	}

	/** Forgets entries from the oldest on while `expired` holds for them; stops at the first that is not. */
	dropOldestWhile(expired: (value: V) => boolean): void {
		for (const [key, value] of this.entries) {
			if (!expired(value)) return;
			this.entries.delete(key);
		}
	}
}
