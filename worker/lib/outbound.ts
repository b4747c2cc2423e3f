/**
 * Outbound HTTP to webhook receivers and agent bots. Production uses the platform's fetch; tests
 * hand in a recording implementation through the deps (STYLE §3.8), never a module mock.
 */
export type Outbound = (request: Request) => Promise<Response>;

export const realOutbound: Outbound = (request) => fetch(request);
