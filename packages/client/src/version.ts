/** This package's name and version, sent as the User-Agent (a test keeps it equal to package.json). */
export const CLIENT_NAME = '@cloud-api/client';
export const CLIENT_VERSION = '0.1.0';
