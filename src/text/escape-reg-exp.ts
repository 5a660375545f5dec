// Text taken literally inside a regular expression (a path segment, a target's name).
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
