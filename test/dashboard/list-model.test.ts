import { describe, expect, it } from "vitest";
import type { Conversation, Frame, Message, Summary } from "../../dashboard/src/lib/types";
import { DEFAULT_FILTER, type ListFilter, ListModel } from "../../dashboard/src/state/list-model";
import { conversationOf } from "./fixtures";

const ME = 7;

function conv(id: number, over: Partial<Conversation> = {}): Conversation {
  return conversationOf(id, {
    created_at: 1000 + id,
    updated_at: 1000 + id,
    last_activity_at: 1000 + id,
    meta: {
      sender: { id, name: `Contact ${id}`, email: null, phone_number: null },
      assignee: { id: ME, name: "Me" },
      team: null,
    },
    ...over,
  });
}

function frame(event: string, s: Partial<Summary> & { id: number }, seq = 1): Frame {
  const data: Summary = {
    inbox_id: 1,
    contact_id: s.id,
    status: "open",
    priority: null,
    assignee_id: ME,
    team_id: null,
    snoozed_until: null,
    muted: false,
    last_activity_at: 1000 + s.id,
    updated_at: 1000 + s.id,
    ...s,
  };
  return { event, seq, data: data as unknown as Record<string, unknown> };
}

function msg(id: number, at: number, over: Partial<Message> = {}): Message {
  return {
    id,
    content: `message ${id}`,
    conversation_id: 1,
    message_type: 0,
    seq: id,
    created_at: at,
    private: false,
    status: "sent",
    content_type: "text",
    echo_id: null,
    ...over,
  };
}

/** The feed's message.created: the summary as the message left it, with the message. */
function activity(id: number, m: Message, unread: number, over: Partial<Summary> = {}): Frame {
  const f = frame("message.created", {
    id,
    last_activity_at: m.created_at,
    updated_at: m.created_at,
    ...over,
  });
  return { ...f, data: { ...f.data, unread_count: unread, last_non_activity_message: m } };
}

const model = (f: Partial<ListFilter> = {}) => new ListModel({ ...DEFAULT_FILTER, ...f }, ME);

describe("the conversation list's live merge", () => {
  it("orders a page by latest activity and asks to fetch a new conversation that belongs", () => {
    const m = model();
    m.upsert([conv(1), conv(3), conv(2)], true);
    expect(m.ids).toEqual([3, 2, 1]);
    expect(m.apply(frame("conversation.created", { id: 4 }))).toBe("fetch");
    expect(m.apply(frame("conversation.created", { id: 5, assignee_id: 99 }))).toBe("ignored");
  });

  it("moves a row up on new activity; the preview comes with the message's own frame", () => {
    const m = model();
    m.upsert([conv(1), conv(2)], true);
    expect(
      m.apply(frame("conversation.updated", { id: 1, last_activity_at: 5000, updated_at: 5000 })),
    ).toBe("changed");
    expect(m.ids).toEqual([1, 2]);
  });

  it("a message frame moves its row at once: preview, unread count, time and order", () => {
    const m = model();
    m.upsert([conv(1), conv(2, { last_non_activity_message: msg(20, 1002) })], true);
    expect(m.ids).toEqual([2, 1]);
    expect(m.apply(activity(1, msg(30, 5000), 3))).toBe("changed");
    expect(m.ids).toEqual([1, 2]);
    expect(m.rows.get(1)).toMatchObject({
      unread_count: 3,
      last_activity_at: 5000,
      last_non_activity_message: { id: 30, content: "message 30" },
    });
    // The frame of an older message, late (frames race pages): the preview stays the newest.
    expect(m.apply(activity(1, msg(29, 4990), 2))).toBe("ignored");
    expect(m.rows.get(1)?.last_non_activity_message?.id).toBe(30);
    expect(m.rows.get(1)?.unread_count).toBe(3);
    // A page read before the message does not undo it either.
    m.upsert([conv(1, { last_activity_at: 1001, updated_at: 1001 })], true);
    expect(m.rows.get(1)?.last_non_activity_message?.id).toBe(30);
  });

  it("a message in a conversation the list does not hold asks for it, unless it cannot belong", () => {
    const m = model();
    expect(m.apply(activity(5, msg(50, 6000), 1))).toBe("fetch");
    expect(m.apply(activity(6, msg(60, 6000), 1, { assignee_id: 99 }))).toBe("ignored");
    expect(m.apply(activity(7, msg(70, 6000), 1, { status: "resolved" }))).toBe("ignored");
  });

  it("a message frame whose summary is older than the row still brings its preview", () => {
    const m = model({ assignee: "all" });
    m.upsert([conv(1, { priority: "urgent", updated_at: 3000 })], true);
    const late = activity(1, msg(11, 2900), 1, { updated_at: 2950, priority: null });
    expect(m.apply(late)).toBe("changed");
    expect(m.rows.get(1)).toMatchObject({
      priority: "urgent",
      updated_at: 3000,
      last_non_activity_message: { id: 11 },
    });
  });

  it("ignores a frame older than the row it concerns (out of order), and a duplicate is harmless", () => {
    const m = model({ assignee: "all", status: "all" });
    m.upsert([conv(1, { status: "resolved", updated_at: 2000 })], true);
    // The feed's older "open" arrives after the page that already has "resolved".
    expect(
      m.apply(frame("conversation.status_changed", { id: 1, status: "open", updated_at: 1500 })),
    ).toBe("ignored");
    expect(m.rows.get(1)?.status).toBe("resolved");
    const later = frame("conversation.status_changed", {
      id: 1,
      status: "pending",
      updated_at: 2100,
    });
    expect(m.apply(later)).toBe("changed");
    expect(m.apply(later)).toBe("changed");
    expect(m.rows.get(1)?.status).toBe("pending");
    expect(m.ids).toEqual([1]);
  });

  it("an HTTP record older than the feed's change does not undo it", () => {
    const m = model({ assignee: "all" });
    m.upsert([conv(1, { updated_at: 2000 })], true);
    m.apply(frame("conversation.updated", { id: 1, priority: "urgent", updated_at: 2500 }));
    m.upsert([conv(1, { updated_at: 2000, priority: null })]);
    expect(m.rows.get(1)?.priority).toBe("urgent");
  });

  it("drops a row that leaves the filter: resolved, or assigned to someone else", () => {
    const m = model();
    m.upsert([conv(1), conv(2)], true);
    expect(
      m.apply(
        frame("conversation.status_changed", { id: 1, status: "resolved", updated_at: 3000 }),
      ),
    ).toBe("changed");
    expect(
      m.apply(frame("conversation.assignee_changed", { id: 2, assignee_id: 99, updated_at: 3000 })),
    ).toBe("changed");
    expect(m.ids).toEqual([]);
  });

  it("gains a conversation assigned to me, fetched in full and checked again", () => {
    const m = model();
    expect(m.apply(frame("conversation.assignee_changed", { id: 9, assignee_id: ME }))).toBe(
      "fetch",
    );
    m.upsert([conv(9)]);
    expect(m.ids).toEqual([9]);
    // A fetched record that no longer belongs (reassigned meanwhile) stays out.
    m.upsert([conv(10, { meta: { ...conv(10).meta, assignee: null } })]);
    expect(m.ids).toEqual([9]);
  });

  it("cannot judge a label filter from a summary: fetches, then keeps only a labelled record", () => {
    const m = model({ assignee: "all", label: "vip" });
    expect(m.apply(frame("conversation.created", { id: 3 }))).toBe("fetch");
    m.upsert([conv(3)]);
    expect(m.ids).toEqual([]);
    m.upsert([conv(4, { labels: ["vip"] })]);
    expect(m.ids).toEqual([4]);
  });

  it("a fresh first page after a reconnect removes rows that left meanwhile, keeps later pages", () => {
    const m = model({ assignee: "all" });
    m.upsert([conv(10), conv(9), conv(8), conv(2), conv(1)], true);
    // Reconnected: 9 was resolved while the feed was down; the first page now ends at 8.
    m.replaceTop([conv(10), conv(8)], false);
    expect(m.ids).toEqual([10, 8, 2, 1]);
    m.replaceTop([conv(10)], true);
    expect(m.ids).toEqual([10]);
  });

  it("merging the same page twice never doubles a row", () => {
    const m = model({ assignee: "all" });
    const page = [conv(1), conv(2), conv(3)];
    m.upsert(page, true);
    m.upsert(page, true);
    m.apply(frame("conversation.created", { id: 3 }));
    expect(m.ids).toEqual([3, 2, 1]);
  });
});
