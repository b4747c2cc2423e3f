/** The interactive chunk's English strings; the other locales carry them in ./locales/<code>.json. */
export const promptEn = {
  prompt_submit: "Submit",
  prompt_error: "Not sent. Try again.",
  csat_legend: "Rate the conversation",
  csat_1: "Very dissatisfied",
  csat_2: "Dissatisfied",
  csat_3: "Neutral",
  csat_4: "Satisfied",
  csat_5: "Very satisfied",
  csat_comment: "Anything to add? (optional)",
  csat_thanks: "Thank you for your feedback",
};

export type PromptKey = keyof typeof promptEn;
