import { esc } from "./escape";
import { renderInline } from "./markdown-inline";

export type Heading = { level: number; id: string; text: string };
export type Rendered = { html: string; headings: Heading[] };

/**
 * Article markdown to HTML: CommonMark's blocks (ATX and setext headings, paragraphs, fenced
 * and indented code, block quotes, nested lists, thematic breaks) plus GFM tables. Written here
 * rather than taken from npm because the parsers worth using cost ~40 KiB of the Worker's
 * 800 KiB budget; it escapes everything it does not build itself, and the page still goes
 * through the allow-list sanitiser (sanitize.ts).
 */
export function renderMarkdown(source: string): Rendered {
  const headings: Heading[] = [];
  const ids = new Map<string, number>();
  const html = blocks(source.replace(/\r\n?/g, "\n").replace(/\t/g, "    ").split("\n"), {
    heading(level, inner, raw) {
      const base =
        raw
          .toLowerCase()
          .replace(/[^\p{L}\p{N}]+/gu, "-")
          .replace(/^-+|-+$/g, "") || "section";
      const n = ids.get(base) ?? 0;
      ids.set(base, n + 1);
      const id = n === 0 ? base : `${base}-${n}`;
      headings.push({ level, id, text: raw });
      return `<h${level} id="${esc(id)}">${inner}</h${level}>`;
    },
  });
  return { html, headings };
}

type Ctx = { heading(level: number, inner: string, raw: string): string };

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#-]*)/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const HR = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const LIST = /^( {0,3})([-*+]|\d{1,9}[.)])( +|$)(.*)$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const TABLE_RULE = /^ *\|? *:?-+:? *(\| *:?-+:? *)*\|? *$/;

const startsBlock = (line: string) =>
  FENCE.test(line) || ATX.test(line) || HR.test(line) || QUOTE.test(line) || LIST.test(line);

const plainHeading = (inline: string) =>
  inline.replace(/\\([!-/:-@[-`{-~])/g, "$1").replace(/[*_`~]/g, "");

function blocks(lines: string[], ctx: Ctx): string {
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    if (line.trim() === "") {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const mark = fence[1] ?? "```";
      const body: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] ?? "").trimStart().startsWith(mark)) {
        body.push(lines[i++] ?? "");
      }
      i++;
      const lang = fence[2] ? ` class="language-${esc(fence[2])}"` : "";
      out.push(`<pre><code${lang}>${esc(body.join("\n"))}</code></pre>`);
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      const raw = atx[2] ?? "";
      out.push(ctx.heading((atx[1] ?? "#").length, renderInline(raw), plainHeading(raw)));
      i++;
      continue;
    }
    if (HR.test(line)) {
      out.push("<hr>");
      i++;
      continue;
    }
    if (line.startsWith("    ")) {
      const body: string[] = [];
      while (
        i < lines.length &&
        ((lines[i] ?? "").startsWith("    ") || (lines[i] ?? "").trim() === "")
      ) {
        body.push((lines[i++] ?? "").slice(4));
      }
      out.push(`<pre><code>${esc(body.join("\n").replace(/\n+$/, ""))}</code></pre>`);
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && (lines[i] ?? "").trim() !== "") {
        const q = QUOTE.exec(lines[i] ?? "");
        body.push(q ? (q[1] ?? "") : (lines[i] ?? ""));
        i++;
      }
      out.push(`<blockquote>${blocks(body, ctx)}</blockquote>`);
      continue;
    }
    if (LIST.test(line)) {
      i = list(lines, i, ctx, out);
      continue;
    }
    if (
      line.includes("|") &&
      TABLE_RULE.test(lines[i + 1] ?? "") &&
      (lines[i + 1] ?? "").includes("-")
    ) {
      i = table(lines, i, out);
      continue;
    }
    const para: string[] = [];
    while (
      i < lines.length &&
      (lines[i] ?? "").trim() !== "" &&
      (para.length === 0 || !startsBlock(lines[i] ?? ""))
    ) {
      const next = lines[i] ?? "";
      if (para.length > 0 && /^ {0,3}(=+|-+)\s*$/.test(next)) {
        const raw = para.join(" ").trim();
        out.push(ctx.heading(next.trim()[0] === "=" ? 1 : 2, renderInline(raw), plainHeading(raw)));
        para.length = 0;
        i++;
        break;
      }
      para.push(next.trim());
      i++;
    }
    if (para.length > 0) {
      out.push(`<p>${renderInline(para.join("\n"))}</p>`);
    }
  }
  return out.join("\n");
}

/** A list and its items; an item holds whatever is indented under its marker, blocks and all. */
function list(lines: string[], start: number, ctx: Ctx, out: string[]): number {
  const first = LIST.exec(lines[start] ?? "");
  const ordered = /\d/.test(first?.[2] ?? "");
  const items: { lines: string[]; loose: boolean }[] = [];
  let i = start;
  let loose = false;
  while (i < lines.length) {
    const m = LIST.exec(lines[i] ?? "");
    if (
      !m ||
      /\d/.test(m[2] ?? "") !== ordered ||
      (m[1] ?? "").length > (first?.[1] ?? "").length + 1
    ) {
      break;
    }
    const indent =
      (m[1] ?? "").length + (m[2] ?? "").length + Math.min((m[3] ?? " ").length || 1, 4);
    const body = [m[4] ?? ""];
    i++;
    while (i < lines.length) {
      const next = lines[i] ?? "";
      if (next.trim() === "") {
        const after = lines[i + 1] ?? "";
        if (after.startsWith(" ".repeat(indent)) && after.trim() !== "") {
          body.push("");
          loose = true;
          i++;
          continue;
        }
        if (LIST.test(after) && after.search(/\S/) === (m[1] ?? "").length) {
          loose = true;
        }
        i++;
        break;
      }
      if (next.startsWith(" ".repeat(indent))) {
        body.push(next.slice(indent));
      } else if (!startsBlock(next) && body[body.length - 1] !== "") {
        body.push(next.trim());
      } else {
        break;
      }
      i++;
    }
    items.push({ lines: body, loose });
  }
  const startAt = ordered ? Number.parseInt(first?.[2] ?? "1", 10) : 1;
  const tag = ordered ? "ol" : "ul";
  const attr = ordered && startAt !== 1 ? ` start="${startAt}"` : "";
  const html = items.map((item) => {
    const inner = blocks(item.lines, ctx);
    return `<li>${loose ? inner : inner.replace(/^<p>([\s\S]*?)<\/p>/, "$1").replace(/\n<p>([\s\S]*?)<\/p>/g, "\n$1")}</li>`;
  });
  out.push(`<${tag}${attr}>${html.join("\n")}</${tag}>`);
  return i;
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

function table(lines: string[], start: number, out: string[]): number {
  const head = cells(lines[start] ?? "");
  const aligns = cells(lines[start + 1] ?? "").map((c) =>
    c.startsWith(":") && c.endsWith(":")
      ? "center"
      : c.endsWith(":")
        ? "right"
        : c.startsWith(":")
          ? "left"
          : "",
  );
  const cell = (tag: string, text: string, n: number) => {
    const align = aligns[n] ? ` class="a-${aligns[n]}"` : "";
    return `<${tag}${align}>${renderInline(text)}</${tag}>`;
  };
  let i = start + 2;
  const rows: string[] = [];
  while (i < lines.length && (lines[i] ?? "").includes("|") && (lines[i] ?? "").trim() !== "") {
    const row = cells(lines[i] ?? "");
    rows.push(`<tr>${head.map((_, n) => cell("td", row[n] ?? "", n)).join("")}</tr>`);
    i++;
  }
  out.push(
    `<table><thead><tr>${head.map((h, n) => cell("th", h, n)).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`,
  );
  return i;
}
