/** The events partners are told of (catalogue.ts): types, data schemas, samples, plans. */
export {
  EVENT_CATALOGUE,
  EVENT_TYPES,
  eventsOfPlan,
  isEventType,
  JobCounts,
  lowestPlanName,
  MappingCompletedCore,
  MappingCompletedData,
  planAllowsEvent,
  sampleData,
  type EventData,
  type EventType,
  type PartnerEvent,
} from './catalogue';
