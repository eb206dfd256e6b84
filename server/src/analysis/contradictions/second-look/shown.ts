/**
 * How many pairs worth a second look a person is shown for one repository (analyze, check, approve's
 * first round): the highest ranked. The full ranked list stays in the JSON output.
 */
export const SHOWN_SECOND_LOOKS = 8;
