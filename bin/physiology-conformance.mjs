#!/usr/bin/env node
// The installed command: the suite ships as TypeScript, loaded through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
