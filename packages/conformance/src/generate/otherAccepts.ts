/** What clients other than the suite put in Accept: XML, a browser's list, plain text, anything. */
export const OTHER_ACCEPTS = [
  'application/xml',
  'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'text/plain',
  '*/*',
] as const;
