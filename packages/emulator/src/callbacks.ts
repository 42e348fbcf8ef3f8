import { callbackHeaders, type Credentials } from '@x/auth';

export interface CallbackOptions {
  /** Waits before the 2nd, 3rd, ... attempt. Default [10 000, 30 000]: three attempts, as the service does. */
  retryDelaysMs?: number[];
  /** Per attempt. Default 5 000 ms. */
  timeoutMs?: number;
  /** The fetch used to deliver callbacks. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
}

export interface CallbackAttempt {
  referenceId: string;
  url: string;
  /** 1-based. */
  attempt: number;
  at: number;
  ok: boolean;
  /** The HTTP status the receiver answered, if it answered. */
  status?: number;
  error?: string;
  body: string;
  headers: Record<string, string>;
}

const MAX_RECORDS = 10_000;

/** Delivers signed callbacks with retries, and records every attempt. */
export class CallbackSender {
  readonly attempts: CallbackAttempt[] = [];
  private readonly pending = new Set<Promise<void>>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private closed = false;

  constructor(
    private readonly options: CallbackOptions,
    private readonly now: () => number,
  ) {}

  send(url: string, payload: unknown, credentials: Credentials, referenceId: string): void {
    const body = JSON.stringify(payload);
    const headers = { 'content-type': 'application/json', ...callbackHeaders(body, credentials) };
    const delays = this.options.retryDelaysMs ?? [10_000, 30_000];
    const run = async () => {
      for (let attempt = 1; attempt <= delays.length + 1 && !this.closed; attempt++) {
        if (attempt > 1) await this.sleep(delays[attempt - 2]!);
        if (this.closed) return;
        if (await this.attempt(url, body, headers, referenceId, attempt)) return;
      }
    };
    const task = run().finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  private async attempt(url: string, body: string, headers: Record<string, string>, referenceId: string, attempt: number): Promise<boolean> {
    const record: CallbackAttempt = { referenceId, url, attempt, at: this.now(), ok: false, body, headers };
    const fetcher = this.options.fetch ?? globalThis.fetch;
    try {
      const response = await fetcher(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(this.options.timeoutMs ?? 5_000) });
      await response.arrayBuffer().catch(() => undefined);
      record.status = response.status;
      record.ok = response.status >= 200 && response.status < 300;
    } catch (error) {
      record.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    this.attempts.push(record);
    if (this.attempts.length > MAX_RECORDS) this.attempts.shift();
    return record.ok;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      (timer as { unref?: () => void }).unref?.();
      this.timers.add(timer);
    });
  }

  /** Resolves when every callback in flight has been delivered or has used up its attempts. */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
