/** Document metadata for /openapi.json; the paths come from the route definitions. */
export const openApiConfig = (version: string) => ({
  openapi: "3.1.0",
  info: {
    title: "Parley API",
    version,
    description:
      "Customer conversation service. Account API (`api_access_token` of a user or agent bot), " +
      "platform API (platform app token) and public API (inbox and contact identifiers). " +
      "Chatwoot-compatible where the Parley spec is silent.",
  },
  security: [{ api_access_token: [] }],
  tags: [],
});

export const securitySchemes = {
  api_access_token: {
    type: "apiKey" as const,
    in: "header" as const,
    name: "api_access_token",
    description:
      "A user's or agent bot's access token (account API), or a platform app token (platform API).",
  },
};
