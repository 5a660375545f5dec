// A number as a message quotes it: rounded to two decimals, or to as many more as keep it on its side of the
// limit it is compared with (21.004 is never quoted as 21 against a maximum of 21); a whole number as it is.
// The answer itself is always shown as sent.
export function roundedBeside(value: number, limit: number): string {
  if (Number.isInteger(value) || !Number.isFinite(value)) return String(value);
  const side = Math.sign(value - limit);
  for (let digits = 2; digits < 17; digits += 1) {
    const rounded = Number(value.toFixed(digits));
    if (Math.sign(rounded - limit) === side) return String(rounded);
  }
  return String(value);
}
