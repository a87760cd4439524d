// The floor of `npm run bench` (issue 29): a bare Express application answering "hello" on
// GET /hello, nothing else (no headers middleware, log, firewall or compression). The benchmark
// drives it with the same load generator and settings as the service's routes, in the same run,
// so every route is judged as a share of what Express itself does on this machine at that time.
//
//   node scripts/bench-floor.mjs   → prints "floor listening on http://127.0.0.1:<port>"
import express from "express";

const app = express();
app.get("/hello", (_req, res) => {
  res.send("hello");
});
const server = app.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`floor listening on http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
