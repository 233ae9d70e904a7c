/** Baseline target of `npm run bench`: bare node:http answering a constant JSON body on every path. */
import { createServer } from "node:http";
import { announce, constantBody } from "./constant-body.js";

const server = createServer((_request, response) => {
  const body = JSON.stringify(constantBody);
  response.writeHead(200, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
  });
  response.end(body);
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  announce("bare-http", typeof address === "object" && address ? address.port : 0);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
