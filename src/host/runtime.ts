/** The `CustomFunctions` global a functions bundle expects: associate, Error, ErrorCode. */
import { UNANSWERED_KINDS } from "../functions/errors";
import { type CellError, type CellValue, type Unanswered, cellError, isErrorText } from "./values";

export const ERROR_CODES = {
  invalidValue: "#VALUE!",
  notAvailable: "#N/A",
  divisionByZero: "#DIV/0!",
  invalidNumber: "#NUM!",
  nullReference: "#NULL!",
  invalidName: "#NAME?",
  invalidReference: "#REF!",
  // Not in @types/custom-functions-runtime; kept so a bundle that names it still loads, shown as #N/A.
  notSupported: "#N/A",
} as const;
export type ErrorCodeText = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** `CustomFunctions.Error`: a code and an optional message. */
export class CustomFunctionsError extends Error {
  constructor(
    readonly code: ErrorCodeText,
    message?: string,
  ) {
    super(message ?? "");
    this.name = "CustomFunctions.Error";
  }
}

export type CustomFunction = (...args: unknown[]) => unknown;

export interface CustomFunctionsGlobal {
  associate(idOrMappings: string | Record<string, unknown>, implementation?: unknown): void;
  Error: typeof CustomFunctionsError;
  ErrorCode: typeof ERROR_CODES;
}

export interface CustomFunctionsRuntime {
  readonly global: CustomFunctionsGlobal;
  /** Implementations by upper-case id. */
  readonly implementations: ReadonlyMap<string, CustomFunction>;
}

export function createCustomFunctionsRuntime(): CustomFunctionsRuntime {
  const implementations = new Map<string, CustomFunction>();
  const register = (id: string, implementation: unknown): void => {
    if (typeof implementation !== "function") throw new TypeError(`CustomFunctions.associate: ${id} is not a function`);
    implementations.set(id.toUpperCase(), implementation as CustomFunction);
  };
  const global: CustomFunctionsGlobal = {
    associate(idOrMappings, implementation) {
      if (typeof idOrMappings === "string") register(idOrMappings, implementation);
      else for (const [id, fn] of Object.entries(idOrMappings)) register(id, fn);
    },
    Error: CustomFunctionsError,
    ErrorCode: ERROR_CODES,
  };
  return { global, implementations };
}

/**
 * A `CustomFunctions.Error`, ours or look-alike (a bundle may hold another copy of the class), with the mark of an
 * error that is no answer from the service about the cell when the bundle set one.
 */
export function asFunctionError(value: unknown): CellError | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { code, message, unanswered } = value as { code?: unknown; message?: unknown; unanswered?: unknown };
  if (!isErrorText(code)) return undefined;
  return cellError(code, typeof message === "string" ? message : undefined, isUnanswered(unanswered) ? unanswered : undefined);
}

function isUnanswered(value: unknown): value is Unanswered {
  return typeof value === "string" && (UNANSWERED_KINDS as readonly string[]).includes(value);
}

/** A sheet error handed to a function whose `any` parameter accepts errors. */
export function toFunctionError(error: CellError): CustomFunctionsError {
  const code = (Object.values(ERROR_CODES) as string[]).includes(error.code) ? (error.code as ErrorCodeText) : "#N/A";
  return new CustomFunctionsError(code, error.message);
}

export type { CellValue };
