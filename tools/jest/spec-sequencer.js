// Runs the slowest spec files first, so no worker is left alone with a long file at the end of the
// run. Jest already does this from the timings it caches after a run; a clean clone (CI) has no such
// cache, and Jest would fall back to file size — which puts the console's browser spec (a short file
// that drives every screen) last. The committed timings in spec-durations.json fill that gap; a
// timing Jest cached on this machine wins over them. `node tools/ci/spec-durations.js <results-dir>`
// refreshes the file from a run's JSON results.
const Sequencer = require('@jest/test-sequencer').default;
const { relative } = require('node:path');
const committed = require('./spec-durations.json');

class SlowestFirstSequencer extends Sequencer {
  time(test) {
    return super.time(test) ?? secondsToMs(committed[relative(test.context.config.rootDir, test.path)]);
  }
}

function secondsToMs(seconds) {
  return seconds === undefined ? undefined : seconds * 1000;
}

module.exports = SlowestFirstSequencer;
