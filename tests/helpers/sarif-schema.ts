import fs from 'node:fs';
import path from 'node:path';
import AjvModule from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';

/** The SARIF 2.1.0 schema (the copy @microsoft/jest-sarif ships), compiled once for every test that checks a SARIF document. */
const SCHEMA = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'),
);
// CommonJS packages: under NodeNext their default export is the module object, whose .default is the class.
const Ajv = ((AjvModule as any).default ?? AjvModule) as typeof AjvModule.default;
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as typeof addFormatsModule.default;
const ajv = new Ajv({ strict: false, unicodeRegExp: false });
addFormats(ajv);

/** Validates a SARIF document; its `errors` say why the last one failed. */
export const validSarif = ajv.compile(SCHEMA);
