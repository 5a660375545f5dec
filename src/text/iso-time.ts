/** An instant (milliseconds since the epoch) as the suite writes it in queries and messages: ISO 8601, UTC. */
export const iso = (time: number): string => new Date(time).toISOString();
