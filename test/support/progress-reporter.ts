// When the output is not a terminal (CI, a pipe, a log file), vitest's summary does not redraw: this prints
// how far the run is, every ten files and at the last, so a long run shows where it stands.
import type { Reporter, TestModule, TestSpecification } from 'vitest/node';

const EVERY = 10;

export default class ProgressReporter implements Reporter {
  private readonly piped = !process.stdout.isTTY;
  private total = 0;
  private done = 0;
  private failed = 0;
  private started = Date.now();

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.total = specifications.length;
    this.done = 0;
    this.failed = 0;
    this.started = Date.now();
  }

  onTestModuleEnd(module: TestModule): void {
    this.done += 1;
    if (module.state() === 'failed') this.failed += 1;
    if (!this.piped || (this.done % EVERY !== 0 && this.done !== this.total)) return;
    const failed = this.failed > 0 ? `, ${this.failed} failed` : '';
    const seconds = Math.round((Date.now() - this.started) / 1000);
    process.stdout.write(`progress | ${this.done} of ${this.total} files${failed}, ${seconds} s\n`);
  }
}
