/** How the client model's narration is introduced, after the tool's own facts (kept apart so the server loads it without narrate.ts). */
export const NARRATION_LABEL = "Narration from the client's model";
