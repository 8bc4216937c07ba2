/**
 * Keeps the k best (score, row) pairs seen so far in a binary min-heap: O(n log k) selection
 * without sorting every match. Higher score is better; on equal scores the lower row (earlier
 * in name order) is better, which makes every ranking deterministic.
 */
export class TopK {
  private readonly scores: Float64Array;
  private readonly rows: Uint32Array;
  private size = 0;

  constructor(private readonly capacity: number) {
    this.scores = new Float64Array(capacity);
    this.rows = new Uint32Array(capacity);
  }

  offer(score: number, row: number): void {
    if (this.capacity === 0) return;
    if (this.size < this.capacity) {
      this.scores[this.size] = score;
      this.rows[this.size] = row;
      this.siftUp(this.size++);
    } else if (this.isWorse(this.scores[0]!, this.rows[0]!, score, row)) {
      this.scores[0] = score;
      this.rows[0] = row;
      this.siftDown(0);
    }
  }

  /** The kept pairs, best first. */
  sorted(): Array<{ score: number; row: number }> {
    const entries = Array.from({ length: this.size }, (_, i) => ({ score: this.scores[i]!, row: this.rows[i]! }));
    return entries.sort((a, b) => b.score - a.score || a.row - b.row);
  }

  /** true when (scoreA, rowA) ranks below (scoreB, rowB). */
  private isWorse(scoreA: number, rowA: number, scoreB: number, rowB: number): boolean {
    return scoreA < scoreB || (scoreA === scoreB && rowA > rowB);
  }

  private siftUp(position: number): void {
    while (position > 0) {
      const parent = (position - 1) >> 1;
      if (!this.isWorse(this.scores[position]!, this.rows[position]!, this.scores[parent]!, this.rows[parent]!)) return;
      this.swap(position, parent);
      position = parent;
    }
  }

  private siftDown(position: number): void {
    for (;;) {
      const left = 2 * position + 1;
      const right = left + 1;
      let worst = position;
      if (left < this.size && this.isWorse(this.scores[left]!, this.rows[left]!, this.scores[worst]!, this.rows[worst]!)) worst = left;
      if (right < this.size && this.isWorse(this.scores[right]!, this.rows[right]!, this.scores[worst]!, this.rows[worst]!)) worst = right;
      if (worst === position) return;
      this.swap(position, worst);
      position = worst;
    }
  }

  private swap(a: number, b: number): void {
    const score = this.scores[a]!;
    const row = this.rows[a]!;
    this.scores[a] = this.scores[b]!;
    this.rows[a] = this.rows[b]!;
    this.scores[b] = score;
    this.rows[b] = row;
  }
}
