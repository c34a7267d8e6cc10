/**
 * The line under the workbench's title: where the data comes from (the demo key, or the pane's sign-in), or, while
 * the service cannot be reached, that. Holds which client the functions use and whose reach the line reports.
 */
import { ServiceReach, unreachableLine } from "../taskpane/service-reach";
import { DEMO_SERVICE, type WorkbenchConfig } from "./config";

export class SourceLine {
  /** "demo" while the functions use the demo service key, "pane" after sign-in through the pane. */
  source: "demo" | "pane" = "demo";
  /** The demo client's answers; after sign-in the pane's client reports to the pane's own. */
  readonly demoReach = new ServiceReach();
  /** True while a demo sheet that could not load waits for the service to answer again. */
  demoWaiting = false;
  private paneReach: ServiceReach | undefined;
  private tokenWait: string | undefined;
  private text = "";

  constructor(
    private readonly element: HTMLElement,
    readonly config: WorkbenchConfig,
  ) {}

  reach(): ServiceReach {
    return this.source === "pane" && this.paneReach ? this.paneReach : this.demoReach;
  }

  render(): void {
    const line = unreachableLine(this.reach().state());
    const offline = line === undefined ? undefined : this.demoWaiting ? `${line} The demo sheet fills by itself when the service answers again (tried every 10 s).` : line;
    this.element.textContent = offline ?? this.text;
    this.element.classList.toggle("offline", offline !== undefined);
  }

  set(text: string): void {
    this.text = text;
    this.render();
  }

  /** The demo key's line: waiting for its token, or where the data comes from. */
  demo(): void {
    this.text =
      this.tokenWait !== undefined
        ? `Waiting for the demo key's token (the sandbox's token service allows a few per minutes): ${this.tokenWait}. The sheet fills as soon as it arrives.`
        : `Data: ${this.config.apiUrl}, through the sandbox's demo service key (${DEMO_SERVICE.name}): no account needed; sign in through the pane to use yours.`;
    this.render();
  }

  /** Why the demo key waits for its token, or undefined once it came. */
  tokenWaiting(reason: string | undefined): void {
    this.tokenWait = reason;
    if (this.source === "demo") this.demo();
  }

  /** The pane's client reports to the pane's reach: follow it (once per reach). */
  followPaneReach(reach: ServiceReach, onChange: () => void): void {
    if (reach === this.paneReach) return;
    this.paneReach = reach;
    reach.subscribe(onChange);
  }
}
