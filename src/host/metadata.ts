/** functions.json as custom-functions-metadata generates it, read defensively (it arrives as unknown JSON). */
import { isRecord } from "../api/json";

export const PARAMETER_TYPES = ["number", "string", "boolean", "any"] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];
export type Dimensionality = "scalar" | "matrix";

export interface ParameterMetadata {
  readonly name: string;
  readonly type: ParameterType;
  readonly dimensionality: Dimensionality;
  readonly optional: boolean;
  readonly repeating: boolean;
}

export interface FunctionOptions {
  readonly stream: boolean;
  readonly cancelable: boolean;
  readonly volatile: boolean;
  readonly requiresAddress: boolean;
  readonly requiresParameterAddresses: boolean;
  /** An `any` parameter receives error values instead of the call being skipped. */
  readonly allowErrorForDataTypeAny: boolean;
}

export interface FunctionMetadata {
  readonly id: string;
  readonly name: string;
  readonly parameters: readonly ParameterMetadata[];
  readonly result: { readonly type: ParameterType; readonly dimensionality: Dimensionality };
  readonly options: FunctionOptions;
}

export class MetadataError extends Error {
  override readonly name = "MetadataError";
}

function text(value: unknown, where: string): string {
  if (typeof value !== "string" || value === "") throw new MetadataError(`${where} must be a non-empty string`);
  return value;
}

function parameterType(value: unknown): ParameterType {
  return (PARAMETER_TYPES as readonly unknown[]).includes(value) ? (value as ParameterType) : "any";
}

function dimensionality(value: unknown): Dimensionality {
  return value === "matrix" ? "matrix" : "scalar";
}

export function parseFunctionsMetadata(json: unknown): FunctionMetadata[] {
  if (!isRecord(json) || !Array.isArray(json.functions)) throw new MetadataError("functions.json must hold a functions array");
  return json.functions.map((entry, index) => {
    if (!isRecord(entry)) throw new MetadataError(`functions[${index}] must be an object`);
    const id = text(entry.id, `functions[${index}].id`);
    const parameters = Array.isArray(entry.parameters) ? entry.parameters : [];
    const options = isRecord(entry.options) ? entry.options : {};
    const result = isRecord(entry.result) ? entry.result : {};
    return {
      id,
      name: typeof entry.name === "string" && entry.name !== "" ? entry.name : id,
      parameters: parameters.map((parameter, at) => {
        if (!isRecord(parameter)) throw new MetadataError(`${id}.parameters[${at}] must be an object`);
        return {
          name: text(parameter.name, `${id}.parameters[${at}].name`),
          type: parameterType(parameter.type),
          dimensionality: dimensionality(parameter.dimensionality),
          optional: parameter.optional === true,
          repeating: parameter.repeating === true,
        };
      }),
      result: { type: parameterType(result.type), dimensionality: dimensionality(result.dimensionality) },
      options: {
        stream: options.stream === true,
        cancelable: options.cancelable === true,
        volatile: options.volatile === true,
        requiresAddress: options.requiresAddress === true || options.requiresStreamAddress === true,
        requiresParameterAddresses:
          options.requiresParameterAddresses === true || options.requiresStreamParameterAddresses === true,
        allowErrorForDataTypeAny: options.allowErrorForDataTypeAny === true,
      },
    };
  });
}
