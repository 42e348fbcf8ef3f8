// The memory a benchmark counts: heap plus array buffers, after gc has run until nothing more goes
// (run node with --expose-gc).
const settle = () => new Promise((r) => setTimeout(r, 200));

export async function used() {
  for (let i = 0; i < 4; i++) {
    globalThis.gc();
    await settle();
  }
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}
