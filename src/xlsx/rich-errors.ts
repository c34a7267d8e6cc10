/**
 * The errors Excel saves as `#VALUE!` with rich-value metadata: a cell `<c t="e" vm="1"><v>#VALUE!</v>` whose value
 * metadata points (xl/metadata.xml, XLRICHVALUE) at a rich value of the `_error` structure (xl/richData) naming the
 * real one, such as `#CALC!` for an empty FILTER or `#SPILL!` ([MS-XLSX] 2.3.6.1.3, errorType).
 */
import { ERROR_TEXTS } from "../host/values";
import type { WorkbookPackage } from "./package";
import { type XmlElement, localName } from "./xml";

/** errorType's values, 0 to 13: ERROR.TYPE's order less one. */
const ERROR_TYPES = ["#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA", "#SPILL!", "#CONNECT!", "#BLOCKED!", "#UNKNOWN!", "#FIELD!", "#CALC!"];

const KNOWN: ReadonlySet<string> = new Set(ERROR_TEXTS);

const named = (element: XmlElement | undefined, name: string): XmlElement[] => (element?.children ?? []).filter((candidate) => localName(candidate.name) === name);

/** By a cell's `vm` (1-based), the error its rich value names; empty when the book has no rich values. */
export function richErrorsOf(pkg: WorkbookPackage, relationships: readonly { readonly type: string; readonly target: string; readonly external?: boolean }[]): ReadonlyMap<number, string> {
  const part = (suffix: string): XmlElement | undefined => {
    const target = relationships.find((relationship) => relationship.type.endsWith(suffix) && relationship.external !== true)?.target;
    return target !== undefined && pkg.has(target) ? pkg.xml(target) : undefined;
  };
  const errors = new Map<number, string>();
  const metadata = part("/sheetMetadata");
  const values = part("/rdRichValue");
  const structures = part("/rdRichValueStructure");
  if (!metadata || !values || !structures) return errors;
  const errorKey = named(structures, "s").map((structure) => (structure.attributes.t === "_error" ? named(structure, "k").findIndex((key) => key.attributes.n === "errorType") : -1));
  const richValues = named(values, "rv");
  const future = named(metadata, "futureMetadata").find((element) => element.attributes.name === "XLRICHVALUE");
  const blocks = named(future, "bk").map((block) => {
    const pointer = named(named(named(block, "extLst")[0], "ext")[0], "rvb")[0];
    return Number(pointer?.attributes.i);
  });
  named(named(metadata, "valueMetadata")[0], "bk").forEach((block, index) => {
    const record = named(block, "rc")[0];
    const value = richValues[blocks[Number(record?.attributes.v)] ?? -1];
    const key = errorKey[Number(value?.attributes.s)] ?? -1;
    const code = key < 0 ? undefined : ERROR_TYPES[Number(named(value, "v")[key]?.text)];
    if (code !== undefined && KNOWN.has(code)) errors.set(index + 1, code);
  });
  return errors;
}
