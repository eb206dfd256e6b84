// Written by scripts/fit-second-look-rank.ts from the judged pairs of the build data: do not edit by hand.
import type { FEATURES } from './rank-features.js';

/** One number a feature, in the order of FEATURES (a tuple of its length: a feature added without its weights does not type-check). */
type Each<T extends readonly unknown[]> = { readonly [K in keyof T]: number };
type PerFeature = Each<typeof FEATURES>;

export const RANK_MODEL: { mean: PerFeature; scale: PerFeature; weights: PerFeature; bias: number } = {
  mean: [
    0.259, 0.7058, 1.8732, 0.1298, 0.2381, 0.244, 0.0694, 0.1759, 0.2479, 0.1866, 0.1405, 0.6087, 0.1201, 0.0152, 0.4145, 0.0261, 0.0317,
    0.0981, 0.1133, 0.0142, 0.085, 0.0844, 0.3056, 0.3642, 0.0291, 0.1141, 0.1253, 0.4304, 0.2933,
  ],
  scale: [
    0.2168, 0.1628, 2.1711, 0.3049, 0.4259, 0.4295, 0.2542, 0.3807, 0.4318, 0.3896, 0.2685, 0.2632, 0.3251, 0.0777, 0.4926, 0.1595, 0.1751,
    0.2975, 0.317, 0.1185, 0.4052, 0.278, 0.2207, 0.4812, 0.0764, 0.2082, 0.2756, 0.2707, 0.3389,
  ],
  weights: [
    -0.0152, -0.2905, -0.0373, 0.2256, -0.07, -0.1116, 0.0086, -0.2467, 0.318, 0.2022, 0.7602, -0.1507, 0.3223, 0.3801, 0.1941, 0.1151,
    0.0902, 0.0563, 0.0517, 0.1644, 0.0852, 0.261, -0.2629, -0.3493, 0.2504, -1.3201, 0.184, 0.5747, 0.5295,
  ],
  bias: -1.0538,
};
