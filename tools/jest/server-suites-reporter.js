// Prints how many integration suites ran against the real servers, so a CI log shows that they did.
class ServerSuitesReporter {
  onRunComplete(_contexts, results) {
    let ran = 0;
    let skipped = 0;
    for (const suite of results.testResults) {
      if (!suite.testFilePath.endsWith('.int-spec.ts')) continue;
      const executed = suite.numPassingTests + suite.numFailingTests;
      if (executed > 0) ran += 1;
      else skipped += 1;
    }
    const servers = process.env.LP_TEST_SERVERS || '(none)';
    console.log(`integration suites against real servers: ${ran} ran, ${skipped} skipped (reachable: ${servers})`);
  }
}
module.exports = ServerSuitesReporter;
