import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { childrenOf } from './environment';

// Linux counts CPU time in clock ticks of 1/100 s (USER_HZ, 100 on every common architecture).
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds a process tree has used so far: its own and its threads' (utime, stime), its live
 * descendants', and those of children it has reaped (cutime, cstime: a PostgreSQL backend that ended).
 * A process gone meanwhile counts as nothing.
 */
export function treeCpuSeconds(pid: number): number {
  let ticks = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop()!;
    try {
      // The command name (field 2) may hold spaces and parentheses: read after its closing one.
      const stat = readFileSync(`/proc/${next}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // Fields 14–17 of stat (utime, stime, cutime, cstime) are 11–14 here, counted from 0 after field 2.
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      pending.push(...childrenOf(next));
    } catch {
      // ended between the listing and the read
    }
  }
  return ticks / TICKS_PER_SECOND;
}

/** CPU seconds the whole machine has been busy (every core, every process) since boot: /proc/stat. */
function machineBusySeconds(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return (user! + nice! + system! + irq! + softirq! + steal!) / TICKS_PER_SECOND;
}

/**
 * Measures how many cores each named process tree (and this process) used while `work` ran, and how
 * many everything else on the machine took meanwhile (other work sharing it).
 */
export async function coresUsedDuring<T>(
  trees: Record<string, number[]>,
  work: () => Promise<T>,
): Promise<{ result: T; cores: Record<string, number>; machineCores: number }> {
  const sample = () =>
    Object.fromEntries(
      Object.entries(trees).map(([name, pids]) => [
        name,
        pids.reduce((sum, pid) => sum + treeCpuSeconds(pid), 0),
      ]),
    );
  const before = sample();
  const machineBefore = machineBusySeconds();
  const selfBefore = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  const after = sample();
  const machine = (machineBusySeconds() - machineBefore) / seconds;
  const self = process.cpuUsage(selfBefore);
  const cores = Object.fromEntries(
    Object.keys(trees).map((name) => [name, (after[name]! - before[name]!) / seconds]),
  );
  cores['load generator (this process)'] = (self.user + self.system) / 1e6 / seconds;
  const ours = Object.values(cores).reduce((sum, used) => sum + used, 0);
  cores['everything else on the machine'] = Math.max(0, machine - ours);
  return { result, cores, machineCores: cpus().length };
}
