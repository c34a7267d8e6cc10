/** One assessment as plain data (`AssessmentPoint`) and the check of one point given as unknown data. */
import { dateOfTimestamp, fromEpochDay, parseInstant, parseIsoDate, type ForwardCurvePoint } from "../../api";
import { Type } from "@sinclair/typebox";
import { DataError, describe } from "./data-error";
import { FileFormat } from "./file-schemas";
import { epochDayOf } from "./day-strings";
import { midOf } from "./mids";

/** One assessment as plain data: what `createSeries` takes and the files hold. */
export interface AssessmentPoint {
  /** `YYYY-MM-DD`, the day assessed. */
  date: string;
  /** ISO 8601 date-time with UTC offset; a corrected value's is later than the day. */
  assessmentDate: string;
  /** 0 for a first value, 1 or more for a corrected one. */
  revision: number;
  low: number;
  mid: number;
  high: number;
  appraisalPrice: boolean;
  pricingRationale: string;
  forwardCurves?: ForwardCurvePoint[];
}

/** The time written for an assessment whose file leaves `assessmentDate` out. */
export const DEFAULT_ASSESSMENT_TIME = "T16:30:00+00:00";

const Price = Type.Number({ description: "a number" });
const ForwardCurvePointShape = Type.Object(
  {
    forwardCode: Type.String({ pattern: "^M\\d+$", description: "M<n> such as M1" }),
    forwardMonth: Type.String({ pattern: "^[A-Z]{3}$", description: "an upper-case three-letter month such as JAN" }),
    low: Price,
    mid: Price,
    high: Price,
  },
  { description: "an object" },
);
const PointFields = {
  date: Type.String({ description: "a date YYYY-MM-DD" }),
  low: Price,
  mid: Price,
  high: Price,
  revision: Type.Integer({ minimum: 0, maximum: 65535, description: "an integer from 0 to 65535" }),
  assessmentDate: Type.String({ description: "an ISO 8601 date-time with UTC offset" }),
  appraisalPrice: Type.Boolean({ description: "true or false" }),
  pricingRationale: Type.String({ description: "a string" }),
  forwardCurves: Type.Optional(Type.Array(ForwardCurvePointShape, { description: "an array" })),
};
/** A point as `createSeries` takes it: every field but the curves. Fields of its own are ignored. */
const POINT = new FileFormat(Type.Object(PointFields, { description: "an object" }));
/** A point as an assessments file may write it (docs/sandbox-data.md): four fields may be left out. */
const FILE_POINT = new FileFormat(
  Type.Object(
    {
      ...PointFields,
      revision: Type.Optional(PointFields.revision),
      assessmentDate: Type.Optional(PointFields.assessmentDate),
      appraisalPrice: Type.Optional(PointFields.appraisalPrice),
      pricingRationale: Type.Optional(PointFields.pricingRationale),
    },
    { description: "an object" },
  ),
);

function checkRange(low: number, mid: number, high: number, where: string, date: string): void {
  if (!(low <= mid && mid <= high)) {
    throw new DataError(where, `expected low <= mid <= high on ${date}, got low ${low}, mid ${mid}, high ${high}`);
  }
}

/**
 * Checks one point given as unknown data (a file's or a caller's) and returns it typed and with its date
 * made canonical: its shape by schema, then what a schema cannot say (the date exists and ascends, low <= mid <=
 * high, the time is not before the day). `previousDay` is the epoch day of the point before it. With
 * `fillDefaults` (a file's point), the fields that may be left out are filled.
 */
export function checkPoint(value: unknown, where: string, previousDay: number | undefined, fillDefaults = false): AssessmentPoint {
  const shape = fillDefaults ? FILE_POINT.check(value, where) : POINT.check(value, where);
  const date = parseIsoDate(shape.date) ?? fail(`${where}.date`, `expected a date YYYY-MM-DD, got ${describe(shape.date)}`);
  const day = epochDayOf(date);
  if (previousDay !== undefined && day <= previousDay) {
    fail(`${where}.date`, `${date} must come after the previous assessment's date ${fromEpochDay(previousDay)} (ascending, one per day)`);
  }
  const { low, mid, high } = shape;
  checkRange(low, mid, high, `${where}.mid`, date);
  const assessmentDate = shape.assessmentDate ?? `${date}${DEFAULT_ASSESSMENT_TIME}`;
  if (parseInstant(assessmentDate) === undefined) {
    fail(`${where}.assessmentDate`, `expected an ISO 8601 date-time with UTC offset such as ${date}T16:30:00+00:00, got ${describe(assessmentDate)}`);
  }
  if (dateOfTimestamp(assessmentDate) < date) fail(`${where}.assessmentDate`, `${assessmentDate} is before the day it assesses (${date})`);
  // The file's mid is checked, then replaced by the rounded midpoint: every mid is one (convention 10).
  const point: AssessmentPoint = {
    date,
    assessmentDate,
    revision: shape.revision ?? 0,
    low,
    mid: midOf(low, high),
    high,
    appraisalPrice: shape.appraisalPrice ?? false,
    pricingRationale: shape.pricingRationale ?? "",
  };
  const curves = shape.forwardCurves;
  if (curves !== undefined) {
    point.forwardCurves = curves.map(({ forwardCode, forwardMonth, low: curveLow, mid: curveMid, high: curveHigh }, i) => {
      checkRange(curveLow, curveMid, curveHigh, `${where}.forwardCurves[${i}].mid`, date);
      return { forwardCode, forwardMonth, low: curveLow, mid: midOf(curveLow, curveHigh), high: curveHigh };
    });
  }
  return point;
}

function fail(where: string, problem: string): never {
  throw new DataError(where, problem);
}
