// `npm run bundle`: writes specs/openapi.yaml and the schema files it references as one
// self-contained document (default specs/openapi.bundled.json), for tools that cannot follow external
// references (src/contract/bundle.ts).
import { writeBundledOpenApi } from '../contract/bundle.ts';
import { messageOf } from '../text/error-message.ts';
import { scriptArgs } from './script-args.ts';

const { positionals } = scriptArgs(
  `Usage: npm run bundle [-- output-file]

  Writes specs/openapi.yaml and the schemas it references as one document (default specs/openapi.bundled.json).
  --help  this text`,
  { allowPositionals: true },
);
writeBundledOpenApi(positionals[0]).then(
  (file) => {
    console.log(`bundled OpenAPI written to ${file}`);
  },
  (error: unknown) => {
    console.error(messageOf(error));
    process.exitCode = 1;
  },
);
