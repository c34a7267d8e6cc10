/**
 * Makes formulas of a workbook ExcelJS wrote into dynamic arrays, as Excel 365 saves a formula that spills: the cell
 * gets `cm="1"`, its `<f>` becomes `t="array"` over the anchor alone, and the package gains the metadata part that
 * `cm` points at. ExcelJS writes every formula plain, which Excel 365 reads as a legacy formula (implicit
 * intersection, no spill).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";

const METADATA =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray"><metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes><futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata><cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>';

/** `cells` by sheet part (`xl/worksheets/sheet1.xml`): each becomes a dynamic array anchored where it is. */
export function asDynamicArrays(path: string, cells: Readonly<Record<string, readonly string[]>>): void {
  const entries = unzipSync(new Uint8Array(readFileSync(path)));
  for (const [part, addresses] of Object.entries(cells)) {
    let xml = strFromU8(entries[part] ?? new Uint8Array());
    for (const address of addresses) {
      const cell = new RegExp(`<c r="${address}"([^>]*)><f>`);
      if (!cell.test(xml)) throw new Error(`${part} has no plain formula at ${address}`);
      xml = xml.replace(cell, `<c r="${address}"$1 cm="1"><f t="array" ref="${address}">`);
    }
    entries[part] = strToU8(xml);
  }
  const types = strFromU8(entries["[Content_Types].xml"] ?? new Uint8Array());
  entries["[Content_Types].xml"] = strToU8(types.replace("</Types>", '<Override PartName="/xl/metadata.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml"/></Types>'));
  const rels = strFromU8(entries["xl/_rels/workbook.xml.rels"] ?? new Uint8Array());
  entries["xl/_rels/workbook.xml.rels"] = strToU8(rels.replace("</Relationships>", '<Relationship Id="rIdDynamicArrays" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sheetMetadata" Target="metadata.xml"/></Relationships>'));
  entries["xl/metadata.xml"] = strToU8(METADATA);
  writeFileSync(path, zipSync(entries));
}
