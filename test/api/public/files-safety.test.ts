import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../../worker/db/schema";
import { addInboxMember, createWorld, db } from "../../support/factories";
import { createConversationIn } from "../../support/factories-conversations";
import { createPublicConversation, createPublicWorld, pub } from "../../support/factories-public";
import {
  HTML_WITH_SCRIPT,
  SVG_WITH_SCRIPT,
  TINY_MP3,
  TINY_PNG,
  TINY_WAV,
  XHTML_WITH_SCRIPT,
} from "../../support/files";
import { api, expectError } from "../../support/http";

type Upload = {
  name: string;
  bytes: string | Uint8Array;
  claimed: string;
  /** What the Worker decides from the bytes. */
  stored: string;
  fileType: "image" | "audio" | "video" | "file";
  inline: boolean;
};

const UPLOADS: Upload[] = [
  {
    name: "evil.svg",
    bytes: SVG_WITH_SCRIPT,
    claimed: "image/svg+xml",
    stored: "application/octet-stream",
    fileType: "file",
    inline: false,
  },
  {
    name: "page.html",
    bytes: HTML_WITH_SCRIPT,
    claimed: "text/html",
    stored: "application/octet-stream",
    fileType: "file",
    inline: false,
  },
  {
    name: "page.xhtml",
    bytes: XHTML_WITH_SCRIPT,
    claimed: "application/xhtml+xml",
    stored: "application/octet-stream",
    fileType: "file",
    inline: false,
  },
  {
    name: "liar.png",
    bytes: HTML_WITH_SCRIPT,
    claimed: "image/png",
    stored: "application/octet-stream",
    fileType: "file",
    inline: false,
  },
  {
    name: "dot.png",
    bytes: TINY_PNG,
    claimed: "image/png",
    stored: "image/png",
    fileType: "image",
    inline: true,
  },
  {
    name: "dot.bin",
    bytes: TINY_PNG,
    claimed: "text/html",
    stored: "image/png",
    fileType: "image",
    inline: true,
  },
  {
    name: "tune.mp3",
    bytes: TINY_MP3,
    claimed: "audio/mpeg",
    stored: "audio/mpeg",
    fileType: "audio",
    inline: true,
  },
  {
    name: "tone.wav",
    bytes: TINY_WAV,
    claimed: "audio/wav",
    stored: "audio/wav",
    fileType: "audio",
    inline: true,
  },
];

type AttachmentJson = { id: number; file_type: string; data_url: string; thumb_url: string };

function expectSafeHeaders(res: Response) {
  expect(res.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
}

/** Each upload's record and its download: sniffed type, disposition, security headers. */
async function expectServedSafely(attachments: AttachmentJson[]) {
  expect(attachments).toHaveLength(UPLOADS.length);
  for (const [i, upload] of UPLOADS.entries()) {
    const attachment = attachments[i] as AttachmentJson;
    expect(attachment.file_type, upload.name).toBe(upload.fileType);
    expect(attachment.thumb_url === "", upload.name).toBe(upload.fileType !== "image");
    const row = await db()
      .select()
      .from(t.attachments)
      .where(eq(t.attachments.id, attachment.id))
      .get();
    expect(row?.contentType, upload.name).toBe(upload.stored);
    expect(row?.fileType, upload.name).toBe(upload.fileType);

    const res = await SELF.fetch(attachment.data_url);
    expect(res.status, upload.name).toBe(200);
    expectSafeHeaders(res);
    const disposition = res.headers.get("content-disposition") ?? "";
    if (upload.inline) {
      expect(res.headers.get("content-type"), upload.name).toBe(upload.stored);
      expect(disposition, upload.name).toMatch(/^inline; /);
    } else {
      expect(res.headers.get("content-type"), upload.name).toBe("application/octet-stream");
      expect(disposition, upload.name).toMatch(/^attachment; /);
    }
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(upload.name)}`);
    // The bytes are served as uploaded.
    const expected = new Uint8Array(await new Blob([upload.bytes]).arrayBuffer());
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(expected);
  }
}

function uploadForm() {
  const form = new FormData();
  form.append("content", "files");
  for (const upload of UPLOADS) {
    form.append("attachments[]", new File([upload.bytes], upload.name, { type: upload.claimed }));
  }
  return form;
}

describe("uploaded files never run script", () => {
  it("through the public API: the type comes from the bytes, only media is inline", async () => {
    const w = await createPublicWorld();
    const { path } = await createPublicConversation(w.base, { name: "Vi" });
    const res = await pub(`${path}/messages`, { method: "POST", raw: uploadForm() });
    expect(res.status).toBe(200);
    await expectServedSafely(res.body.attachments);
  });

  it("through the account API: the same for agents' attachments", async () => {
    const w = await createWorld();
    await addInboxMember(w.inbox.id, w.agent.id);
    const { conversation } = await createConversationIn(w.account.id, w.inbox.id);
    const path = `/api/v1/accounts/${w.account.id}/conversations/${conversation.displayId}/messages`;
    const res = await api(path, { method: "POST", token: w.agent.token, raw: uploadForm() });
    expect(res.status).toBe(200);
    await expectServedSafely(res.body.attachments);
  });

  it("serves files stored before sniffing by the same allow-list", async () => {
    const stored = [
      { key: "1/attachments/00000000-0000-4000-8000-000000000001.svg", type: "image/svg+xml" },
      { key: "1/attachments/00000000-0000-4000-8000-000000000002.html", type: "text/html" },
      { key: "1/attachments/00000000-0000-4000-8000-000000000003.png", type: "image/png" },
    ];
    for (const { key, type } of stored) {
      await env.FILES.put(key, SVG_WITH_SCRIPT, {
        httpMetadata: { contentType: type, contentDisposition: 'inline; filename="old%20file"' },
      });
    }
    const [svg, html, png] = await Promise.all(
      stored.map(({ key }) => SELF.fetch(`http://parley.test/files/${key}`)),
    );
    for (const res of [svg, html] as Response[]) {
      expect(res.status).toBe(200);
      expectSafeHeaders(res);
      expect(res.headers.get("content-type")).toBe("application/octet-stream");
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="old%20file"; filename*=UTF-8''old%20file`,
      );
      await res.arrayBuffer();
    }
    // A stored raster type stays inline; nosniff and the sandbox keep its bytes inert.
    expectSafeHeaders(png as Response);
    expect(png?.headers.get("content-type")).toBe("image/png");
    expect(png?.headers.get("content-disposition")).toMatch(/^inline; /);
    await png?.arrayBuffer();
  });
});

describe("avatars are raster images", () => {
  const contacts = (accountId: number) => `/api/v1/accounts/${accountId}/contacts`;

  for (const [name, bytes, claimed] of [
    ["evil.svg", SVG_WITH_SCRIPT, "image/svg+xml"],
    ["liar.png", HTML_WITH_SCRIPT, "image/png"],
    ["liar.png", SVG_WITH_SCRIPT, "image/png"],
  ] as const) {
    it(`refuses ${name} claiming ${claimed}`, async () => {
      const { account, agent, inbox } = await createWorld();
      const form = new FormData();
      form.set("inbox_id", String(inbox.id));
      form.set("email", "eve@example.com");
      form.set("avatar", new File([bytes], name, { type: claimed }));
      const res = await api(contacts(account.id), {
        method: "POST",
        token: agent.token,
        raw: form,
      });
      const err = expectError(res, 422);
      expect(err.details.map((d) => d.path)).toEqual(["avatar"]);
    });
  }

  it("stores a real PNG, whatever it claims, and serves it inline as image/png", async () => {
    const { account, agent, inbox } = await createWorld();
    const form = new FormData();
    form.set("inbox_id", String(inbox.id));
    form.set("email", "pat@example.com");
    form.set("avatar", new File([TINY_PNG], "me.png", { type: "application/octet-stream" }));
    const res = await api(contacts(account.id), { method: "POST", token: agent.token, raw: form });
    expect(res.status).toBe(200);
    const file = await SELF.fetch(res.body.payload[0].thumbnail);
    expect(file.status).toBe(200);
    expectSafeHeaders(file);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(file.headers.get("content-disposition")).toMatch(/^inline; /);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(TINY_PNG);
  });
});
