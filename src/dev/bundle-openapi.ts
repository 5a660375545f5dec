// `npm run bundle [-- output-file]`: writes specs/openapi.yaml and the schema files it references as one
// self-contained document (default specs/openapi.bundled.json), for tools that cannot follow external
// references (src/contract/bundle.ts).
import { writeBundledOpenApi } from '../contract/bundle.ts';
import { messageOf } from '../text/error-message.ts';

writeBundledOpenApi(process.argv[2]).then(
  (file) => {
    console.log(`bundled OpenAPI written to ${file}`);
  },
  (error: unknown) => {
    console.error(messageOf(error));
    process.exitCode = 1;
  },
);
