export * from "./accounts";
export * from "./users";
export * from "./access";
export * from "./inboxes";
export * from "./agent-bots";
export * from "./teams";
export * from "./labels";
