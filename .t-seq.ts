const order = (Deno.args[0] ?? '').split(',');
const t0 = performance.now();
let last = t0;
for (const m of order) {
  await import(m);
  const now = performance.now();
  console.log(`${m.padEnd(60)} +${(now - last).toFixed(0)} ms`);
  last = now;
}
console.log(`total ${(last - t0).toFixed(0)} ms`);
