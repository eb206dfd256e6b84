// Written by scripts/fit-second-look-rank.ts from the judged pairs of the build data: do not edit by hand.
import type { FEATURES } from './rank-features.js';

/** One number a feature, in the order of FEATURES (a tuple of its length: a feature added without its weights does not type-check). */
type Each<T extends readonly unknown[]> = { readonly [K in keyof T]: number };
type PerFeature = Each<typeof FEATURES>;

export const RANK_MODEL: { mean: PerFeature; scale: PerFeature; weights: PerFeature; bias: number } = {
  mean: [
    0.2644, 0.7122, 1.9305, 0.1329, 0.2406, 0.2358, 0.0757, 0.18, 0.253, 0.1868, 0.147, 0.6133, 0.12, 0.0151, 0.4252, 0.027, 0.0324, 0.0989,
    0.1157, 0.0151, 0.0899, 0.0847, 0.3111, 0.3935, 0.0302, 0.1185, 0.1265,
  ],
  scale: [
    0.2204, 0.1613, 2.2199, 0.3069, 0.4274, 0.4245, 0.2644, 0.3842, 0.4347, 0.3898, 0.2735, 0.2617, 0.325, 0.0771, 0.4944, 0.1622, 0.1771,
    0.2986, 0.3199, 0.1218, 0.4232, 0.2784, 0.2246, 0.4885, 0.0785, 0.2119, 0.2779,
  ],
  weights: [
    0.6332, 0.1548, 0.0707, 0.4257, 0.0668, -0.1473, 0.1023, -0.4885, 0.2706, 0.351, 0.3152, -0.5056, 0.2547, 0.4604, 0.1278, 0.207, 0.0823,
    -0.054, -0.0162, 0.2822, 0.2215, 0.2969, -0.0724, -0.2752, 0.4617, -1.3259, -0.0627,
  ],
  bias: -1.152,
};
