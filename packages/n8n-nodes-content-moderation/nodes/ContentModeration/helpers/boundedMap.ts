/** A store of the process state: at most `maxEntries`, the least recently set forgotten first. */
import type { Clock } from './clock';

export interface Bounds {
	maxEntries: number;
	/** From when an entry is set; Infinity: until deleted or pushed out. */
	ttlMs: number;
	/** 'set' (default): ttlMs after set; 'deadline': each entry's own (set's third argument); 'idle': by its owner. */
	expiry?: 'set' | 'deadline' | 'idle';
}

export class BoundedMap<K, V> {
	private readonly values = new Map<K, V>();
	/** When each entry expires, in the same order: a second map costs less memory than an object per entry. */
	private readonly untils = new Map<K, number>();

	constructor(
		readonly bounds: Bounds,
		readonly clock: Clock,
	) {}

	get size(): number {
		this.dropExpired();
		return this.values.size;
	}

	get(key: K): V | undefined {
		this.dropExpired();
		if ((this.untils.get(key) ?? 0) > this.clock.now()) return this.values.get(key);
		// An owner's own expiry (set's third argument) need not follow set order: the sweep may not reach it.
		this.delete(key);
		return undefined;
	}

	delete(key: K): void {
		this.values.delete(key);
		this.untils.delete(key);
	}

	clear(): void {
		this.values.clear();
		this.untils.clear();
	}

	/** Puts `key` last (the newest), then forgets the oldest beyond the bound. */
	set(key: K, value: V, until = this.bounds.expiry === 'idle' ? Infinity : this.clock.now() + this.bounds.ttlMs): void {
		this.dropExpired();
		this.delete(key);
		this.values.set(key, value);
		this.untils.set(key, until);
		for (const oldest of this.values.keys()) {
			if (this.values.size <= this.bounds.maxEntries) break;
			this.delete(oldest);
		}
	}

	/** Forgets every entry `drop` holds for. */
	dropWhere(drop: (value: V) => boolean): void {
		for (const [key, value] of this.values) if (drop(value)) this.delete(key);
	}

	/** With one time to live the oldest expire first: the sweep stops at the first entry still live. */
	private dropExpired(): void {
		const now = this.clock.now();
		for (const [key, until] of this.untils) {
			if (until <= now) this.delete(key);
			else if (this.bounds.expiry !== 'deadline') return;
		}
	}
}
