/** Real file bytes for upload tests: the Worker decides a file's type from its first bytes. */

const fromBase64 = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

/** A 1×1 PNG. */
export const TINY_PNG = fromBase64(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
);

/** An MP3's start: an ID3v2 tag header, then an MPEG-1 Layer III frame header. */
export const TINY_MP3 = new Uint8Array([
  0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0,
]);

/** A WAV header with no samples (RIFF....WAVE, fmt, data): PCM, mono, 8 kHz, 16 bit. */
export const TINY_WAV = (() => {
  const view = new DataView(new ArrayBuffer(44));
  const tag = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) {
      view.setUint8(at + i, text.charCodeAt(i));
    }
  };
  tag(0, "RIFF");
  view.setUint32(4, 36, true);
  tag(8, "WAVE");
  tag(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 8000, true);
  view.setUint32(28, 16000, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  tag(36, "data");
  return new Uint8Array(view.buffer);
})();

export const SVG_WITH_SCRIPT =
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>';

export const HTML_WITH_SCRIPT =
  "<!doctype html><html><body><script>alert(1)</script></body></html>";

export const XHTML_WITH_SCRIPT =
  '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><script>alert(1)</script></body></html>';
