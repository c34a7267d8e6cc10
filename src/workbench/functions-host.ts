/**
 * The workbench's copy of the add-in: installs the host's CustomFunctions/Office stand-ins, then loads the real
 * functions.json and functions.js, as Excel would.
 */
import type { PricesAddin } from "../functions/hook";
import { loadScript } from "../host/load-script";
import { parseFunctionsMetadata, type FunctionMetadata } from "../host/metadata";
import { createOfficeRuntimeShim, createOfficeShim } from "../host/office";
import { createCustomFunctionsRuntime, type CustomFunctionsRuntime } from "../host/runtime";

export interface LoadedFunctions {
  readonly runtime: CustomFunctionsRuntime;
  readonly metadata: FunctionMetadata[];
  readonly addin: PricesAddin;
}

export async function loadFunctions(): Promise<LoadedFunctions> {
  const globals = globalThis as unknown as Record<string, unknown>;
  const runtime = createCustomFunctionsRuntime();
  globals.CustomFunctions = runtime.global;
  globals.Office = createOfficeShim();
  globals.OfficeRuntime = createOfficeRuntimeShim();
  const metadataResponse = await fetch("functions.json", { cache: "no-store" });
  if (!metadataResponse.ok) throw new Error(`could not load functions.json: ${metadataResponse.status}`);
  const metadata = parseFunctionsMetadata(await metadataResponse.json());
  await loadScript("functions.js");
  const addin = globalThis.PricesAddin;
  if (!addin) throw new Error("functions.js did not define PricesAddin");
  return { runtime, metadata, addin };
}
