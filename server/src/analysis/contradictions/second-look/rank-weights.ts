// Written by scripts/fit-second-look-rank.ts from the judged pairs of the build data: do not edit by hand.
import type { FEATURES } from './rank-features.js';

/** One number a feature, in the order of FEATURES (a tuple of its length: a feature added without its weights does not type-check). */
type Each<T extends readonly unknown[]> = { readonly [K in keyof T]: number };
type PerFeature = Each<typeof FEATURES>;

export const RANK_MODEL: { mean: PerFeature; scale: PerFeature; weights: PerFeature; bias: number } = {
  mean: [
    0.2536, 0.7012, 1.825, 0.128, 0.2365, 0.2487, 0.0674, 0.1756, 0.244, 0.1875, 0.1341, 0.6068, 0.1195, 0.0151, 0.416, 0.0247, 0.0309,
    0.0977, 0.1088, 0.0135, 0.0798, 0.0823, 0.3009, 0.3584, 0.0288, 0.1093, 0.1251, 0.4322, 0.2871,
  ],
  scale: [
    0.2122, 0.1636, 2.1244, 0.3043, 0.4249, 0.4323, 0.2508, 0.3805, 0.4295, 0.3903, 0.2621, 0.2621, 0.3244, 0.0773, 0.4929, 0.1551, 0.1729,
    0.2969, 0.3114, 0.1153, 0.391, 0.2748, 0.2169, 0.4795, 0.0755, 0.2028, 0.2747, 0.2717, 0.3382,
  ],
  weights: [
    0.2536, -0.2516, -0.0754, 0.3017, 0.0994, -0.1225, -0.0821, -0.1608, 0.3303, -0.0175, 0.5664, -0.2112, 0.4413, 0.3349, 0.0713, 0.1185,
    0.0609, 0.0185, 0.0489, 0.1637, 0.1034, 0.2456, -0.2179, -0.2889, 0.2042, -1.2243, 0.1747, 0.5864, 0.4792,
  ],
  bias: -0.9624,
};
