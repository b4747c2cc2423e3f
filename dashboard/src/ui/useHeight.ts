import type { RefObject } from "preact";
import { useEffect, useState } from "preact/hooks";

/** The element's height as laid out, followed as it resizes (800 until it is measured). */
export function useHeight(ref: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(800);
  useEffect(() => {
    const el = ref.current;
    if (!el) {
      return;
    }
    const measure = () => setHeight(el.clientHeight || 800);
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return height;
}
