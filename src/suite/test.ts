// The conformance suite's `test`: the fixtures of each domain, merged (Playwright's mergeTests). The core
// fixtures (configuration, the HTTP client, tokens, partners, verdicts) are in fixtures.ts, the user's data
// in user-data.ts. Every conformance spec imports `test` from here.
import { mergeTests } from '@playwright/test';
import { coreTest } from './fixtures.ts';
import { userDataTest } from './user-data.ts';

export const test = mergeTests(coreTest, userDataTest);
