// A small least-recently-used cache bounded by entry count and by a weight (items held), so a
// run whose steps each see thousands of items does not keep hundreds of them in memory.
export class Lru<K, V> {
  private map = new Map<K, { value: V; weight: number }>();
  private total = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight: number = Infinity,
    private readonly weigh: (v: V) => number = () => 1,
  ) {}

  get size(): number {
    return this.map.size;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Reads and marks as recently used. */
  get(key: K): V | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  /** Reads without touching the order. */
  peek(key: K): V | undefined {
    return this.map.get(key)?.value;
  }

  set(key: K, value: V): void {
    const old = this.map.get(key);
    if (old) {
      this.total -= old.weight;
      this.map.delete(key);
    }
    const weight = this.weigh(value);
    this.map.set(key, { value, weight });
    this.total += weight;
    // Evict the oldest entries, but never the one just added.
    for (const [k, e] of this.map) {
      if (this.map.size <= 1 || (this.map.size <= this.maxEntries && this.total <= this.maxWeight)) break;
      if (k === key) continue;
      this.map.delete(k);
      this.total -= e.weight;
    }
  }

  delete(key: K): boolean {
    const e = this.map.get(key);
    if (!e) return false;
    this.map.delete(key);
    this.total -= e.weight;
    return true;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }

  keys(): K[] {
    return [...this.map.keys()];
  }
}
