import { describe, expect, it } from "vitest";
import { EVENTS, isOutboxEvent, WEBHOOK_EVENTS, webhookName } from "../../worker/events/names";
import { WebhookCreateSchema } from "../../worker/modules/webhooks/schema";

describe("the one list of event names", () => {
  it("derives every webhook name from an outbox event, in the list's order", () => {
    const outbox = (Object.keys(EVENTS) as (keyof typeof EVENTS)[]).filter(isOutboxEvent);
    expect(WEBHOOK_EVENTS).toEqual(outbox.map(webhookName));
    expect(webhookName("conversation.status_changed")).toBe("conversation_status_changed");
    expect(webhookName("webwidget.triggered")).toBe("webwidget_triggered");
  });

  it("keeps live-only events out of the webhook names", () => {
    for (const name of ["conversation.read", "assignee.changed", "team.changed"] as const) {
      expect(isOutboxEvent(name)).toBe(false);
      expect(WEBHOOK_EVENTS).not.toContain(name.replace(".", "_"));
    }
  });

  it("lets webhooks subscribe to exactly the webhook names", () => {
    const ok = WebhookCreateSchema.safeParse({
      url: "https://example.com/hook",
      subscriptions: [...WEBHOOK_EVENTS],
    });
    expect(ok.success).toBe(true);
    const live = WebhookCreateSchema.safeParse({
      url: "https://example.com/hook",
      subscriptions: ["conversation_read"],
    });
    expect(live.success).toBe(false);
  });
});
