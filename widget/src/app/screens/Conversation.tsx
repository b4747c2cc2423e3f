import { INCOMING } from "../api/types";
import { Composer } from "../components/Composer";
import { Header } from "../components/Header";
import { MessageList } from "../components/MessageList";
import { Notices } from "../components/Notices";
import { ResolvedBar } from "../components/ResolvedBar";
import { extras, needExtras } from "../extras";
import { messages, pending, resolved } from "../state/conversation";
import { session } from "../state/session";
import { emailDismissed, settings } from "../state/ui";

/** The chat: header, notices, the message log, then the composer (or a way to start over). */
export function Conversation() {
  const askEmail =
    settings.value?.enable_email_collect &&
    session.value &&
    !session.value.email &&
    pending.value.length === 0 &&
    !resolved.value &&
    !emailDismissed.value &&
    messages.value.some((m) => m.message_type === INCOMING);
  const X = extras.value;
  if (askEmail) {
    needExtras();
  }
  return (
    <>
      <Header help />
      <Notices />
      <MessageList />
      {askEmail && X && <X.EmailCollect />}
      {resolved.value ? <ResolvedBar /> : <Composer />}
    </>
  );
}
