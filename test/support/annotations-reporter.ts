// Prints what a test reports of itself through `annotate` (vitest's test context), one line each, from
// the test runner's own process: figures a test measures (how tight the demand planner's predictions
// were) reach the CI log without the test writing to the console, which CI refuses.
import type { Reporter, TestCase } from 'vitest/node';

type TestAnnotation = Parameters<NonNullable<Reporter['onTestCaseAnnotate']>>[1];

export default class AnnotationsReporter implements Reporter {
  onTestCaseAnnotate(testCase: TestCase, annotation: TestAnnotation): void {
    process.stdout.write(`annotation | ${testCase.name}: ${annotation.message}\n`);
  }
}
