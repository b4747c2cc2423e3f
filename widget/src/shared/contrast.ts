/** Chatwoot's default widget colour, for anything that is not #rrggbb. */
export const DEFAULT_BRAND = "#1f93ff";

/** `hex` as #rrggbb when it is one (with or without #), else the default brand colour. */
export const brandColor = (hex: string | null | undefined) => {
  const m = /^#?([0-9a-f]{6})$/i.exec((hex ?? "").trim());
  return m ? `#${m[1]}` : DEFAULT_BRAND;
};

/**
 * The text colour that reads on the brand colour `hex` (#rrggbb), the brand kept as it is and
 * never darkened into a muddier shade of itself: white while it reaches 4.5:1 (WCAG AA, relative
 * luminance up to 0.179), black above; one of the two always reaches 4.58:1. The sRGB curve
 * without its linear toe (channels under 11/255) overestimates luminance by 0.001 at most, on the
 * safe side; anything but #rrggbb reads NaN, so white. Small: the loader carries it.
 */
export const textOn = (hex: string) => {
  const n = Number.parseInt(hex.slice(1), 16);
  const luminance = [n >> 16, (n >> 8) & 255, n & 255].reduce(
    (sum, c, i) =>
      sum + ([0.2126, 0.7152, 0.0722][i] as number) * ((c / 255 + 0.055) / 1.055) ** 2.4,
    0,
  );
  return luminance > 0.179 ? "#000" : "#fff";
};
