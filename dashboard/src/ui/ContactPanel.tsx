import { useEffect, useState } from "preact/hooks";
import { acct, request } from "../lib/api";
import { ago } from "../lib/format";
import type { Contact, Conversation } from "../lib/types";
import { conversationPath } from "../state/route";
import { shownFor } from "../state/thread";
import { link } from "./SignIn";

/** A contact attribute the account defined (values of others are refused by the API). */
type Definition = { attribute_key: string; attribute_display_name: string };

const show = (v: unknown) =>
  v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);

/** The contact: fields, editable custom attributes, and their other conversations. */
export function ContactPanel({ accountId, c }: { accountId: number; c: Conversation }) {
  const id = c.meta.sender?.id;
  const [contact, setContact] = useState<Contact | null>(null);
  const [others, setOthers] = useState<Conversation[]>([]);
  const [defs, setDefs] = useState<Definition[]>([]);
  const [error, setError] = useState("");
  // Once the thread shows its messages: on a first open, that read goes alone to the server.
  const ready = shownFor.value === c.id;
  useEffect(() => {
    if (!id || !ready) {
      return;
    }
    let live = true;
    setContact(null);
    request<{ payload: Contact }>(acct(accountId, `/contacts/${id}`))
      .then((b) => live && setContact(b.payload ?? (b as unknown as Contact)))
      .catch(() => undefined);
    request<Definition[]>(
      acct(accountId, "/custom_attribute_definitions?attribute_model=contact_attribute"),
    )
      .then((d) => live && setDefs(Array.isArray(d) ? d : []))
      .catch(() => undefined);
    request<{ payload: Conversation[] }>(acct(accountId, `/contacts/${id}/conversations`))
      .then((b) => live && setOthers(b.payload.filter((o) => o.id !== c.id)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [accountId, id, c.id, ready]);
  if (!contact) {
    return <aside class="contact-pane" aria-label="Contact" />;
  }
  const location = [
    contact.additional_attributes?.city,
    contact.additional_attributes?.country,
  ].filter(Boolean);
  const save = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const key = String(form.get("key") ?? "");
    if (!key) {
      return;
    }
    try {
      const body = await request<{ payload: Contact }>(acct(accountId, `/contacts/${id}`), {
        method: "PATCH",
        json: { custom_attributes: { [key]: String(form.get("value")) } },
      });
      setContact(body.payload ?? (body as unknown as Contact));
      (e.currentTarget as HTMLFormElement).reset();
      setError("");
    } catch (err) {
      setError(err instanceof Error ? err.message : "Not saved");
    }
  };
  return (
    <aside class="contact-pane" aria-label="Contact">
      <h2>{contact.name || "Visitor"}</h2>
      <dl class="fields">
        <dt>Email</dt>
        <dd>{contact.email || "—"}</dd>
        <dt>Phone</dt>
        <dd>{contact.phone_number || "—"}</dd>
        <dt>Location</dt>
        <dd>{location.length ? location.map(show).join(", ") : "—"}</dd>
        {Object.entries(contact.custom_attributes ?? {}).map(([k, v]) => (
          <>
            <dt>{defs.find((d) => d.attribute_key === k)?.attribute_display_name ?? k}</dt>
            <dd>{show(v)}</dd>
          </>
        ))}
      </dl>
      {defs.length > 0 && (
        <form class="attr-form" onSubmit={save}>
          <h3>Set an attribute</h3>
          <select name="key" aria-label="Attribute">
            {defs.map((d) => (
              <option value={d.attribute_key}>{d.attribute_display_name}</option>
            ))}
          </select>
          <input name="value" aria-label="Attribute value" placeholder="value" maxLength={1000} />
          <button type="submit">Save</button>
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
        </form>
      )}
      <h3>Other conversations</h3>
      {others.length === 0 ? (
        <p class="muted">None</p>
      ) : (
        <ul class="others">
          {others.map((o) => (
            <li>
              <a
                href={`/app${conversationPath(accountId, o.id)}`}
                onClick={link(conversationPath(accountId, o.id))}
              >
                #{o.id} · {o.status} ·{" "}
                <time dateTime={new Date(o.last_activity_at * 1000).toISOString()}>
                  {ago(o.last_activity_at)}
                </time>
              </a>
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
