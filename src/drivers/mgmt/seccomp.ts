/**
 * The seccomp filter hooks run under (given to bwrap with --seccomp): kernel interfaces scripts
 * have no use for and that widen the kernel's attack surface most — io_uring, BPF, perf events,
 * userfaultfd, keyrings, module and kexec loading, open_by_handle_at — fail with EPERM. Calls
 * through another ABI (32-bit on a 64-bit host, x32) fail too, so that they cannot go around the
 * list. A classic BPF program, written here because bwrap takes one ready-made; hosts other than
 * x86-64 and arm64 get none.
 */
import { endianness } from 'node:os';

const BLOCKED = [
  'keyctl',
  'add_key',
  'request_key',
  'bpf',
  'perf_event_open',
  'userfaultfd',
  'io_uring_setup',
  'io_uring_enter',
  'io_uring_register',
  'kexec_load',
  'kexec_file_load',
  'init_module',
  'finit_module',
  'delete_module',
  'open_by_handle_at',
] as const;

type Blocked = (typeof BLOCKED)[number];

/** Syscall numbers (Linux uapi: asm/unistd_64.h for x86-64, asm-generic/unistd.h for arm64). */
const ARCHES: Readonly<
  Record<string, { auditArch: number; x32: boolean; numbers: Readonly<Record<Blocked, number>> }>
> = {
  x64: {
    auditArch: 0xc000003e,
    x32: true,
    numbers: {
      keyctl: 250,
      add_key: 248,
      request_key: 249,
      bpf: 321,
      perf_event_open: 298,
      userfaultfd: 323,
      io_uring_setup: 425,
      io_uring_enter: 426,
      io_uring_register: 427,
      kexec_load: 246,
      kexec_file_load: 320,
      init_module: 175,
      finit_module: 313,
      delete_module: 176,
      open_by_handle_at: 304,
    },
  },
  arm64: {
    auditArch: 0xc00000b7,
    x32: false,
    numbers: {
      keyctl: 219,
      add_key: 217,
      request_key: 218,
      bpf: 280,
      perf_event_open: 241,
      userfaultfd: 282,
      io_uring_setup: 425,
      io_uring_enter: 426,
      io_uring_register: 427,
      kexec_load: 104,
      kexec_file_load: 294,
      init_module: 105,
      finit_module: 273,
      delete_module: 106,
      open_by_handle_at: 265,
    },
  },
};

// Classic BPF over struct seccomp_data { int nr; __u32 arch; … }.
const LD_ABS_W = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050000 | 1;
const X32_SYSCALL_BIT = 0x40000000;

/** The filter for this host (struct sock_filter[], native byte order), or undefined for none. */
export function seccompFilter(arch: string = process.arch): Buffer | undefined {
  const table = ARCHES[arch];
  if (!table || endianness() !== 'LE') return undefined;
  const numbers = BLOCKED.map((name) => table.numbers[name]);
  // Layout: 0 load arch, 1 check it, 2 load nr, the nr checks, allow, deny.
  const checks = numbers.length + (table.x32 ? 1 : 0);
  const deny = 3 + checks + 1;
  const toDeny = (at: number) => deny - at - 1; // jumps count from the next instruction
  const program: [code: number, jt: number, jf: number, k: number][] = [
    [LD_ABS_W, 0, 0, OFFSET_ARCH],
    [JEQ_K, 0, toDeny(1), table.auditArch],
    [LD_ABS_W, 0, 0, OFFSET_NR],
  ];
  if (table.x32) program.push([JGE_K, toDeny(program.length), 0, X32_SYSCALL_BIT]);
  for (const nr of numbers) program.push([JEQ_K, toDeny(program.length), 0, nr]);
  program.push([RET_K, 0, 0, RET_ALLOW], [RET_K, 0, 0, RET_EPERM]);
  const out = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}
