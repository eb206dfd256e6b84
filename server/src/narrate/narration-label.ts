/**
 * How the client model's narration is introduced, after the tool's own facts: a module of its own, so
 * that what looks for it (a step's text, the tests) does not load the narration's modules (its traces
 * and their writer).
 */
export const NARRATION_LABEL = "Narration from the client's model";
