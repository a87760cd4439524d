/**
 * Server-Timing (store, pricing, serialisation, upstream) so a slow answer
 * can be explained from the browser's network panel or a benchmark.
 */
export class ServerTiming {
  private readonly totals = new Map<string, number>();

  measure<T>(name: string, work: () => T): T {
    const started = performance.now();
    try {
      return work();
    } finally {
      this.add(name, performance.now() - started);
    }
  }

  async measureAsync<T>(name: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.add(name, performance.now() - started);
    }
  }

  add(name: string, ms: number): void {
    this.totals.set(name, (this.totals.get(name) ?? 0) + ms);
  }

  header(): string {
    return [...this.totals].map(([name, ms]) => `${name};dur=${ms.toFixed(1)}`).join(", ");
  }
}
