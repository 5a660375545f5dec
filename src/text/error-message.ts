// What a caught value says: an Error's message, anything else (a thrown string, a rejection's reason) as text.
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
