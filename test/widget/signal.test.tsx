import { useEffect } from "preact/hooks";
import { describe, expect, it } from "vitest";
import { mount } from "../../widget/src/app/mount";
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

  it("reruns an effect that changed, while it ran, a signal it had already read", () => {
    const a = signal(0);
    const seen: number[] = [];
    effect(() => {
      seen.push(a.value);
      if (a.value === 0) {
        a.value = 1; // what the run read is stale now: it must run again
      }
    });
    expect(seen).toEqual([0, 1]);
  });

  it("sees what another effect, set off by its own run, wrote to a signal it had read", async () => {
    const inner = signal(0);
    const mirror = signal(0);
    effect(() => {
      mirror.value = inner.value * 10;
    });
    const source = signal(0);
    const seen: number[] = [];
    effect(() => {
      seen.push(mirror.value);
      if (source.value > 0) {
        inner.value = source.value; // the effect above writes mirror, read earlier in this run
      }
    }, queueMicrotask);
    source.value = 1;
    await Promise.resolve();
    await Promise.resolve();
    expect(seen).toEqual([0, 0, 10]);
  });

  it("reports an effect that keeps changing what it reads instead of running forever", () => {
    const a = signal(0);
    expect(() =>
      effect(() => {
        a.value = a.value + 1;
      }),
    ).toThrow(/cycle/);
  });

  it("re-renders what a component's effect wrote while the tree was rendering", async () => {
    // Preact runs a component's pending useEffect at the start of its next render, which is
    // inside the store's render effect: that write must still reach the screen.
    const label = signal("early");
    const tick = signal(0);
    const Shows = () => (
      <p>
        {label.value} {tick.value}
      </p>
    );
    const Writes = () => {
      useEffect(() => {
        label.value = "late";
      }, []);
      return null;
    };
    const root = document.createElement("div");
    const stop = mount(
      () => (
        <>
          <Shows />
          <Writes />
        </>
      ),
      root,
    );
    tick.value = 1; // re-rendered (next microtask) before the effects' own frame
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(root.textContent).toBe("late 1");
    stop();
  });
});
