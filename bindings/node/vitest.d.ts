import type { TestAPI } from 'vitest';
import type { Datoteca } from './index';

export declare function baseSeed(): string;
export declare const test: TestAPI<{ datoteca: Datoteca }>;
export { Datoteca };
