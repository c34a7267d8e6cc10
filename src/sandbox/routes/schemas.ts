/** Route schemas: the parameters as received (any case, repeated or not) and every response status. */
import { Type, type TSchema } from "@sinclair/typebox";
import { ProblemSchema } from "../../api";

/** Names vary in letter case (convention 3), so the schema admits any name with string or repeated-string values. */
export const ParametersSchema = Type.Object(
  {},
  {
    additionalProperties: Type.Union([Type.String(), Type.Array(Type.String())]),
    description: "Symbols, Dates, Fields, FromDate, ToDate, calendarType, carryForward, forecastType, priceCalculationType, Types; any letter case",
  },
);

const PROBLEM_STATUSES = [400, 401, 403, 404, 405, 413, 415, 429, 500, 503] as const;

export function responsesWith(ok: TSchema): Record<number, TSchema> {
  const responses: Record<number, TSchema> = { 200: ok };
  for (const status of PROBLEM_STATUSES) responses[status] = ProblemSchema;
  return responses;
}
