/** Organizations: the tenants, and the plan each is on. Created by the platform team (no public routes). */
export type { Organization } from './organization';
export { isPlanType, PLAN_LIMITS, PLAN_TYPES, type PlanLimits, type PlanType } from './plans';
export { organizationKey, organizationStoreOf, OrganizationStore } from './store';
export { createOrganization } from './operations';
