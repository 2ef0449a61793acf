/**
 * The current time, refreshed every second while the host wants it to tick (an elapsed
 * time on screen) and not at all otherwise, so an idle view costs nothing.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export class ClockController implements ReactiveController {
  /** Milliseconds since the epoch, as of the last tick. */
  value = Date.now();

  readonly #host: ReactiveControllerHost;
  readonly #shouldTick: () => boolean;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(host: ReactiveControllerHost, shouldTick: () => boolean) {
    this.#host = host;
    this.#shouldTick = shouldTick;
    host.addController(this);
  }

  hostUpdate(): void {
    // Every render shows the time of that render, ticking or not.
    this.value = Date.now();
  }

  hostUpdated(): void {
    const tick = this.#shouldTick();
    if (tick && this.#timer === undefined) {
      this.#timer = setInterval(() => this.#host.requestUpdate(), 1000);
    } else if (!tick) {
      this.#stop();
    }
  }

  hostDisconnected(): void {
    this.#stop();
  }

  #stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
