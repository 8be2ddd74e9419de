/** Ingot's release, as package.json names it (src/shared/version.test.ts keeps the two equal). */
export const INGOT_VERSION = '0.1.0';
