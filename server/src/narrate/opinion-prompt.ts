/**
 * The question propose puts to the client's model about the second-look pairs, as data: the words
 * sent, the shape of the answer asked for, and the bounds of the request and of the reply read.
 * narrate/opinion.ts builds the request from it; nothing else holds words for the model.
 */
export const OPINION_PROMPT = {
  system:
    'You review pairs of rules taken from the AI-assistant instruction files of one software repository. ' +
    'A tool found each pair worth a second look: the two lines may give an assistant two different answers ' +
    'to one question (a tool, a command, a version, a value, a style, always against never), or may not. ' +
    'For each pair, decide whether the two lines conflict where both apply ("conflict"), can both be ' +
    'followed ("compatible"), or you cannot tell ("unsure"). Use only the lines, files and scopes you are ' +
    'given. Answer with JSON only, no other text, in this shape: ' +
    '{"verdicts":[{"id":"<the pair id>","verdict":"conflict|compatible|unsure","quoteA":"<line A, exactly as given>",' +
    '"quoteB":"<line B, exactly as given>","reason":"<one sentence>"}]}. ' +
    'Quote both lines exactly as given, character for character: a verdict whose quotes differ from the lines is ' +
    'discarded. Give at most one verdict per pair; leave out a pair rather than guess.',
  intro: 'The pairs, each line as it stands in its file (a line ending in "[cut]" was shortened: quote it up to the cut):',
} as const;

/** What is sent and read, and how far a verdict moves a pair. */
export const OPINION_BOUNDS = {
  /** The highest ranked pairs put to the model: the rest keep their rank. */
  maxPairs: 40,
  /** A line longer than this is sent cut, marked; its quote is matched against the part sent. */
  maxLineChars: 300,
  /** The request's user message at most (the pairs that do not fit are not sent). */
  maxRequestBytes: 32 * 1024,
  /** Tokens asked for: a base and a share per pair (clients may ignore it; the reply is cut below anyway). */
  baseTokens: 200,
  tokensPerPair: 250,
  /** The reply read at most; past it, it is not read at all. */
  maxReplyChars: 128 * 1024,
  /** A reason is shown cut to this. */
  maxReasonChars: 300,
  /**
   * Places a counted verdict moves its pair: up for "conflict", down for "compatible". As many as a
   * person is shown per repository, so a pair just below the cut can come into view, and one just
   * above it can leave: the model reorders, it never removes.
   */
  rankShift: 8,
} as const;

/** Marks a line sent cut. */
export const CUT_MARK = ' [cut]';
