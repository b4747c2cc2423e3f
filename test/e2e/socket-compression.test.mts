// Parley's sockets decline permessage-deflate (worker/realtime/upgrade.ts): clients offer
// it (browsers and Node's WebSocket always do), and the runtime deflated every frame once per
// socket, half a busy room's CPU. Checked on the real stack (`wrangler dev`, global-setup.mts)
// for the three kinds of socket, with the handshake read as it reached the client.
import { request } from "node:http";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { newVisitor } from "./dashboard-world.mts";
import { ADMIN_TOKEN, accountCall, INBOX, launchChromium } from "./harness.mts";

const base = inject("parleyBase");
const ws = base.replace(/^http/, "ws");
const call = accountCall(base);

/** The 101's raw headers for an upgrade that offers what a browser offers. */
function handshake(url: string): Promise<{ status: number; headers: Record<string, string> }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({
      host: u.hostname,
      port: u.port,
      path: u.pathname + u.search,
      headers: {
        Connection: "Upgrade",
        Upgrade: "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Extensions": "permessage-deflate; client_max_window_bits",
      },
    });
    req.on("upgrade", (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string> });
    });
    req.on("response", (res) => resolve({ status: res.statusCode ?? 0, headers: {} }));
    req.on("error", reject);
    req.end();
  });
}

/** What Node's WebSocket (which offers permessage-deflate) agreed on; "" is none. */
function agreed(url: string, protocols?: string[]): Promise<string> {
  const socket = new WebSocket(url, protocols);
  return new Promise((resolve, reject) => {
    socket.onopen = () => {
      resolve(socket.extensions);
      socket.close();
    };
    socket.onerror = () => reject(new Error(`${url}: socket failed`));
  });
}

describe("Parley's sockets decline permessage-deflate", () => {
  let browser: Browser;
  let agentRoom: string;
  let visitorRoom: string;
  const feed = `${ws}/api/v1/accounts/1/live`;

  beforeAll(async () => {
    browser = await launchChromium();
    const { sourceId, conversationId } = await newVisitor(base, { name: "Deflate Visitor" });
    visitorRoom = `${ws}/public/api/v1/inboxes/${INBOX}/contacts/${sourceId}/conversations/${conversationId}/live`;
    agentRoom = `${ws}/api/v1/accounts/1/conversations/${conversationId}/live`;
    // The agent's room exists for the administrator (the list has the visitor's conversation).
    expect((await call("GET", `/conversations/${conversationId}`)).id).toBe(conversationId);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("answers an offer with no Sec-WebSocket-Extensions, on every kind of socket", async () => {
    for (const url of [
      `${agentRoom}?api_access_token=${ADMIN_TOKEN}`,
      visitorRoom,
      `${feed}?api_access_token=${ADMIN_TOKEN}`,
    ]) {
      const { status, headers } = await handshake(url.replace(/^ws/, "http"));
      expect({ url, status }).toEqual({ url, status: 101 });
      expect(headers["sec-websocket-extensions"]).toBeUndefined();
    }
  });

  it("opens Node's WebSocket with no extension, the subprotocol still named", async () => {
    expect(await agreed(`${agentRoom}?api_access_token=${ADMIN_TOKEN}`)).toBe("");
    expect(await agreed(visitorRoom)).toBe("");
    const named = new WebSocket(feed, ["parley", `access_token.${ADMIN_TOKEN}`]);
    const opened = await new Promise<{ extensions: string; protocol: string }>(
      (resolve, reject) => {
        named.onopen = () => resolve({ extensions: named.extensions, protocol: named.protocol });
        named.onerror = () => reject(new Error("feed socket failed"));
      },
    );
    named.close();
    expect(opened).toEqual({ extensions: "", protocol: "parley" });
  });

  it("opens Chromium's WebSocket with no extension, and frames arrive", async () => {
    const page = await browser.newPage();
    try {
      const seen = await page.evaluate(async (url) => {
        const socket = new WebSocket(url);
        const first = await new Promise<string>((resolve, reject) => {
          socket.onmessage = (e) => resolve(String(e.data));
          socket.onerror = () => reject(new Error("socket failed"));
        });
        const extensions = socket.extensions;
        socket.close();
        return { extensions, event: JSON.parse(first).event };
      }, visitorRoom);
      expect(seen).toEqual({ extensions: "", event: "ready" });
    } finally {
      await page.close();
    }
  });
});
