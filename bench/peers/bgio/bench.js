// The boardgame.io side of bench/peers: node bench.js --url ADMIN_URL
// [--duration 20] [--warmup 10] [--players 32]. On a fresh database of the
// server at ADMIN_URL it starts server.js (boardgame.io + bgio-postgres) as a
// child process and runs PLAYERS players here, each playing its own
// four-seat matches one move at a time (create and join through the lobby
// API, then one socket.io client per seat, as four browsers would). A move
// is sent by the seat to move with a random card of its hand and counts,
// with its latency, when that seat's client receives the state after it
// (moves are server-only, `client: false`, so nothing is applied before the
// server answers). After the warm-up it measures for --duration: moves/s,
// p50/p99, CPU per move of the server, of the clients and of the whole
// PostgreSQL cluster, and WAL bytes per move. Its packages are in
// ../_node/node_modules (NODE_PATH, as run.sh sets it).
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const { Client: PG } = require('pg');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Cards } = require('./game');

const args = Object.fromEntries(process.argv.slice(2).reduce((a, v, i, all) => (i % 2 ? a : [...a, [v.replace(/^--/, ''), all[i + 1]]]), []));
const adminURL = args.url || process.env.PEERS_DATABASE_URL;
const duration = Number(args.duration || 20), warmup = Number(args.warmup || 10), players = Number(args.players || 32);
const port = 20000 + Math.floor(Math.random() * 20000), apiPort = port + 1;

function clockTicks(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { ppid: f[1], ticks: Number(f[11]) + Number(f[12]), reaped: Number(f[13]) + Number(f[14]) };
  } catch { return null; }
}
function clusterMs(postmaster) { // postmaster, its children, the children it reaped
  let t = 0;
  const pm = clockTicks(postmaster);
  if (pm) t += pm.ticks + pm.reaped;
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const s = clockTicks(d);
    if (s && s.ppid === String(postmaster)) t += s.ticks;
  }
  return t * 10;
}
// post calls the lobby API, again after a reset connection (its server
// closes idle keep-alive connections, which a pooled request may hit).
const post = async (url, body) => {
  for (let attempt = 1; ; attempt++) {
    try {
      const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
      return await r.json();
    } catch (e) {
      if (attempt >= 5 || !String(e.cause && e.cause.code).match(/ECONNRESET|EPIPE|UND_ERR_SOCKET/)) throw e;
    }
  }
};

// watch gives client c one subscriber for good (boardgame.io's
// unsubscribe can drop another subscriber: it numbers them by count), which
// wakes the waiters of after.
function watch(c) {
  c.waiters = [];
  c.subscribe((s) => {
    if (!s) return;
    c.waiters = c.waiters.filter((w) => (s._stateID > w.id ? (w.ok(), false) : true));
  });
  return c;
}

// after resolves when client c holds a state newer than stateID.
function after(c, stateID) {
  const s = c.getState();
  if (s && s._stateID > stateID) return Promise.resolve();
  return new Promise((ok) => c.waiters.push({ id: stateID, ok }));
}

async function main() {
  const admin = new PG({ connectionString: adminURL });
  await admin.connect();
  const db = 'peers_bgio_' + Math.random().toString(36).slice(2, 10);
  await admin.query(`CREATE DATABASE ${db}`);
  const u = new URL(adminURL); u.pathname = '/' + db;
  const postmaster = Number(clockTicks((await admin.query('SELECT pg_backend_pid() AS p')).rows[0].p).ppid);
  const server = spawn(process.execPath, [path.join(__dirname, 'server.js'), u.toString(), String(port), String(apiPort)], { stdio: ['ignore', 'pipe', 'inherit'] });
  process.on('exit', () => server.kill());
  await new Promise((ok, fail) => { server.stdout.on('data', (d) => String(d).includes('ready') && ok()); server.on('exit', fail); });
  const api = `http://127.0.0.1:${apiPort}/games/cards`;
  let measuring = false, moves = 0, games = 0;
  const lat = [];
  let stop = false;

  async function player(first) {
    let limit = first; // a first match cut short, so that match ages spread
    while (!stop) {
      const { matchID } = await post(`${api}/create`, { numPlayers: 4 });
      const seats = [];
      for (let s = 0; s < 4; s++) {
        const { playerCredentials } = await post(`${api}/${matchID}/join`, { playerID: String(s), playerName: 'p' + s });
        seats.push(watch(Client({ game: Cards, numPlayers: 4, matchID, playerID: String(s), credentials: playerCredentials, debug: false,
          multiplayer: SocketIO({ server: `http://127.0.0.1:${port}` }) })));
      }
      seats.forEach((c) => c.start());
      await Promise.all(seats.map((c) => after(c, -1)));
      for (let n = 0; !stop && n < limit; n++) {
        const st = seats[0].getState();
        if (st.ctx.gameover) break;
        const cur = st.ctx.currentPlayer, c = seats[Number(cur)], mine = c.getState();
        const hand = mine.G.players[cur].hand;
        const before = mine._stateID, t0 = performance.now();
        const moved = after(c, before);
        const all = Promise.all(seats.map((x) => after(x, before))); // the next mover needs it too
        c.moves.play(hand[Math.floor(Math.random() * hand.length)]);
        await moved;
        if (measuring) { moves++; lat.push(performance.now() - t0); }
        await all;
      }
      seats.forEach((c) => c.stop());
      if (measuring) games++;
      limit = Infinity;
    }
  }
  let failed = null;
  const running = Array.from({ length: players }, () => player(1 + Math.floor(Math.random() * 144)).catch((e) => { failed = failed || e; }));
  await new Promise((ok) => setTimeout(ok, warmup * 1000));
  const wal0 = (await admin.query(`SELECT pg_current_wal_lsn() - '0/0' AS w`)).rows[0].w;
  const srv0 = clockTicks(server.pid).ticks * 10, self0 = process.cpuUsage(), pg0 = clusterMs(postmaster), t0 = performance.now();
  measuring = true;
  await new Promise((ok) => setTimeout(ok, duration * 1000));
  measuring = false;
  const secs = (performance.now() - t0) / 1000, self = process.cpuUsage(self0);
  const srv = clockTicks(server.pid).ticks * 10 - srv0, pg = clusterMs(postmaster) - pg0;
  const wal = (await admin.query(`SELECT pg_current_wal_lsn() - '0/0' AS w`)).rows[0].w - wal0;
  stop = true;
  if (failed) throw failed;
  await Promise.race([Promise.allSettled(running), new Promise((ok) => setTimeout(ok, 5000))]);
  server.kill();
  await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  await admin.end();
  lat.sort((a, b) => a - b);
  const q = (p) => (lat.length ? lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] : NaN);
  const per = (ms) => (ms / Math.max(moves, 1)).toFixed(3);
  console.log(`moves:          ${(moves / secs).toFixed(0)} moves/s (${moves} moves, ${games} games finished)`);
  console.log(`move latency:   p50 ${q(0.5).toFixed(2)} ms, p99 ${q(0.99).toFixed(2)} ms`);
  console.log(`CPU per move:   server ${per(srv)} ms, clients ${per((self.user + self.system) / 1000)} ms, PostgreSQL ${per(pg)} ms`);
  console.log(`WAL per move:   ${(wal / Math.max(moves, 1)).toFixed(0)} bytes`);
  process.exit(0);
}
main().catch((e) => { console.error('bgio bench:', e); process.exit(1); });
