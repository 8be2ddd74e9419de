/**
 * Answers iPXE's banner prompt on a QEMU machine's serial console. Debian's iPXE option ROMs
 * (ipxe-qemu) stop every network boot for 2 s at "Press Ctrl-B for the iPXE command line..."; any other
 * key ends the wait at once (iPXE's `prompt()` returns on the first key, -ECANCELED unless it is Ctrl-B).
 * The watcher reads the serial log as the boot writes it and presses Space through QMP when the prompt
 * shows, as an operator at the console would: each network boot of a lab machine starts 2 s sooner,
 * and nothing else changes (Space reaches no other prompt: the watch ends with QEMU or after a minute).
 */
import { readFrom } from '../../shared/read-from.js';

/** The text iPXE prints while it waits. */
export const IPXE_PROMPT = 'Press Ctrl-B for the iPXE command line';

export interface IpxePromptWatch {
  /** The serial log QEMU appends to. */
  serialLog: string;
  /** Byte offset where this boot's output starts (the log's size before QEMU started). */
  from: number;
  /** Presses a key other than Ctrl-B (QMP `send-key`). */
  pressKey: () => Promise<unknown>;
  /** False once the QEMU of this boot is gone. */
  running: () => boolean;
  /** How long to watch; default 60 s (a boot falling through several NICs shows one prompt per NIC ROM). */
  timeoutMs?: number;
  /** Interval between reads of the log; default 100 ms. */
  pollMs?: number;
}

/**
 * Watches `serialLog` from `from` and calls `pressKey` once for each iPXE prompt that appears, until
 * QEMU ends, the timeout passes or the returned function is called. Failures to read or to press are
 * ignored: the prompt then simply times out as it would without the watch.
 */
export function answerIpxePrompts(watch: IpxePromptWatch): () => void {
  const pollMs = watch.pollMs ?? 100;
  const until = Date.now() + (watch.timeoutMs ?? 60_000);
  let offset = watch.from;
  // The end of the previous read, so that a prompt split across two reads is still seen.
  let carry = '';
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  // unref: a watch never keeps the process alive on its own.
  const schedule = () => {
    timer = setTimeout(() => void poll(), pollMs);
    timer.unref();
  };

  const readNew = async (): Promise<string> => {
    const bytes = await readFrom(watch.serialLog, offset);
    offset += bytes.length;
    return bytes.toString('latin1');
  };

  const poll = async () => {
    if (stopped) return;
    if (!watch.running() || Date.now() > until) {
      stopped = true;
      return;
    }
    try {
      const text = carry + (await readNew());
      let at = text.indexOf(IPXE_PROMPT);
      let rest = text;
      while (at >= 0 && !stopped) {
        await watch.pressKey();
        rest = rest.slice(at + IPXE_PROMPT.length);
        at = rest.indexOf(IPXE_PROMPT);
      }
      carry = rest.slice(-(IPXE_PROMPT.length - 1));
    } catch {
      // the log is not there yet, or QEMU went away while pressing: try again or stop at the next turn
    }
    if (!stopped) schedule();
  };

  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
