// The contract's numeric formats ("int64 and int32 are JSON integers. float and double are JSON numbers.") as
// value ranges, for the Ajv validators and the fast-check arbitraries. A format checks the range only (being
// an integer is `type`'s job, so 1.5 for `{type: integer, format: int32}` breaks one rule): int32 -2^31 ..
// 2^31-1; int64 the safe integers, ±(2^53-1) (a JSON parser makes larger ones imprecise doubles, so they are
// reported, not checked); float the finite single-precision range, |x| <= 3.4028234663852886e38 (FLT_MAX);
// double any finite number.
import type { Ajv2020 } from 'ajv/dist/2020.js';

export interface NumericRange {
  readonly min: number;
  readonly max: number;
}

export const INT32_MIN = -(2 ** 31);
export const INT32_MAX = 2 ** 31 - 1;
export const FLOAT_MAX = 3.4028234663852886e38;

export const numberFormatRanges = {
  int32: { min: INT32_MIN, max: INT32_MAX },
  int64: { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER },
  float: { min: -FLOAT_MAX, max: FLOAT_MAX },
  double: { min: -Number.MAX_VALUE, max: Number.MAX_VALUE },
} as const satisfies Record<string, NumericRange>;

export type NumberFormat = keyof typeof numberFormatRanges;

export function isNumberFormat(format: string | undefined): format is NumberFormat {
  return format !== undefined && Object.hasOwn(numberFormatRanges, format);
}

/** Registers (or replaces ajv-formats' versions of) int32, int64, float and double. */
export function addNumberFormats(ajv: Ajv2020): void {
  for (const [name, { min, max }] of Object.entries(numberFormatRanges)) {
    ajv.addFormat(name, { type: 'number', validate: (value: number) => value >= min && value <= max });
  }
}
