import type { TestAPI } from 'vitest';
import { Datoteca } from './index';

/** The base seed: DATOTECA_SEED (decimal or 0x-hex), else provide('datotecaSeed', …), else '0'; in decimal. */
export declare function baseSeed(): string;
/** A seed as DATOTECA_SEED takes it, in decimal; a RangeError otherwise. */
export declare function parseSeed(text: string | number | bigint, what?: string): string;
/** The nearest directory above `file` with a package.json (the file's own directory when none; in a browser, as the globalSetup found it). */
export declare function packageRoot(file: string): string;
/** Vitest's test with a `datoteca` fixture seeded for the test alone. Use test.for, not test.each, for tables. */
export declare const test: TestAPI<{ datoteca: Datoteca }>;
/** One Datoteca for a whole test file: datotecaDelArchivo(import.meta.url). */
export declare function datotecaDelArchivo(url: string): Datoteca;
export { Datoteca };
