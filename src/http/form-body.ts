// A form as it travels: an ordered list of name/value pairs (a browser's form data set), where names may
// repeat (six checked boxes named scope are six pairs), or a record of names with one value each.
export type FormEntry = readonly [name: string, value: string];
export type FormFields = Readonly<Record<string, string>> | readonly FormEntry[];

const isEntries = (form: FormFields): form is readonly FormEntry[] => Array.isArray(form);

/** application/x-www-form-urlencoded, every pair in order (spaces as +, as browsers send them). */
export const formBody = (form: FormFields): string =>
  new URLSearchParams(isEntries(form) ? form.map(([name, value]) => [name, value]) : { ...form }).toString();
