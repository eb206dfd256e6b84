import { z } from 'zod';
import { OUTCOME_NAMES } from './outcomes.js';

/**
 * Every outcome as a zod enum, from the one outcome table (common/outcomes.ts); the tools' output
 * schemas hold it. Its own module, so that the CLI reads exit codes without loading zod.
 */
export const OutcomeSchema = z.enum(OUTCOME_NAMES);
