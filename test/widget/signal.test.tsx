import { describe, expect, it } from "vitest";
import { computed, effect, signal } from "../../widget/src/app/state/signal";

describe("signal store", () => {
  it("reruns an effect when a signal it read changes, and only then", () => {
    const a = signal(1);
    const b = signal(10);
    const seen: number[] = [];
    effect(() => {
      seen.push(a.value);
    });
    b.value = 11;
    a.value = 2;
    a.value = 2;
    expect(seen).toEqual([1, 2]);
  });

  it("collects reads anew on every run (conditional dependencies)", () => {
    const flag = signal(false);
    const other = signal("x");
    let runs = 0;
    effect(() => {
      runs++;
      if (flag.value) {
        other.value;
      }
    });
    other.value = "y";
    expect(runs).toBe(1);
    flag.value = true;
    other.value = "z";
    expect(runs).toBe(3);
  });

  it("coalesces changes into one scheduled run", async () => {
    const a = signal(0);
    const seen: number[] = [];
    effect(() => {
      seen.push(a.value);
    }, queueMicrotask);
    a.value = 1;
    a.value = 2;
    a.value = 3;
    await Promise.resolve();
    expect(seen).toEqual([0, 3]);
  });

  it("stops after dispose, and computed values track their sources", () => {
    const a = signal(2);
    const double = computed(() => a.value * 2);
    const seen: number[] = [];
    const stop = effect(() => {
      seen.push(double.value);
    });
    a.value = 3;
    stop();
    a.value = 4;
    expect(seen).toEqual([4, 6]);
    expect(a.peek()).toBe(4);
  });
});
