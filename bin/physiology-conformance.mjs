#!/usr/bin/env node
// The installed command: the suite's JavaScript build (dist/, made by `npm pack`). A checkout runs the
// TypeScript sources through tsx instead (`npm run conformance`).
await import('../dist/src/cli/main.js');
