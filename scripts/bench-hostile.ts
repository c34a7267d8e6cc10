/**
 * `npm run bench:hostile`: the sandbox and the relay, each its own process, against hostile clients (issue 17):
 * 20,000 connections that never send a byte, then 256 clients that stop reading maximal answers. Measures each
 * server's open descriptors and resident memory from /proc, and the p99 of a small request from another client
 * meanwhile. Loopback only; every loop is bounded. Writes "Servers against hostile clients" of docs/benchmarks.md.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdir, readFile, readlink } from "node:fs/promises";
import { connect as tcpConnect, type Socket } from "node:net";
import { loadavg } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { Worker } from "node:worker_threads";
import { connect as tlsConnect } from "node:tls";
import { Agent, request } from "undici";
import { maximalSymbols } from "./bench-maximal";
import { type TargetRow, rawLines, reportCase, targetTable, writeSection } from "./bench-section";
import { startSandboxCli, stopSandboxCli } from "./sandbox-cli";

const TODAY = "2025-06-30";
const FROM = "2005-01-01";
const IDLE_CONNECTIONS = 20_000;
/** Client sockets open at once (the benchmark's own descriptors are limited too). */
const OPEN_AT_ONCE = 6_000;
const STALLED_READERS = 256;
/** The servers' idle (write) timeout for this run, seconds: stalled readers are let go after it. */
const IDLE_TIMEOUT_S = 20;
/** Longest wait for a server to come back to its baseline. */
const SETTLE_LIMIT_MS = 90_000;
const ROOT = path.resolve(__dirname, "..");

const rows: TargetRow[] = [];
const cases: Record<string, number | string>[] = [];

interface Server {
  name: string;
  pid: number;
  host: string;
  port: number;
  /** A small request from another client: its URL and the agent that sends it. */
  probe: { url: string; headers: Record<string, string> };
  /** The port of the server's upstream (the sandbox, for the relay), to tell its sockets apart; 0 for none. */
  upstreamPort: number;
  /** The maximal answer's request line and headers, as a stalled reader sends it. */
  maximal: string;
}

async function descriptors(pid: number): Promise<number> {
  return (await readdir(`/proc/${pid}/fd`)).length;
}

async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? "0") / 1024);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Samples descriptors and memory every 100 ms until stopped; keeps the peaks. */
function sampler(pid: number): { stop(): Promise<{ fdPeak: number; rssPeak: number }> } {
  let running = true;
  let fdPeak = 0;
  let rssPeak = 0;
  const loop = (async () => {
    while (running) {
      fdPeak = Math.max(fdPeak, await descriptors(pid));
      rssPeak = Math.max(rssPeak, await residentMb(pid));
      await sleep(100);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { fdPeak, rssPeak };
    },
  };
}

/**
 * The other client, in a worker thread of its own (its own event loop, as another process's would be): a small
 * request every 20 ms over one keep-alive connection from 127.0.0.2, until told to stop; it answers with each
 * request's time and why any failed. Node's own https client: the worker imports nothing of the benchmark.
 */
const PROBER_SOURCE = `
const https = require("node:https");
const { parentPort, workerData } = require("node:worker_threads");
const { url, headers, ca } = workerData;
const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca, servername: "localhost", localAddress: "127.0.0.2" });
const times = [];
const failures = [];
let running = true;
parentPort.once("message", () => { running = false; });
const once = () => new Promise((resolve) => {
  const started = performance.now();
  const done = (why) => { times.push(performance.now() - started); if (why !== undefined) failures.push(why); resolve(); };
  const request = https.get(url, { agent, headers, timeout: 10000 }, (answer) => {
    answer.resume();
    answer.once("end", () => done(answer.statusCode === 200 ? undefined : String(answer.statusCode)));
    answer.once("error", (error) => done(error.code ?? "error"));
  });
  request.once("timeout", () => request.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
  request.once("error", (error) => done(error.code ?? "error"));
});
(async () => {
  while (running) {
    await once();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  agent.destroy();
  parentPort.postMessage({ times, failures });
})();
`;

/** Small requests from another client (a worker thread), one every 20 ms, until stopped: their p99 and any that failed. */
function prober(server: Server, ca: string): { stop(): Promise<{ p99: number; count: number; failed: number; failures: string }> } {
  const worker = new Worker(PROBER_SOURCE, { eval: true, workerData: { url: server.probe.url, headers: server.probe.headers, ca } });
  const result = new Promise<{ times: number[]; failures: string[] }>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    async stop() {
      worker.postMessage("stop");
      const { times, failures } = await result;
      await worker.terminate();
      const counted = new Map<string, number>();
      for (const why of failures) counted.set(why, (counted.get(why) ?? 0) + 1);
      const sorted = [...times].sort((a, b) => a - b);
      return { p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0, count: times.length, failed: failures.length, failures: [...counted].map(([why, n]) => `${why} x${n}`).join(" ") };
    },
  };
}

/** An answer this much of which waits for a reader was let in by the server's budget (a refusal is a small problem). */
const ADMITTED_BYTES = 256 * 1024;
/** /proc/net/tcp's state of an established connection: a closing one counts its FIN in its send queue. */
const ESTABLISHED = "01";

/**
 * Bytes the server has sent to each of the benchmark's connections from 127.0.0.1 that nobody read, by the client's
 * address, from /proc/net/tcp: waiting in the server's send queue (most of it: a reader that stops reading closes
 * its window) and in the reader's receive queue; and the connections the server still holds open. Established
 * connections only.
 */
async function unreadBytes(serverPort: number): Promise<{ unread: Map<string, number>; held: Set<string> }> {
  const server = `0100007F:${serverPort.toString(16).toUpperCase().padStart(4, "0")}`;
  const unread = new Map<string, number>();
  const held = new Set<string>();
  for (const line of (await readFile("/proc/net/tcp", "utf8")).split("\n").slice(1)) {
    const [, local = "", peer = "", state = "", queues = ""] = line.trim().split(/\s+/);
    if (state !== ESTABLISHED) continue;
    const [sendQueue = "0", receiveQueue = "0"] = queues.split(":");
    if (local === server && peer.startsWith("0100007F:")) {
      held.add(peer);
      unread.set(peer, (unread.get(peer) ?? 0) + Number.parseInt(sendQueue, 16));
    } else if (peer === server && local.startsWith("0100007F:")) {
      unread.set(local, (unread.get(local) ?? 0) + Number.parseInt(receiveQueue, 16));
    }
  }
  return { unread, held };
}

/**
 * Watches the stalled readers' unread bytes every 100 ms until stopped: when the server last moved a byte to one of
 * them (its unread bytes grew), how many held an answer the server let in, and the longest such a connection stayed
 * open after its own last byte (the write timeout as the server keeps it).
 */
function lastMove(serverPort: number): { stop(): Promise<{ movedAt: number; admitted: number; heldAfterLastByte: number }> } {
  let running = true;
  let seen = new Map<string, number>();
  let open = new Set<string>();
  const grewAt = new Map<string, number>();
  let movedAt = Date.now();
  let admitted = 0;
  let heldAfterLastByte = 0;
  const loop = (async () => {
    while (running) {
      const now = Date.now();
      const { unread, held } = await unreadBytes(serverPort);
      for (const [client, bytes] of unread) {
        if (bytes <= (seen.get(client) ?? 0)) continue;
        movedAt = now;
        grewAt.set(client, now);
      }
      for (const client of open) {
        if (!held.has(client) && (seen.get(client) ?? 0) >= ADMITTED_BYTES) heldAfterLastByte = Math.max(heldAfterLastByte, now - (grewAt.get(client) ?? now));
      }
      admitted = Math.max(admitted, [...unread.values()].filter((bytes) => bytes >= ADMITTED_BYTES).length);
      seen = unread;
      open = held;
      await sleep(100);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { movedAt, admitted, heldAfterLastByte };
    },
  };
}

/**
 * What a server's TCP sockets are: its attackers' (connections to its own port), the other client's, to its upstream
 * with bytes waiting in either queue (an answer on its way) or idle (the pool's keep-alive connections), and any other.
 * The listening socket is none of them.
 */
interface SocketKinds {
  attackers: number;
  otherClient: number;
  upstream: number;
  idleUpstream: number;
  other: number;
}

/** /proc/net/tcp's state of a listening socket. */
const LISTENING = "0A";

/** The other client's address (127.0.0.2) as /proc/net/tcp writes it. */
const OTHER_CLIENT_HEX = "0200007F";

async function socketKinds(pid: number, port: number, upstreamPort: number): Promise<SocketKinds> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "");
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode !== undefined) inodes.add(inode);
  }
  const kinds: SocketKinds = { attackers: 0, otherClient: 0, upstream: 0, idleUpstream: 0, other: 0 };
  for (const line of (await readFile("/proc/net/tcp", "utf8")).split("\n").slice(1)) {
    const [, local = "", peer = "", state = "", queues = "", , , , , inode = ""] = line.trim().split(/\s+/);
    if (!inodes.has(inode) || state === LISTENING) continue;
    if (Number.parseInt(local.split(":")[1] ?? "", 16) === port) kinds[peer.startsWith(`${OTHER_CLIENT_HEX}:`) ? "otherClient" : "attackers"] += 1;
    else if (Number.parseInt(peer.split(":")[1] ?? "", 16) !== upstreamPort) kinds.other += 1;
    else kinds[queues === "00000000:00000000" ? "idleUpstream" : "upstream"] += 1;
  }
  return kinds;
}

/** A server's descriptors, and how many of them are idle upstream connections (kept alive by its pool). */
interface Descriptors {
  fds: number;
  idleUpstream: number;
}

async function descriptorsOf(server: Server): Promise<Descriptors> {
  return { fds: await descriptors(server.pid), idleUpstream: (await socketKinds(server.pid, server.port, server.upstreamPort)).idleUpstream };
}

/**
 * Milliseconds from `started` (default now) until the server's descriptors, its upstream pool's idle keep-alive
 * connections aside, are back within `slack` of `baseline` (`ms`), and until all of them are (`allMs`), or the limit;
 * and what its sockets were at each sample, so a late return names what held it. The pool's idle connections are
 * set aside because undici gives a request the first pool connection not in use, connected or not: when the stalled
 * readers' upstream connections are destroyed, the other client's next request opens a new one there and its own
 * warm one idles out the pool's keep-alive (3 s against the sandbox) after the attack's last descriptor is gone.
 */
async function settle(server: Server, baseline: Descriptors, slack: number, started = Date.now()): Promise<{ ms: number; allMs: number; samples: ({ at: number } & SocketKinds)[] }> {
  const samples: ({ at: number } & SocketKinds)[] = [];
  let ms = Number.POSITIVE_INFINITY;
  while (Date.now() - started < SETTLE_LIMIT_MS) {
    const fds = await descriptors(server.pid);
    if (fds <= baseline.fds + slack) return { ms: Math.min(ms, Date.now() - started), allMs: Date.now() - started, samples };
    const kinds = await socketKinds(server.pid, server.port, server.upstreamPort);
    samples.push({ at: Date.now(), ...kinds });
    if (ms === Number.POSITIVE_INFINITY && fds - kinds.idleUpstream <= baseline.fds - baseline.idleUpstream + slack) ms = Date.now() - started;
    await sleep(100);
  }
  return { ms, allMs: Number.POSITIVE_INFINITY, samples };
}

/** Opens IDLE_CONNECTIONS TCP connections that send nothing, at most OPEN_AT_ONCE at a time; each stays until the server closes it. */
async function idleFlood(server: Server): Promise<{ opened: number; refused: number; left: Socket[] }> {
  let open = 0;
  let opened = 0;
  let refused = 0;
  const live = new Set<Socket>();
  while (opened < IDLE_CONNECTIONS) {
    if (open >= OPEN_AT_ONCE) {
      await sleep(20);
      continue;
    }
    const batch = Math.min(200, IDLE_CONNECTIONS - opened, OPEN_AT_ONCE - open);
    await Promise.all(
      Array.from({ length: batch }, () =>
        new Promise<void>((resolve) => {
          const socket = tcpConnect({ host: server.host, port: server.port });
          open += 1;
          opened += 1;
          live.add(socket);
          socket.once("connect", () => resolve());
          socket.once("error", () => {
            refused += 1;
            resolve();
          });
          socket.once("close", () => {
            open -= 1;
            live.delete(socket);
            resolve();
          });
        }),
      ),
    );
  }
  return { opened, refused, left: [...live] };
}

/** STALLED_READERS TLS clients that ask for a maximal answer and never read it; resolves once the last has sent its request. */
async function stalledReaders(server: Server, ca: string): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < STALLED_READERS; i += 16) {
    await Promise.all(
      Array.from({ length: Math.min(16, STALLED_READERS - i) }, () =>
        new Promise<void>((resolve) => {
          const socket = tlsConnect({ host: server.host, port: server.port, ca, servername: "localhost" }, () => {
            socket.write(server.maximal);
            socket.pause();
            resolve();
          });
          socket.once("error", () => resolve());
          sockets.push(socket);
        }),
      ),
    );
  }
  return sockets;
}

async function measure(server: Server, ca: string): Promise<void> {
  const baseline = await descriptorsOf(server);
  const baselineFds = baseline.fds;
  const baselineRss = await residentMb(server.pid);

  // 20,000 connections that never begin TLS.
  let watch = sampler(server.pid);
  let probe = prober(server, ca);
  const flood = await idleFlood(server);
  const floodSettled = (await settle(server, baseline, 16)).ms;
  for (const socket of flood.left) socket.destroy();
  let peaks = await watch.stop();
  let probed = await probe.stop();
  const idle = {
    server: server.name,
    case: "idle",
    connections: flood.opened,
    refusedOrReset: flood.refused,
    baselineFds,
    fdPeak: peaks.fdPeak,
    backToBaselineS: Number((floodSettled / 1000).toFixed(1)),
    rssBaselineMb: baselineRss,
    rssPeakMb: peaks.rssPeak,
    probeP99Ms: Number(probed.p99.toFixed(1)),
    probes: probed.count,
    probesFailed: probed.failed,
    probeFailures: probed.failures,
  };
  cases.push(idle);
  const idleMet = floodSettled <= IDLE_TIMEOUT_S * 1000 && probed.p99 < 50 && probed.failed === 0;
  reportCase(
    rows,
    `${server.name}: ${IDLE_CONNECTIONS.toLocaleString("en")} connections that send no byte (TLS)`,
    idle,
    `descriptors ${baselineFds} → peak ${peaks.fdPeak} → baseline ${floodSettled / 1000} s after the last; RSS peak ${peaks.rssPeak} MB; other client p99 ${probed.p99.toFixed(1)} ms (${probed.failed} of ${probed.count} failed)`,
    `baseline within the idle timeout (${IDLE_TIMEOUT_S} s here); p99 < 50 ms`,
    idleMet,
  );

  // 256 clients that stop reading maximal answers, until the server's write timeout lets them go. Timed from the last
  // byte the server moved to any of them (where its timeout starts) and from the last request (the attack whole).
  const before = await descriptorsOf(server);
  const fdsBefore = before.fds;
  const rssBefore = await residentMb(server.pid);
  watch = sampler(server.pid);
  probe = prober(server, ca);
  const moves = lastMove(server.port);
  const firstRequest = Date.now();
  const readers = await stalledReaders(server, ca);
  const lastRequest = Date.now();
  await sleep(5_000);
  const held = { fds: await descriptors(server.pid), rss: await residentMb(server.pid) };
  // Within 2 of the baseline: the few readers the budget let in must be gone too.
  const { ms: readersSettled, allMs: allSettled, samples } = await settle(server, before, 2, lastRequest);
  const rssSettled = await residentMb(server.pid);
  // When the server last moved a byte to a stalled reader: its write timeout counts from there.
  const moved = await moves.stop();
  const sinceLastMove = lastRequest + readersSettled - moved.movedAt;
  const allSinceLastMove = lastRequest + allSettled - moved.movedAt;
  // What the server still held when the idle timeout after the last byte had passed (nothing, when it was on time).
  const late = samples.find((sample) => sample.at >= moved.movedAt + IDLE_TIMEOUT_S * 1000);
  for (const socket of readers) socket.destroy();
  peaks = await watch.stop();
  probed = await probe.stop();
  const stalled = {
    server: server.name,
    case: "stalled",
    readers: STALLED_READERS,
    admitted: moved.admitted,
    baselineFds: fdsBefore,
    fdsHeld: held.fds,
    rssBeforeMb: rssBefore,
    rssHeldMb: held.rss,
    rssPeakMb: peaks.rssPeak,
    rssAtBaselineMb: rssSettled,
    openingS: Number(((lastRequest - firstRequest) / 1000).toFixed(1)),
    backToBaselineS: Number((readersSettled / 1000).toFixed(1)),
    afterLastByteS: Number((sinceLastMove / 1000).toFixed(1)),
    longestHeldAfterOwnLastByteS: Number((moved.heldAfterLastByte / 1000).toFixed(1)),
    idleUpstreamToo: Number((allSinceLastMove / 1000).toFixed(1)),
    heldAfterIdleTimeout: late === undefined ? "-" : `${late.attackers} attacker, ${late.otherClient} other client, ${late.upstream} upstream carrying bytes, ${late.idleUpstream} idle upstream, ${late.other} other sockets`,
    probeP99Ms: Number(probed.p99.toFixed(1)),
    probes: probed.count,
    probesFailed: probed.failed,
    probeFailures: probed.failures,
  };
  cases.push(stalled);
  reportCase(
    rows,
    `${server.name}: ${STALLED_READERS} clients that stop reading maximal answers`,
    stalled,
    `${moved.admitted} let in by the budget, the others refused; RSS peak ${peaks.rssPeak} MB (${held.rss} MB and ${held.fds} descriptors 5 s after the last request); each let go at most ${(moved.heldAfterLastByte / 1000).toFixed(1)} s after its own last byte; descriptors at the baseline ${(sinceLastMove / 1000).toFixed(1)} s after the last byte the server moved to any of them (with the upstream pool's idle connections too ${(allSinceLastMove / 1000).toFixed(1)} s), ${(readersSettled / 1000).toFixed(1)} s after the last request (opening all took ${((lastRequest - firstRequest) / 1000).toFixed(1)} s), RSS then ${rssSettled} MB (${rssBefore} MB before); other client p99 ${probed.p99.toFixed(1)} ms (${probed.failed} of ${probed.count} failed)`,
    `< 700 MB; descriptors (the upstream pool's idle keep-alive connections aside) at the baseline within the idle timeout (${IDLE_TIMEOUT_S} s, give or take the 100 ms samples) of the last byte moved; p99 < 50 ms`,
    peaks.rssPeak < 700 && sinceLastMove <= IDLE_TIMEOUT_S * 1000 + 200 && probed.p99 < 50 && probed.failed === 0,
  );
}

async function startRelay(apiUrl: string, origin: string): Promise<{ child: ChildProcess; port: number }> {
  const certs = path.join(ROOT, ".certs");
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "src/relay/server.ts", "--api", apiUrl, "--token", `${origin}/connect/token`, "--ca", path.join(certs, "ca.crt"), "--cert", path.join(certs, "localhost.crt"), "--key", path.join(certs, "localhost.key"), "--port", "0", "--host", "127.0.0.1", "--static", path.join(ROOT, "no-static-dir"), "--idle-timeout", String(IDLE_TIMEOUT_S), "--timeout", String(IDLE_TIMEOUT_S / 2)],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    if (child.stdout === null) throw new Error("no stdout");
    const reader = createInterface({ input: child.stdout });
    reader.on("line", (line) => {
      const match = /^RELAY https?:\/\/[^:]+:(\d+)/.exec(line);
      if (match !== null) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`relay exited with ${code}`)));
  });
  // Its request log goes nowhere once the port is known.
  child.stdout?.resume();
  return { child, port };
}

async function token(origin: string, agent: Agent, body: string, basic?: string): Promise<string> {
  const answer = await request(`${origin}/connect/token`, {
    dispatcher: agent,
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(basic === undefined ? {} : { authorization: `Basic ${Buffer.from(basic).toString("base64")}` }) },
    body,
  });
  return ((await answer.body.json()) as { access_token: string }).access_token;
}

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  const sandbox = await startSandboxCli(TODAY, ["--host", "127.0.0.1", "--idle-timeout", String(IDLE_TIMEOUT_S)]);
  const pid = sandbox.child.pid ?? 0;
  const port = Number(new URL(sandbox.origin).port);
  const local = `https://127.0.0.1:${port}`;
  const agent = new Agent({ connect: { ca: sandbox.ca, servername: "localhost" } });
  const relay = await startRelay(sandbox.apiUrl, local);
  try {
    const attacker = await token(local, agent, "grant_type=servicekey&serviceName=sandbox-service&serviceKey=sandbox-service-key&client_id=service_client");
    const other = await token(local, agent, "grant_type=client_credentials&scope=sandbox.physicalprices.api", "sandbox-full:sandbox-full-secret");
    const { symbols } = maximalSymbols(TODAY, FROM, 100_000);
    const maximal = `GET /physical/v2/Prices/History?Symbols=${symbols.join(",")}&FromDate=${FROM}&ToDate=${TODAY} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${attacker}\r\n\r\n`;
    const small = "/physical/v2/Prices?Symbols=MB-AL-0004";
    await measure({ name: "sandbox", pid, host: "127.0.0.1", port, upstreamPort: 0, probe: { url: `${local}${small}`, headers: { authorization: `Bearer ${other}` } }, maximal }, sandbox.ca);
    await measure(
      { name: "relay (HTTPS)", pid: relay.child.pid ?? 0, host: "127.0.0.1", port: relay.port, upstreamPort: port, probe: { url: `https://127.0.0.1:${relay.port}${small}`, headers: { authorization: `Bearer ${other}` } }, maximal },
      sandbox.ca,
    );
  } finally {
    await agent.close();
    const exited = new Promise((resolve) => relay.child.once("exit", resolve));
    relay.child.kill("SIGTERM");
    await exited;
    await stopSandboxCli(sandbox.child);
  }
  const when = `${new Date().toISOString().slice(0, 10)}, Node ${process.version}, load average ${loadAtStart.map((l) => l.toFixed(1)).join(" ")} at the start and ${loadavg().map((l) => l.toFixed(1)).join(" ")} at the end`;
  await writeSection(
    "Servers against hostile clients",
    `Written by \`npm run bench:hostile\` (scripts/bench-hostile.ts) on ${when}. The sandbox CLI (data to ${TODAY}) and the relay (HTTPS, the sandbox as upstream) each run as their own process, with \`--idle-timeout ${IDLE_TIMEOUT_S}\`; descriptors and resident memory are read from /proc every 100 ms. The idle connections come ${OPEN_AT_ONCE.toLocaleString("en")} at a time from one address and send nothing; the stalled readers share one service-key token, ask for a maximal history (100,000 records) and never read; their time back to the baseline counts from the last byte the server moved to any of them (read as the growth of the bytes sent to one of them and unread, in the server's send queue and its receive queue of /proc/net/tcp, every 100 ms), since each server lets a stalled answer go once its waiting bytes have not moved for the idle timeout, and from the moment the last of them sent its request. The other client probes \`/Prices\` for one symbol every 20 ms with its own token (from another loopback address, 127.0.0.2), from a worker thread of the benchmark (its own event loop, so the benchmark's reading of /proc does not delay it), on the same two shared cores as the attack. A server's descriptors are counted back at its baseline leaving aside its upstream pool's idle keep-alive connections (sockets to the upstream with nothing queued either way): undici gives a request the first pool connection not in use, connected or not, so when the stalled readers' upstream connections are destroyed the other client's next request opens a new one in their place and its own warm one idles out the pool's keep-alive (3 s against the sandbox's \`Keep-Alive: timeout=5\`); the time with them counted too is \`idleUpstreamToo\`.\n\n${targetTable(rows)}\n\n${rawLines(cases)}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
