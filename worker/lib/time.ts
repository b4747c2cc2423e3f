export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Unix seconds to an ISO 8601 string, for the records the spec types as date-time. */
export const isoFromSeconds = (seconds: number) => new Date(seconds * 1000).toISOString();
