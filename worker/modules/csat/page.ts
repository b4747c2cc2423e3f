import { html } from "hono/html";
import { FORM_PAGE_BASE_STYLE, formPageHeaders } from "../../lib/form-page";
import { answerOf } from "./presenter";
import type { Survey } from "./service";

/**
 * The survey page a link opens (Chatwoot's `/survey/responses/{uuid}`), for inboxes without the
 * widget: a plain HTML form, no script at all, never cached or framed.
 */
export const SURVEY_PAGE_HEADERS = formPageHeaders({ script: false });

const STYLE = `${FORM_PAGE_BASE_STYLE}
main{max-width:30rem;margin:8vh auto 2rem;padding:0 1rem}.card{padding:1.75rem;background:var(--card);border:1px solid var(--bd);border-radius:14px}
h1{font-size:1.4rem;margin:0 0 .5rem}.mu{color:var(--mu)}fieldset{border:0;margin:1rem 0;padding:0}legend{font-weight:600;margin-bottom:.5rem}
.rates{display:flex;gap:.4rem;flex-wrap:wrap}.rates label{flex:1;min-width:3.5rem;text-align:center;padding:.5rem .25rem;border:1px solid var(--bd);border-radius:10px;cursor:pointer;font-size:1.5rem}
.rates label span{display:block;font-size:.8rem;color:var(--mu)}.rates input{position:absolute;opacity:0}.rates input:checked+label{border-color:var(--ac);outline:2px solid var(--ac)}
.rates input:focus-visible+label{outline:3px solid var(--fg)}
label.fb{display:block;font-weight:600;margin:1rem 0 .3rem}textarea{width:100%;min-height:6rem;padding:.6rem;font:inherit;color:var(--fg);background:var(--card);border:1px solid var(--bd);border-radius:8px}
.btn{display:block;width:100%;margin-top:1.2rem;padding:.75rem;font:inherit;font-weight:600;color:var(--ac-fg);background:var(--ac);border:0;border-radius:8px;cursor:pointer}
.error{color:var(--err);font-weight:600}`;

/** Chatwoot's emoji scale, 1 to 5. */
const FACES = ["😞", "😑", "😐", "😀", "😍"] as const;
const WORDS = ["Very poor", "Poor", "Okay", "Good", "Excellent"] as const;

const shell = (title: string, body: ReturnType<typeof html>) => html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name="robots" content="noindex" />
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body><main><div class="card">${body}</div></main></body>
</html>`;

export function surveyPage(survey: Survey, opts: { error?: string; thanks?: boolean } = {}) {
  const given = answerOf(survey.message);
  const action = `/survey/responses/${survey.conversation.uuid}`;
  if (opts.thanks || (given && survey.locked)) {
    return shell(
      "Thank you",
      html`<h1>Thank you for your feedback</h1>
<p class="mu">${survey.inboxName}</p>
${given ? html`<p>You rated this conversation ${given.rating} of 5${given.feedback_message ? html`: “${given.feedback_message}”` : ""}.</p>` : ""}`,
    );
  }
  if (survey.locked) {
    return shell(
      "Survey closed",
      html`<h1>This survey is closed</h1><p class="mu">It can be answered for 14 days.</p>`,
    );
  }
  const rates = FACES.map((face, i) => {
    const value = i + 1;
    const checked = given?.rating === value;
    return html`<input type="radio" id="r${value}" name="rating" value="${value}" required${checked ? html` checked` : ""} /><label for="r${value}">${face}<span>${value} · ${WORDS[i]}</span></label>`;
  });
  return shell(
    "Rate the conversation",
    html`<h1>Rate your conversation</h1>
<p class="mu">${survey.inboxName}</p>
${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : ""}
<form method="post" action="${action}">
<fieldset><legend>How was it?</legend><div class="rates">${rates}</div></fieldset>
<label class="fb" for="feedback_message">Anything to add? (optional)</label>
<textarea id="feedback_message" name="feedback_message" maxlength="2000">${given?.feedback_message ?? ""}</textarea>
<button class="btn" type="submit">${given ? "Change my answer" : "Send"}</button>
</form>`,
  );
}

export const notFoundPage = () =>
  shell(
    "Survey not found",
    html`<h1>Survey not found</h1><p class="mu">This link leads to no survey.</p>`,
  );
