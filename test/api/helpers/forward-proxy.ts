/** A minimal HTTP forward proxy (CONNECT tunnels and absolute-form requests) that logs what it carried. */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export class ForwardProxy {
  /** `CONNECT host:port` or `GET http://…`, one entry per proxied request or tunnel. */
  readonly log: string[] = [];
  #server = http.createServer((req, res) => {
    this.log.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers: req.headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  #sockets = new Set<net.Socket>();
  url = '';

  async start(): Promise<this> {
    this.#server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
      this.log.push(`CONNECT ${req.url}`);
      const [host, port] = (req.url ?? '').split(':');
      const upstream = net.connect(Number(port), host ?? '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      this.#track(upstream);
      this.#track(client);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    this.#server.on('connection', (socket: net.Socket) => this.#track(socket));
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #track(socket: net.Socket): void {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
  }
}
