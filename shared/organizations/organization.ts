import type { PlanType } from './plans';

export interface Organization {
  id: string;
  name: string;
  planType: PlanType;
  createdAt: string;
  /** Distinct suppliers ever connected; the supplier budget counts these, not current connections. */
  suppliersEverConnected: number;
}
