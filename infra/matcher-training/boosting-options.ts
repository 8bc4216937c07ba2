import { DEFAULT_BOOSTING, type BoostingOptions } from './gradient-boosting';

/** The boosting options the committed match model is fitted with (chosen by leave-one-set-out F1: see shared/mapping/README.md). */
export const MATCHER_BOOSTING: BoostingOptions = { ...DEFAULT_BOOSTING, trees: 50, depth: 4, learningRate: 0.2 };
