/**
 * What travels on the EVENTS queue: ids only, the consumer loads the rows. An outbox event is
 * fanned out into deliveries, and each delivery travels as its own message, so one slow or
 * dead receiver never holds up another's.
 */
export type QueueMessage = { kind: "event"; id: number } | { kind: "delivery"; id: number };
