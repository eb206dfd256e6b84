// Written by scripts/fit-second-look-rank.ts from the judged pairs of the build data: do not edit by hand.
import type { FEATURES } from './rank-features.js';

/** One number a feature, in the order of FEATURES (a tuple of its length: a feature added without its weights does not type-check). */
type Each<T extends readonly unknown[]> = { readonly [K in keyof T]: number };
type PerFeature = Each<typeof FEATURES>;

export const RANK_MODEL: { mean: PerFeature; scale: PerFeature; weights: PerFeature; bias: number } = {
  mean: [0.1695, 0.5931, 0.9641, 0.042, 0.1322, 0.2751, 0.1863, 0.157, 0.2315, 0.1242, 0.0547, 0.5861, 0.0154, 0.0019, 0.3178, 0.0194, 0.0255, 0.0228, 0.0727, 0.0023, 0.0142, 0.0795, 0.2706, 0.6863, 0.0175, 0.0454, 0.0775],
  scale: [0.1293, 0.1197, 0.814, 0.1659, 0.3388, 0.4466, 0.3893, 0.3638, 0.4218, 0.3298, 0.1397, 0.254, 0.1232, 0.0281, 0.4656, 0.138, 0.1575, 0.1494, 0.2596, 0.048, 0.1559, 0.2705, 0.1922, 0.464, 0.0493, 0.091, 0.2106],
  weights: [0.0808, 0.4754, 0.2636, 0.337, 0.3666, -0.3523, -0.0004, -0.1814, 0.4212, 0.3393, 0.3832, -0.2357, 0.2689, 0.2304, -0.0024, 0.2668, 0.0067, -0.1047, -0.0725, 0.138, 0.1181, 0.2204, -0.4983, -0.5388, 0.2, -0.4969, -0.3645],
  bias: -3.6843,
};
