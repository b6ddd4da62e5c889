// The real servers integration suites run against, with the 127.0.0.1 defaults of ARCHITECTURE.md.
const net = require('node:net');

const servers = {
  postgres: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  rabbitmq: process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672',
  redis: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
};
const defaultPorts = { postgres: 5432, rabbitmq: 5672, redis: 6379 };

function reachable(url, fallbackPort) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname || '127.0.0.1', port: Number(port) || fallbackPort });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function probeServers() {
  const result = {};
  for (const [name, url] of Object.entries(servers)) result[name] = await reachable(url, defaultPorts[name]);
  return result;
}

module.exports = { servers, probeServers };
