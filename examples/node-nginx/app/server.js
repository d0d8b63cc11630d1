'use strict';

// A dependency-free web app for the node-nginx example: GET / says hello and
// shows what the reverse proxy forwarded; GET /healthz answers "ok".
// PORT and LOG_DIR come from the node-service stage template.

const fs = require('fs');
const http = require('http');
const path = require('path');

const port = Number.parseInt(process.env.PORT || '3000', 10);
const logDir = process.env.LOG_DIR || '';

let logFile = null;
if (logDir !== '') {
  logFile = fs.createWriteStream(path.join(logDir, 'app.log'), { flags: 'a' });
  logFile.on('error', (error) => {
    process.stderr.write(`cannot write ${logDir}/app.log: ${error.message}; logging to stdout only\n`);
    logFile = null;
  });
}

function log(message) {
  const line = `${new Date().toISOString()} ${message}\n`;
  process.stdout.write(line);
  if (logFile !== null) {
    logFile.write(line);
  }
}

function send(response, status, body) {
  const text = typeof body === 'string' ? body : `${JSON.stringify(body, null, 2)}\n`;
  response.writeHead(status, {
    'Content-Type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

const server = http.createServer((request, response) => {
  const pathname = new URL(request.url, 'http://localhost').pathname;
  let status;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    status = 405;
    response.setHeader('Allow', 'GET, HEAD');
    send(response, status, 'method not allowed\n');
  } else if (pathname === '/healthz') {
    status = 200;
    send(response, status, 'ok\n');
  } else if (pathname === '/') {
    status = 200;
    send(response, status, {
      message: 'Hello from myapp',
      host: request.headers.host || null,
      realIP: request.headers['x-real-ip'] || null,
      forwardedFor: request.headers['x-forwarded-for'] || null,
      viaNginx: request.headers['x-nginx-proxy'] === 'true',
    });
  } else {
    status = 404;
    send(response, status, 'not found\n');
  }
  if (pathname !== '/healthz') {
    log(`${request.socket.remoteAddress} "${request.method} ${request.url}" ${status}`);
  }
});

server.listen(port, () => {
  log(`myapp listening on port ${port} (NODE_ENV=${process.env.NODE_ENV || 'unset'})`);
});

// As PID 1 in a container, node gets no default handling of SIGTERM/SIGINT.
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    log(`${signal} received, closing`);
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5000).unref();
  });
}
