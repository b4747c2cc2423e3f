import { render } from "@testing-library/preact";
import { afterEach, describe, expect, it } from "vitest";
import { NO_READ } from "../../dashboard/src/state/read-mark";
import { contactSeen, conversation, messages } from "../../dashboard/src/state/thread";
import { Thread } from "../../dashboard/src/ui/Thread";
import { conversationOf, messageOf } from "./fixtures";

afterEach(() => {
  conversation.value = null;
  messages.value = [];
  contactSeen.value = NO_READ;
});

const SECOND = 1_700_000_100;
const reply = (seq: number) =>
  messageOf(seq, { seq, message_type: 1, created_at: SECOND, content: `reply ${seq}` });
const seenOn = (root: Element) =>
  [...root.querySelectorAll(".msg")].map((li) => li.textContent?.includes("Seen") ?? false);

describe('the agents\' "Seen"', () => {
  it("covers the replies up to the contact's read, not one stored after it in the same second", () => {
    conversation.value = conversationOf(1, {
      contact_last_seen_at: SECOND,
      contact_last_seen_seq: 1,
    });
    messages.value = [reply(1), reply(2)];
    contactSeen.value = { at: SECOND, seq: 1 };
    const { container } = render(<Thread accountId={1} />);
    // A time comparison (created_at <= the read) would call both seen.
    expect(seenOn(container)).toEqual([true, false]);
  });

  it("falls back to time for a mark stored without a seq", () => {
    conversation.value = conversationOf(1);
    messages.value = [reply(1), messageOf(2, { seq: 2, message_type: 1, created_at: SECOND + 1 })];
    contactSeen.value = { at: SECOND, seq: null };
    const { container } = render(<Thread accountId={1} />);
    expect(seenOn(container)).toEqual([true, false]);
  });
});
