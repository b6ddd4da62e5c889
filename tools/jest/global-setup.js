// Probes the real servers once per run. Workers inherit LP_TEST_SERVERS and skip (locally) or
// fail (under CI=true) the suites whose servers are missing.
const { probeServers } = require('./servers');

module.exports = async function globalSetup() {
  const probe = await probeServers();
  const up = Object.keys(probe).filter((name) => probe[name]);
  const down = Object.keys(probe).filter((name) => !probe[name]);
  process.env.LP_TEST_SERVERS = up.join(',');
  process.env.LP_TEST_RUN_ID = process.env.LP_TEST_RUN_ID || `${Date.now().toString(36)}${process.pid.toString(36)}`;
  if (down.length > 0) {
    if (process.env.CI === 'true') {
      throw new Error(`CI=true and these servers are unreachable: ${down.join(', ')}; integration suites must run under CI.`);
    }
    console.warn(`\nNOTICE: ${down.join(', ')} unreachable: integration suites needing them are skipped.\n`);
  }
};
