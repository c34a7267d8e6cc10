/** The runner's provenance of frozen cells: the one implementation the pane's Freeze uses too (functions/frozen-provenance.ts). */
export { type FormulaCalls, type PricesCallRecord, isErrorValue, provenanceOf, withValues } from "../functions/frozen-provenance";
