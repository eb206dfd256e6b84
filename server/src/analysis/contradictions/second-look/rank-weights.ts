// Written by scripts/fit-second-look-rank.ts from the judged pairs of the build data: do not edit by hand.
import type { FEATURES } from './rank-features.js';

/** One number a feature, in the order of FEATURES (a tuple of its length: a feature added without its weights does not type-check). */
type Each<T extends readonly unknown[]> = { readonly [K in keyof T]: number };
type PerFeature = Each<typeof FEATURES>;

export const RANK_MODEL: { mean: PerFeature; scale: PerFeature; weights: PerFeature; bias: number } = {
  mean: [
    0.2608, 0.7072, 1.8851, 0.1305, 0.2386, 0.2411, 0.0696, 0.1764, 0.2486, 0.1869, 0.1426, 0.6123, 0.12, 0.0151, 0.4179, 0.026, 0.032,
    0.098, 0.1138, 0.0143, 0.0849, 0.0848, 0.3077, 0.3675, 0.0292, 0.1155, 0.1256, 0.4299, 0.2956,
  ],
  scale: [
    0.218, 0.1631, 2.1618, 0.305, 0.4262, 0.4278, 0.2545, 0.3812, 0.4322, 0.3898, 0.2699, 0.2616, 0.325, 0.0772, 0.4932, 0.1592, 0.1761,
    0.2973, 0.3176, 0.1186, 0.4071, 0.2787, 0.2192, 0.4821, 0.0765, 0.2094, 0.2762, 0.2706, 0.3383,
  ],
  weights: [
    0.0598, -0.2209, -0.3081, 0.2668, -0.0541, -0.1116, 0.0086, -0.4381, 0.3893, 0.2472, 0.7008, -0.2303, 0.322, 0.4424, 0.0729, 0.1369,
    0.1314, 0.0561, 0.0811, 0.1675, 0.1614, 0.3056, -0.2092, -0.2976, 0.3555, -1.2597, 0.076, 0.6145, 0.6732,
  ],
  bias: -1.2411,
};
