/** A clause as a sentence of a longer message: ends with a full stop unless it has its own. */
export function sentence(clause: string): string {
  return /[.?!]$/.test(clause) ? clause : `${clause}.`;
}
