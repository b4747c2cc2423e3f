import { esc } from "./escape";
import { stringsFor } from "./strings";

/** Where the article's feedback stands for this page view: the question, after a vote, or done. */
export type FeedbackState = "ask" | "yes" | "no" | "sent";

export const feedbackState = (param: string | null): FeedbackState =>
  param === "yes" || param === "no" || param === "sent" ? param : "ask";

/** Longest comment kept (the textarea's maxlength; the server refuses more). */
export const COMMENT_MAX = 500;

/** The path of the one script help-center pages may run (the progressive "Was this helpful?"). */
export const FEEDBACK_SCRIPT_PATH = "/hc/helpful.js";

/**
 * What is inside `<section id="feedback">` in each state: plain forms that POST (no script
 * needed), the same markup the script swaps in from the POST's JSON answer.
 */
export function feedbackInner(locale: string, action: string, state: FeedbackState): string {
  const t = stringsFor(locale);
  const form = (inner: string) => `<form method="post" action="${esc(action)}">${inner}</form>`;
  if (state === "ask") {
    return form(
      `<h2 id="fb-h">${esc(t.helpful)}</h2><div class="fb-b"><button name="helpful" value="yes">${esc(t.yes)}</button><button name="helpful" value="no">${esc(t.no)}</button></div>`,
    );
  }
  const status = (text: string) => `<p id="fb-h" class="fb-t" tabindex="-1">${esc(text)}</p>`;
  if (state === "sent") {
    return status(t.sent);
  }
  return `${status(t.thanks)}${form(
    `<input type="hidden" name="helpful" value="${state}"><label for="fb-c">${esc(state === "yes" ? t.addMore : t.whatMissing)}</label><textarea id="fb-c" name="comment" rows="3" maxlength="${COMMENT_MAX}" required></textarea><button>${esc(t.send)}</button>`,
  )}`;
}

/** The section under an article (the script moves the focus to its new first line). */
export const feedbackSection = (locale: string, action: string, state: FeedbackState) =>
  `<section id="feedback" class="fb" aria-labelledby="fb-h">${feedbackInner(locale, action, state)}</section>`;

/**
 * The progressive part: a vote or comment goes by fetch and the section shows the server's next
 * state in place; if that fails, the form is sent the ordinary way. Served as a file (the CSP
 * allows this one script by path), the same bytes for every portal.
 */
export const FEEDBACK_SCRIPT = `(()=>{const s=document.getElementById("feedback");if(!s||!window.fetch)return;s.addEventListener("submit",async e=>{const f=e.target;if(!(f instanceof HTMLFormElement)||f.dataset.sent)return;e.preventDefault();const b=new URLSearchParams(new FormData(f)),k=e.submitter;if(k&&k.name)b.set(k.name,k.value);for(const x of f.querySelectorAll("button"))x.disabled=true;try{const r=await fetch(f.action,{method:"POST",body:b,headers:{accept:"application/json"},credentials:"same-origin"});const d=await r.json();if(!r.ok||typeof d.html!=="string")throw 0;s.innerHTML=d.html;const n=s.querySelector("#fb-h");n&&n.focus()}catch{f.dataset.sent="1";if(k&&k.name){const h=document.createElement("input");h.type="hidden";h.name=k.name;h.value=k.value;f.append(h)}f.submit()}})})();`;
