/**
 * The AWS list prices the cost benchmark bills with and the operator's guide's idle cost is figured at: AWS us-east-1 (N. Virginia), on-demand, arm64, in US
 * dollars, as published on each service's pricing page (operator's guide, "Unit cost"). One table,
 * dated: when a price changes, change it here and the date with it.
 */
export const PRICES = {
  asOf: '2026-11-28',
  region: 'us-east-1',
  dynamoDb: {
    /** On-demand: per million write request units and read request units. */
    perMillionWriteUnits: 0.625,
    perMillionReadUnits: 0.125,
    /** Standard table class: per GB-month of table and index storage. */
    storagePerGbMonth: 0.25,
    /** Continuous backups (point-in-time recovery): per GB-month of table size. */
    pitrPerGbMonth: 0.2,
  },
  s3: {
    storagePerGbMonth: 0.023,
    /** PUT, COPY, POST, LIST: per thousand requests. */
    perThousandWrites: 0.005,
    /** GET, HEAD and the rest: per thousand requests. */
    perThousandReads: 0.0004,
  },
  sqs: { perMillionRequests: 0.4, perMillionFifoRequests: 0.5 },
  scheduler: { perMillionSchedules: 1.0 },
  lambda: {
    /** arm64, first 6 billion GB-seconds a month. */
    perGbSecond: 0.0000133334,
    perMillionRequests: 0.2,
  },
  /**
   * AWS Backup warm storage, per GB-month, for a stage that retains its data (a daily plan, each
   * recovery point kept 35 days). S3 backups are incremental: a file is held once, until 35 days
   * after it is deleted. DynamoDB backups are full copies: an item is held once by each day's copy.
   */
  backup: { s3PerGbMonth: 0.05, dynamoDbPerGbMonth: 0.1 },
  apiGateway: { perMillionRequests: 3.5 },
  /** CloudWatch Logs, standard class: per GB ingested (log lines and embedded-metric lines alike). */
  cloudWatchLogs: { ingestionPerGb: 0.5 },
  /** Data transfer out of AWS to the internet, the first 10 TB a month (answers and downloads alike). */
  dataTransferOut: { perGb: 0.09 },
  waf: { perMillionRequests: 0.6 },
  /**
   * X-Ray: traces recorded. Lambda samples an invocation no upstream service decided for (a queue
   * worker's) at its own fixed rate, 5 % beyond one a second.
   */
  xray: { perMillionTracesRecorded: 5, lambdaFixedRate: 0.05 },
} as const;

/**
 * The price a million mappings sell for (one million credits) and the budget of this issue, a tenth
 * of it. Compared with dollar costs at one dollar to the euro: a dollar is worth less than a euro,
 * so the comparison overstates the cost, never the margin.
 */
export const MILLION_MAPPINGS_PRICE_EUR = 1;
export const COST_BUDGET_SHARE = 0.1;

/**
 * The share of the budget a job's table writes may take (the suite checks it on a small job): the
 * rest goes to functions, files, requests and storage, which bench:cost measures.
 */
export const JOB_TABLE_WRITES_BUDGET_SHARE = 0.1;

/** Write units a mapped row may cost within that share: 0.016 at $0.625 per million. */
export const WRITE_UNITS_PER_ROW_BUDGET =
  (MILLION_MAPPINGS_PRICE_EUR * COST_BUDGET_SHARE * JOB_TABLE_WRITES_BUDGET_SHARE) / PRICES.dynamoDb.perMillionWriteUnits;

/**
 * What an idle stage pays a month: us-east-1 list prices, on each service's pricing page. SQS's
 * request price is PRICES'; the rest are billed by the month, so bench:cost, which bills a
 * mapping's life, has none of them (the operator's guide's stack figures use them).
 */
export const IDLE_PRICES = {
  asOf: 'November 2026',
  region: PRICES.region,
  webAcl: { perAclMonth: 5, perRuleMonth: 1 },
  /** Standard-resolution alarms are billed per metric they watch: a metric math alarm, per metric in its expression. */
  alarmPerMetricMonth: 0.1,
  /** Beyond an account's first three dashboards. */
  dashboardPerMonth: 3,
  kmsKeyPerMonth: 1,
  secretPerMonth: 0.4,
  /** Provisioned concurrency, arm64: per GB-second an instance is kept initialized, whether or not it serves. */
  lambdaProvisionedPerGbSecond: 0.0000033334,
  /** A month of 30 days. */
  secondsPerMonth: 2_592_000,
  sqs: {
    perMillionRequests: PRICES.sqs.perMillionRequests,
    freeRequestsMonth: 1_000_000,
    /**
     * Estimated: Lambda polls an idle queue with about five 20-second long polls at a time, about
     * 5 × 3 a minute × 43,200 minutes a month.
     */
    pollerRequestsPerQueueMonth: 650_000,
  },
} as const;
