/** The help center's English strings; the other locales carry them in ./locales/<code>.json. */
export const helpEn = {
  help_search: "Search for help",
  help_search_placeholder: "Search articles…",
  help_popular: "Popular articles",
  help_results: "Search results",
  help_none: "No articles found.",
  help_loading: "Loading articles…",
  help_error: "The articles could not be loaded.",
  help_back: "Back",
  help_still: "Still need help?",
  help_chat: "Chat with us",
  help_back_chat: "Back to the conversation",
  help_open_full: "Open in the help center",
};

export type HelpKey = keyof typeof helpEn;
