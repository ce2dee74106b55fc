// At most `limit` takes per key in any `windowMs`: for requests a stranger can make without a token.
export class RateLimit {
  private readonly taken = new Map<string, number[]>()

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  take(key: string, now = Date.now()): boolean {
    const recent = (this.taken.get(key) ?? []).filter((at) => now - at < this.windowMs)
    if (recent.length >= this.limit) {
      this.taken.set(key, recent)
      return false
    }
    recent.push(now)
    this.taken.set(key, recent)
    // Keys whose window passed are forgotten, so the map stays as small as the recent callers.
    if (this.taken.size > 1_000)
      for (const [k, times] of this.taken)
        if (times.every((at) => now - at >= this.windowMs)) this.taken.delete(k)
    return true
  }
}
