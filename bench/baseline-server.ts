/**
 * The benchmark's baseline: the least a Node HTTP server can do for the same requests. It answers every
 * POST with 201 and every GET with 200, each with the fixed JSON document of the file named by argv[2]
 * (a real node as Ingot renders it, so that both move the same bytes). It listens on argv[3], or a free
 * port when that is 0 or absent, and prints its URL.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';

const body = readFileSync(process.argv[2] ?? '', 'utf8');
const port = Number(process.argv[3] ?? 0);

const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(req.method === 'POST' ? 201 : 200, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      'X-OpenStack-Ironic-API-Version': '1.82',
    });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => {
  const bound = server.address();
  process.stdout.write(`baseline listening on http://127.0.0.1:${typeof bound === 'object' && bound ? bound.port : port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
