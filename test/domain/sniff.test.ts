import { describe, expect, it } from "vitest";
import { isInlineType, sniffContentType } from "../../worker/lib/sniff";
import { fileTypeOf } from "../../worker/modules/messages/types";
import { TINY_MP3, TINY_PNG, TINY_WAV } from "../support/files";

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)),
  );
const ftyp = (...brands: string[]) =>
  bytes(
    [0, 0, 0, 8 + 4 * (brands.length + 1)],
    "ftyp",
    brands[0] ?? "",
    [0, 0, 0, 0],
    ...brands.slice(1),
  );

describe("sniffContentType", () => {
  it.each([
    ["PNG", TINY_PNG, "image/png"],
    ["JPEG", bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], "JFIF"), "image/jpeg"],
    ["GIF87a", bytes("GIF87a", [1, 0, 1, 0]), "image/gif"],
    ["GIF89a", bytes("GIF89a", [1, 0, 1, 0]), "image/gif"],
    ["WebP", bytes("RIFF", [0, 0, 0, 0], "WEBPVP8 "), "image/webp"],
    ["AVIF", ftyp("avif", "mif1", "miaf"), "image/avif"],
    ["AVIF sequence", ftyp("avis", "msf1"), "image/avif"],
    ["HEIF listing AVIF", ftyp("mif1", "avif"), "image/avif"],
    ["HEIC", ftyp("heic", "mif1"), "application/octet-stream"],
    ["MP4", ftyp("isom", "iso2", "mp41"), "video/mp4"],
    ["M4A", ftyp("M4A ", "isom"), "audio/mp4"],
    ["QuickTime", ftyp("qt  "), "video/quicktime"],
    ["WebM", bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84], "webm"), "video/webm"],
    [
      "Matroska",
      bytes([0x1a, 0x45, 0xdf, 0xa3, 0xa3, 0x42, 0x82, 0x88], "matroska"),
      "video/x-matroska",
    ],
    ["Ogg", bytes("OggS", [0, 2]), "audio/ogg"],
    ["MP3 with ID3", TINY_MP3, "audio/mpeg"],
    ["MP3 frame", bytes([0xff, 0xfb, 0x90, 0x64]), "audio/mpeg"],
    ["AAC ADTS", bytes([0xff, 0xf1, 0x50, 0x80]), "application/octet-stream"],
    ["WAV", TINY_WAV, "audio/wav"],
    ["RIFF AVI", bytes("RIFF", [0, 0, 0, 0], "AVI "), "application/octet-stream"],
    ["SVG", bytes('<svg xmlns="http://www.w3.org/2000/svg">'), "application/octet-stream"],
    ["HTML", bytes("<!doctype html><script>"), "application/octet-stream"],
    ["XHTML", bytes('<?xml version="1.0"?><html>'), "application/octet-stream"],
    ["PDF", bytes("%PDF-1.7"), "application/octet-stream"],
    ["truncated PNG", TINY_PNG.slice(0, 4), "application/octet-stream"],
    ["empty", new Uint8Array(), "application/octet-stream"],
  ])("%s", (_name, input, expected) => {
    expect(sniffContentType(input)).toBe(expected);
  });
});

describe("the inline allow-list", () => {
  it("holds raster images, audio and video, never markup", () => {
    for (const type of ["image/png", "IMAGE/JPEG", "image/avif", "audio/mpeg", "video/mp4; x=1"]) {
      expect(isInlineType(type), type).toBe(true);
    }
    for (const type of ["image/svg+xml", "text/html", "application/xhtml+xml", "text/plain", ""]) {
      expect(isInlineType(type), type).toBe(false);
    }
  });

  it("decides file_type: SVG is a file, not an image", () => {
    expect(fileTypeOf("image/png")).toBe("image");
    expect(fileTypeOf("image/svg+xml")).toBe("file");
    expect(fileTypeOf("audio/wav")).toBe("audio");
    expect(fileTypeOf("video/webm")).toBe("video");
    expect(fileTypeOf("text/html")).toBe("file");
  });
});
