const WEIGHTS = [0.2126, 0.7152, 0.0722];

/** WCAG relative luminance of an [r, g, b] colour (0–255 channels). */
const luminance = (rgb: number[]) =>
  rgb.reduce((sum, c, i) => {
    const s = c / 255;
    return sum + (WEIGHTS[i] as number) * (s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4);
  }, 0);

/**
 * The brand colour `hex`, darkened in its own hue until white text on it reaches 4.5:1 (WCAG AA;
 * luminance ≤ 0.183). Text on the brand colour is always white: a light or saturated brand gets
 * a deeper shade of itself, never black text. Anything but #rrggbb falls back to the default.
 */
export function brandShade(hex: string): string {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  const n = Number.parseInt(m?.[1] ?? "1f93ff", 16);
  let rgb = [n >> 16, (n >> 8) & 255, n & 255];
  while (luminance(rgb) > 0.183) {
    rgb = rgb.map((c) => c * 0.9);
  }
  return `rgb(${rgb.map(Math.round)})`;
}
