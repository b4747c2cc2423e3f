import { render } from "@testing-library/preact";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { token } from "../../dashboard/src/state/session";
import { shownFor } from "../../dashboard/src/state/thread";
import { ContactPanel } from "../../dashboard/src/ui/ContactPanel";
import { conversationOf } from "./fixtures";

const calls: string[] = [];

beforeAll(() => {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      calls.push(url);
      const body = url.includes("custom_attribute") ? [] : { payload: [] };
      return new Response(JSON.stringify(body), {
        headers: { "content-type": "application/json" },
      });
    }),
  );
  token.value = "t0ken";
});

afterAll(() => {
  shownFor.value = 0;
  vi.unstubAllGlobals();
});

describe("the contact panel on a first open", () => {
  it("reads the contact only once the thread shows its messages (the open's read goes alone)", async () => {
    const c = conversationOf(12);
    shownFor.value = 0;
    const { rerender } = render(<ContactPanel accountId={1} c={c} />);
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toEqual([]);
    shownFor.value = 12;
    rerender(<ContactPanel accountId={1} c={c} />);
    await vi.waitFor(() => expect(calls.length).toBe(3));
    expect(calls.some((u) => u.endsWith("/contacts/3"))).toBe(true);
  });
});
