// The pbem side of the move path, measured as bgio/bench.js measures
// boardgame.io: a fresh database on the harness's server, the server
// (`pbem serve`) in a process of its own on 127.0.0.1, its players in
// another (`pbemload -url URL -pid PID`: -players concurrent players, each
// playing its own four-seat Lords of Scotland games over HTTP, creating the
// next game when one ends).
//
// pbemload prints its figures (moves/s, p50/p99 of POST /moves, its own
// CPU readings); this script reads, with the same code as bgio/bench.js
// (lib/meter.js), the CPU time of the server process, of the players'
// process, of the backends serving the database and of the whole
// PostgreSQL cluster, and the WAL position, when the play starts (the
// "loadtest:" line with --games 0, else the "created:" line) and when it
// ends (the "moves:" line): the CPU and WAL per move are taken over that
// window, the moves and latencies are pbemload's.
//
// The server is configured as an operator would run it, with what
// pbemload needs: its secret (PBEM_SECRET, so that the players can
// confirm their games and play their seats) and no rate limits
// (PBEM_LIMIT_*=off). No PBEM_SMTP_URL: the outbox worker renders every
// email owed and stores it in the dev mailbox (a table), as it would hand
// it to an SMTP server.
//
// Usage: node pbem-load.js --bin DIR [--duration 20] [--players 32]
//   [--games 0] [--url ADMIN_URL] [--json FILE] [--keep]
// DIR holds the tree's `pbem` and `pbemload` binaries (build.sh).
'use strict';

const crypto = require('crypto');
const os = require('os');
const path = require('path');
const fs = require('fs');
const readline = require('readline');
const { spawn } = require('child_process');
const { Client } = require('pg');
const meter = require('./lib/meter');

function args() {
  const o = {
    bin: '', duration: 20, players: 32, games: 0,
    url: process.env.PEERS_DATABASE_URL || 'postgres://postgres@127.0.0.1:5545/postgres', json: '', keep: false,
  };
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    const k = a[i].replace(/^--?/, '');
    if (k === 'keep') { o.keep = true; continue; }
    if (!(k in o)) throw new Error(`unknown flag ${a[i]}`);
    o[k] = typeof o[k] === 'number' ? Number(a[++i]) : a[++i];
  }
  if (!o.bin) throw new Error('--bin DIR (the tree\'s pbem and pbemload) is required');
  return o;
}

// startServer starts `pbem serve` on a free loopback port and resolves
// with the child and its base URL once it prints that it listens.
function startServer(bin, env) {
  const child = spawn(path.join(bin, 'pbem'), ['serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = [];
  child.stderr.on('data', (d) => { log.push(d); if (log.length > 200) log.shift(); });
  return new Promise((resolve, reject) => {
    let buf = '';
    const t = setTimeout(() => reject(new Error('pbem serve did not listen in 60 s')), 60000);
    child.stdout.on('data', (d) => {
      buf += d;
      const m = buf.match(/listening on (http:\/\/\S+)/);
      if (m) { clearTimeout(t); child.stdout.resume(); resolve({ child, base: m[1], log }); }
    });
    child.on('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`pbem serve exited (${code}):\n${Buffer.concat(log).toString()}`));
    });
  });
}

async function main() {
  const o = args();
  const admin = new Client({ connectionString: o.url });
  await admin.connect();
  const dbName = 'peers_pbem_' + crypto.randomBytes(4).toString('hex');
  await admin.query(`CREATE DATABASE ${dbName}`);
  const dbURL = new URL(o.url);
  dbURL.pathname = '/' + dbName;
  dbURL.search = '?sslmode=disable';
  const secret = crypto.randomBytes(32).toString('hex');
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'peers-pbem-'));
  const env = {
    ...process.env, DATABASE_URL: dbURL.toString(), PBEM_SECRET: secret, PBEM_DATA: data, PBEM_LISTEN: '127.0.0.1:0',
    PBEM_LIMIT_GAMES_ADDRESS: 'off', PBEM_LIMIT_GAMES_IP: 'off', PBEM_LIMIT_INVITATIONS_ADDRESS: 'off',
    PBEM_LIMIT_INVITATIONS_IP: 'off', PBEM_LIMIT_SIGNINS: 'off', PBEM_LIMIT_RECIPIENT_MAILS: 'off',
  };
  delete env.PBEM_SMTP_URL;
  let server;
  try {
    server = await startServer(o.bin, env);
    process.on('exit', () => server.child.kill('SIGKILL')); // never leave it behind
    const { rows: [s] } = await admin.query(`SELECT current_setting('server_version') v, current_setting('synchronous_commit') sc,
      current_setting('fsync') f`);
    console.log(`pbem: server pid ${server.child.pid} at ${server.base}, ${o.players} players x 4 seats, ` +
      `PostgreSQL ${s.v} (synchronous_commit=${s.sc}, fsync=${s.f}) database ${dbName}`);

    const postmaster = await meter.postmasterOf(admin);
    // The games table's updates and how many of them were HOT (issue #45,
    // part 3): read in the play's own database.
    const db = new Client({ connectionString: dbURL.toString() });
    await db.connect();
    const gamesUpdates = async () => {
      const { rows: [t] } = await db.query(`SELECT n_tup_upd::float8 upd, n_tup_hot_upd::float8 hot
        FROM pg_stat_user_tables WHERE relname = 'games'`);
      return t || { upd: 0, hot: 0 };
    };
    const load = spawn(path.join(o.bin, 'pbemload'), ['-url', server.base, '-pid', String(server.child.pid),
      '-duration', `${o.duration}s`, '-games', String(o.games), '-players', String(o.players)],
    { env, stdio: ['ignore', 'pipe', 'inherit'] });
    // read takes every reading at once, the /proc ones first (no await between them).
    const read = async () => {
      const sw = meter.procSwitches(server.child.pid);
      const r = { server: meter.procCPU(server.child.pid), clients: meter.procCPU(load.pid), cluster: meter.clusterCPU(postmaster),
        serverVCSW: sw.voluntary, serverICSW: sw.involuntary };
      r.backends = await meter.backendsCPU(admin, dbName);
      r.wal = await meter.walBytes(admin);
      r.games = await gamesUpdates();
      return r;
    };
    const out = { system: 'pbem', players: o.players, games_before: o.games };
    let r0, r1;
    const startLine = o.games > 0 ? /^created:/ : /^loadtest:/;
    const rl = readline.createInterface({ input: load.stdout });
    const pending = [];
    rl.on('line', (line) => {
      console.log(line);
      let m;
      if (startLine.test(line)) pending.push(read().then((r) => { r0 = r; }));
      if ((m = line.match(/^moves:\s+(\d+) moves\/s \((\d+) moves, (\d+) games, (\d+) conflicts\)/))) {
        pending.push(read().then((r) => { r1 = r; }));
        Object.assign(out, { moves_per_s: Number(m[1]), moves: Number(m[2]), games: Number(m[3]), conflicts: Number(m[4]) });
      }
      if ((m = line.match(/^POST \/moves:\s+p50 ([\d.]+) ms, p99 ([\d.]+) ms, max ([\d.]+) ms/))) {
        Object.assign(out, { p50_ms: Number(m[1]), p99_ms: Number(m[2]), max_ms: Number(m[3]) });
      }
      if ((m = line.match(/^GET \/view:.*\((\d+) views\)/))) out.views = Number(m[1]);
      if ((m = line.match(/^CPU per move:\s+server ([\d.]+) ms, clients ([\d.]+) ms/))) {
        out.pbemload_server_cpu_ms = Number(m[1]); // pbemload's own reading, for comparison
      }
    });
    const code = await new Promise((r) => load.on('exit', r));
    await Promise.all(pending);
    if (code !== 0) throw new Error(`pbemload exited with ${code}`);
    if (!r0 || !r1 || !out.moves) throw new Error('pbemload printed no play (no start line or no "moves:" line)');
    const n = out.moves;
    const per = (k) => (r1[k] - r0[k]) / n;
    Object.assign(out, {
      server_cpu_ms: per('server'), client_cpu_ms: per('clients'), process_cpu_ms: per('server') + per('clients'),
      pg_backends_cpu_ms: per('backends'), pg_cluster_cpu_ms: per('cluster'), wal_bytes: per('wal'),
      views_per_move: out.views / n, server_vcsw: per('serverVCSW'), server_icsw: per('serverICSW'),
    });
    console.log(`pbem CPU per move (read here): server ${out.server_cpu_ms.toFixed(3)} ms, clients ${out.client_cpu_ms.toFixed(3)} ms, ` +
      `PostgreSQL backends ${out.pg_backends_cpu_ms.toFixed(3)} ms, whole cluster ${out.pg_cluster_cpu_ms.toFixed(3)} ms; ` +
      `server + whole cluster ${(out.server_cpu_ms + out.pg_cluster_cpu_ms).toFixed(3)} ms`);
    console.log(`pbem WAL per move: ${out.wal_bytes.toFixed(0)} bytes`);
    // Counters a backend flushes about once a second: read after a pause.
    await new Promise((r) => setTimeout(r, 1500));
    const g1 = await gamesUpdates();
    out.games_updates = g1.upd - r0.games.upd;
    out.games_hot_updates = g1.hot - r0.games.hot;
    console.log(`pbem games updates: ${out.games_updates} (${(out.games_updates / n).toFixed(2)} a move), ` +
      `${(100 * out.games_hot_updates / Math.max(1, out.games_updates)).toFixed(1)}% HOT (pg_stat_user_tables)`);
    // turn_mail (migration 0101) is absent from older trees: to_jsonb(g) reads it if it is there.
    const { rows: [sz] } = await db.query(`SELECT avg(pg_column_size(g.*))::float8 row_bytes, count(*)::float8 n,
      avg(coalesce(octet_length(to_jsonb(g)->>'turn_mail'), 0))::float8 turn_bytes,
      pg_relation_size('games')::float8 heap FROM games g WHERE status = 'active'`);
    out.games_active_row_bytes = sz.row_bytes;
    out.games_turn_mail_bytes = sz.turn_bytes;
    console.log(`pbem games rows: ${sz.n} active, ${Math.round(sz.row_bytes)} bytes each on average ` +
      `(turn_mail ${Math.round(sz.turn_bytes)}); heap ${Math.round(sz.heap / 1024)} KB`);
    await db.end();
    console.log(`pbem server context switches per move: ${out.server_vcsw.toFixed(2)} voluntary, ${out.server_icsw.toFixed(2)} involuntary`);
    if (o.json) fs.writeFileSync(o.json, JSON.stringify(out, null, 2));
  } finally {
    if (server) {
      server.child.kill('SIGTERM');
      await new Promise((r) => { server.child.once('exit', r); setTimeout(r, 15000); });
    }
    fs.rmSync(data, { recursive: true, force: true });
    if (!o.keep) await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
}

main().catch((err) => {
  console.error('pbem-load:', err);
  process.exit(1);
});
