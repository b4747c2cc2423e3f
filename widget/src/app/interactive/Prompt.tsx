// Bots' and agents' interactive messages (Chatwoot's content types), below their bubble:
// buttons, a form, cards, article links, an email field and the CSAT rating. Answers go through
// the public message update (PATCH …/messages/{id} with submitted_values) once; the message
// keeps them, so it shows answered after a reload too.
import type { JSX } from "preact";
import type { Message } from "../api/types";
import { t } from "../i18n";
import { queueText } from "../state/outbox";
import { answer, failed, sending } from "./answer";
import { type Attrs, answers, csatAnswer, list, str, submitted, url } from "./shapes";
import { pt } from "./strings";

const FACES = ["😞", "😕", "😐", "🙂", "😍"];
const A = { target: "_blank", rel: "noopener noreferrer nofollow" };

/** The values of a submitted <form>, by field name. */
const valuesOf = (form: HTMLFormElement) =>
  Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v)]));

function Status({ id }: { id: number }) {
  return failed.value === id ? (
    <p class="pw-error" role="alert">
      {pt("prompt_error")}
    </p>
  ) : null;
}

function Options({ m }: { m: Message }) {
  const chosen = (submitted(m.content_attributes) as Attrs[] | undefined)?.[0];
  const busy = sending.value !== null;
  return (
    <fieldset class="pw-options" aria-label={m.content ?? undefined}>
      {list(m.content_attributes).map((item, i) => {
        const picked = Boolean(chosen) && str(chosen?.value) === str(item.value);
        return (
          <button
            key={i}
            type="button"
            class={picked ? "pw-option pw-picked" : "pw-option"}
            aria-pressed={chosen ? picked : undefined}
            disabled={Boolean(chosen) || busy}
            onClick={() => void answer(m.id, [{ title: str(item.title), value: str(item.value) }])}
          >
            {str(item.title)}
          </button>
        );
      })}
      <Status id={m.id} />
    </fieldset>
  );
}

function Form({ m }: { m: Message }) {
  const done = answers(m.content_attributes);
  const items = list(m.content_attributes);
  return (
    <form
      class="pw-form"
      onSubmit={(e) => {
        e.preventDefault();
        const values = valuesOf(e.currentTarget);
        void answer(
          m.id,
          items.map((item, i) => ({
            name: str(item.name),
            title: str(item.label),
            value: values[`f${i}`] ?? "",
          })),
        );
      }}
    >
      {items.map((item, i) => {
        const id = `pw-f${m.id}-${i}`;
        const type = str(item.type);
        const field = {
          id,
          name: `f${i}`,
          required: item.required === true,
          disabled: Boolean(done),
          placeholder: str(item.placeholder) || undefined,
          value: done ? (done[str(item.name)] ?? "") : undefined,
          defaultValue: done ? undefined : str(item.default) || undefined,
        };
        return (
          <div key={i}>
            <label for={id}>{str(item.label) || str(item.name)}</label>
            {type === "text_area" ? (
              <textarea rows={3} {...field} />
            ) : type === "select" ? (
              <select {...field}>
                {list(item, "options").map((o, j) => (
                  <option key={j} value={str(o.value)}>
                    {str(o.label) || str(o.value)}
                  </option>
                ))}
              </select>
            ) : type === "email" ? (
              <input type="email" {...field} />
            ) : (
              <input type="text" {...field} />
            )}
          </div>
        );
      })}
      {!done && (
        <button type="submit" class="pw-button" disabled={sending.value !== null}>
          {str((m.content_attributes as Attrs).button_label) || pt("prompt_submit")}
        </button>
      )}
      <Status id={m.id} />
    </form>
  );
}

function Email({ m }: { m: Message }) {
  const done = answers(m.content_attributes)?.email;
  const id = `pw-e${m.id}`;
  return (
    <form
      class="pw-form pw-inline"
      onSubmit={(e) => {
        e.preventDefault();
        const email = valuesOf(e.currentTarget).email?.trim() ?? "";
        void answer(m.id, [{ name: "email", title: t("email"), value: email }], email);
      }}
    >
      <label for={id} class="pw-sr">
        {t("email")}
      </label>
      <input
        id={id}
        name="email"
        type="email"
        autoComplete="email"
        required
        placeholder="you@example.com"
        disabled={done !== undefined}
        value={done}
      />
      {done === undefined && (
        <button type="submit" class="pw-button" disabled={sending.value !== null}>
          {t("save")}
        </button>
      )}
      <Status id={m.id} />
    </form>
  );
}

function Csat({ m }: { m: Message }) {
  const done = csatAnswer(m.content_attributes);
  if (done) {
    return (
      <div class="pw-csat" role="status">
        <span aria-hidden="true">{FACES[done.rating - 1]}</span>{" "}
        {pt(`csat_${done.rating}` as "csat_1")}. {pt("csat_thanks")}
        {done.feedback && <p dir="auto">{done.feedback}</p>}
      </div>
    );
  }
  return (
    <form
      class="pw-form pw-csat"
      onSubmit={(e) => {
        e.preventDefault();
        const values = valuesOf(e.currentTarget);
        const feedback = values.feedback?.trim() || null;
        void answer(m.id, {
          csat_survey_response: { rating: Number(values.rating), feedback_message: feedback },
        });
      }}
    >
      <fieldset>
        <legend>{pt("csat_legend")}</legend>
        {FACES.map((face, i) => (
          <label key={face} class="pw-face" title={pt(`csat_${i + 1}` as "csat_1")}>
            <input type="radio" name="rating" value={i + 1} required class="pw-sr" />
            <span aria-hidden="true">{face}</span>
            <span class="pw-sr">{pt(`csat_${i + 1}` as "csat_1")}</span>
          </label>
        ))}
      </fieldset>
      <label for={`pw-c${m.id}`} class="pw-sr">
        {pt("csat_comment")}
      </label>
      <textarea
        id={`pw-c${m.id}`}
        name="feedback"
        rows={2}
        maxLength={1000}
        placeholder={pt("csat_comment")}
      />
      <button type="submit" class="pw-button" disabled={sending.value !== null}>
        {pt("prompt_submit")}
      </button>
      <Status id={m.id} />
    </form>
  );
}

function Cards({ m }: { m: Message }) {
  return (
    <ul class="pw-cards">
      {list(m.content_attributes).map((card, i) => {
        const image = url(card.media_url);
        return (
          <li key={i} class="pw-cardx">
            {image && <img src={image} alt="" loading="lazy" />}
            <b dir="auto">{str(card.title)}</b>
            {str(card.description) && <p dir="auto">{str(card.description)}</p>}
            {list(card, "actions").map((action, j) => {
              const href = url(action.uri);
              const text = str(action.text);
              // A postback answers as the visitor would (Chatwoot sends its payload).
              return action.type === "postback" ? (
                <button
                  key={j}
                  type="button"
                  class="pw-option"
                  onClick={() => queueText(str(action.payload) || text)}
                >
                  {text}
                </button>
              ) : href ? (
                <a key={j} class="pw-option" href={href} {...A}>
                  {text || href}
                </a>
              ) : null;
            })}
          </li>
        );
      })}
    </ul>
  );
}

function Articles({ m }: { m: Message }) {
  return (
    <ul class="pw-cards">
      {list(m.content_attributes).map((item, i) => {
        const href = url(item.link);
        return href ? (
          <li key={i} class="pw-cardx">
            <a href={href} {...A}>
              {str(item.title) || href}
            </a>
            {str(item.description) && <p dir="auto">{str(item.description)}</p>}
          </li>
        ) : null;
      })}
    </ul>
  );
}

const KINDS: Record<string, (p: { m: Message }) => JSX.Element> = {
  input_select: Options,
  form: Form,
  input_email: Email,
  input_csat: Csat,
  cards: Cards,
  article: Articles,
};

/** The message's controls, or nothing for a content type that has none. */
export function Prompt({ message }: { message: Message }) {
  const Kind = KINDS[message.content_type];
  return Kind ? (
    <div class="pw-prompt">
      <Kind m={message} />
    </div>
  ) : null;
}
