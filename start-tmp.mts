import { startSandbox } from './sandbox/app.ts';
const epoch = Date.now();
await startSandbox({ port: 0, dataEpoch: epoch });
const t = performance.now();
const list = [];
for (let i = 0; i < 40; i++) list.push(await startSandbox({ port: 0, dataEpoch: epoch, environment: i % 2 ? 'production' : 'non-production' }));
console.log('start per instance (shared data)', (performance.now() - t) / 40);
for (const x of list) await x.close();
