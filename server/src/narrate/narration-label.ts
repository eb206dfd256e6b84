/**
 * How the client model's narration is introduced, after the tool's own facts: written by narrate.ts, looked for by the
 * tool call (mcp/tool-call.ts), which loads at the server's start without the narration's own modules
 * (its traces and their writer).
 */
export const NARRATION_LABEL = "Narration from the client's model";
