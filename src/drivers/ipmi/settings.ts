/**
 * Timing of Ingot's IPMI client. The lead's config group maps onto this record (`ipmi.*`); every field
 * has a default so a caller can pass a partial record.
 */
export interface IpmiSettings {
  /**
   * How long a failing command is retried (with backoff, and retransmitted when unanswered) before it
   * fails, in seconds. Ironic's `[ipmi] command_retry_timeout`, same default.
   */
  command_retry_timeout_s: number;
  /**
   * Least time between the end of one command to a BMC and the start of the next, in seconds.
   *
   * NOTE: Ironic's `[ipmi] min_command_interval` defaults to 5 s because every command there is a fresh
   * `ipmitool` process that opens and closes an RMCP+ session, and slow BMCs drop sessions opened in
   * quick succession. Ingot keeps one session per BMC and sends one command at a time over it, which
   * is what an interactive `ipmitool shell` does without any pause, so the spacing only protects BMCs
   * from bursts. A wait for a power state already pauses 1 s between its reads; what the spacing
   * separates are the commands of one operation — a network boot is five (keep the boot flags, set
   * them, read the power, power up, read it again) — so 0.1 s lets the machine power on ~0.4 s after
   * the request instead of ~2 s at 0.5 s, or ~20 s in Ironic. Raise it for BMCs known to choke.
   */
  min_command_interval_s: number;
  /** First retransmission timeout of an unanswered packet, in seconds; it doubles on each retransmission. */
  retransmit_initial_s: number;
  /** A session unused for this long is closed (Close Session), in seconds. */
  session_idle_timeout_s: number;
}

/** Defaults of {@link IpmiSettings}. */
export const DEFAULT_IPMI_SETTINGS: Readonly<IpmiSettings> = Object.freeze({
  command_retry_timeout_s: 60,
  min_command_interval_s: 0.1,
  retransmit_initial_s: 1,
  session_idle_timeout_s: 30,
});

/** `partial` over the defaults. */
export function ipmiSettings(partial: Partial<IpmiSettings> = {}): IpmiSettings {
  return { ...DEFAULT_IPMI_SETTINGS, ...partial };
}
