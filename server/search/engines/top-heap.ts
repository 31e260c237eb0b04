/** The `limit` best (section, score) pairs offered, kept in a min-heap; `floor` is the score to beat once it is full. */
export class TopHeap {
  private readonly docs: Int32Array
  private readonly scores: Float64Array
  private size = 0
  floor = Number.NEGATIVE_INFINITY

  constructor(private readonly limit: number) {
    this.docs = new Int32Array(Math.max(limit, 0))
    this.scores = new Float64Array(Math.max(limit, 0))
  }

  /** Keeps the pair if it is among the best so far; false when it is not. */
  offer(doc: number, score: number): boolean {
    if (this.size < this.limit) {
      this.put(this.size++, doc, score)
      this.up(this.size - 1)
    } else if (this.limit > 0 && score > this.scores[0]!) {
      this.put(0, doc, score)
      this.down(0)
    } else {
      return false
    }
    if (this.size === this.limit) this.floor = this.scores[0]!
    return true
  }

  /** Best first; equal scores in section order. */
  best(): Array<{ doc: number; score: number }> {
    return Array.from({ length: this.size }, (_, i) => ({ doc: this.docs[i]!, score: this.scores[i]! })).sort(
      (a, b) => b.score - a.score || a.doc - b.doc,
    )
  }

  private put(i: number, doc: number, score: number) {
    this.docs[i] = doc
    this.scores[i] = score
  }

  private swap(i: number, j: number) {
    const doc = this.docs[i]!
    const score = this.scores[i]!
    this.put(i, this.docs[j]!, this.scores[j]!)
    this.put(j, doc, score)
  }

  private up(i: number) {
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (this.scores[parent]! <= this.scores[i]!) return
      this.swap(parent, i)
      i = parent
    }
  }

  private down(i: number) {
    for (;;) {
      const left = 2 * i + 1
      const right = left + 1
      let least = i
      if (left < this.size && this.scores[left]! < this.scores[least]!) least = left
      if (right < this.size && this.scores[right]! < this.scores[least]!) least = right
      if (least === i) return
      this.swap(least, i)
      i = least
    }
  }
}
