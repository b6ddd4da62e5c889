/**
 * A small process serving through the platform's HTTP server and shutdown path (createHttpServer,
 * installShutdown, drain), as every service and the standalone do, without a data tier: the drain
 * spec sends SIGTERM to it while keep-alive clients are sending. Each request waits a few ms so some
 * are in flight when the signal lands; a POST answers only after its body has arrived.
 */
import { Logger } from '@nestjs/common';
import { createHttpServer } from '../src/http-server';
import { installShutdown } from '../src/shutdown';

const server = createHttpServer((req, res) => {
  req.resume();
  req.once('end', () =>
    setTimeout(() => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ method: req.method, url: req.url }));
    }, 2),
  );
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`ready: http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
});
installShutdown(new Logger('drain-target'), () => server.drain(10_000));
