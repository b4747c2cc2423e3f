import { Composer } from "../components/Composer";
import { Header } from "../components/Header";
import { MessageList } from "../components/MessageList";
import { Notices } from "../components/Notices";
import { ResolvedBar } from "../components/ResolvedBar";
import { resolved } from "../state/conversation";

/** The chat: header, notices, the message log, then the composer (or a way to start over). */
export function Conversation() {
  return (
    <>
      <Header help />
      <Notices />
      <MessageList />
      {resolved.value ? <ResolvedBar /> : <Composer />}
    </>
  );
}
