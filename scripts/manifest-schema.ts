/**
 * The offline check of manifest.xml: XML Schema validation against the Office XSDs kept in
 * ../shared/office-manifest-xsd (see its README), with xmllint-wasm. Used by `npm run validate`.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { validateXML } from "xmllint-wasm";

export const XSD_DIR = resolve(__dirname, "../../shared/office-manifest-xsd");
export const ROOT_XSD = "OfficeAppManifestV1_1.xsd";
export const IMPORTED_XSDS = [
  "OfficeAppBasicTypesV1_0.xsd",
  "TaskPaneAppVersionOverridesV1_0.xsd",
  "MailAppVersionOverridesV1_0.xsd",
  "MailAppVersionOverridesV1_1.xsd",
  "ContentAppVersionOverridesV1_0.xsd",
];

export interface SchemaResult {
  readonly valid: boolean;
  readonly errors: readonly string[];
}

function schemaFile(name: string, dir: string): { fileName: string; contents: string } {
  return { fileName: name, contents: readFileSync(join(dir, name), "utf8") };
}

export async function validateManifestSchema(contents: string, fileName = "manifest.xml", xsdDir = XSD_DIR): Promise<SchemaResult> {
  const result = await validateXML({
    xml: [{ fileName, contents }],
    schema: [schemaFile(ROOT_XSD, xsdDir)],
    preload: IMPORTED_XSDS.map((name) => schemaFile(name, xsdDir)),
  });
  return { valid: result.valid, errors: result.errors.map((error) => error.message) };
}
