// Prints the tables of a run from the JSON files left in its output folder:
//
//   node table.js OUTDIR          bgio-N.json and pbem-N.json (run.sh: the move
//                                 path, boardgame.io beside pbem), floor-N.json
//                                 (the floor beside pbem) and eventstore.json
//                                 (the appends)
//   node table.js OUTDIR A B      A-N.json and B-N.json (compare.sh: the move
//                                 path of two trees), then B/A
//
// Every figure is the mean of the rounds; the ratio is right over left.
'use strict';

const fs = require('fs');
const path = require('path');

const [dir, left, right] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node table.js OUTDIR [LEFT RIGHT]');
  process.exit(2);
}
const read = (f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
const pad = (s, n) => String(s).padStart(n);
const fmt = (v, d = 0) => (v === undefined || v === null || Number.isNaN(v) ? '-' : Number(v).toFixed(d));
const ratio = (a, b, d = 2) => (a && b ? (a / b).toFixed(d) : '-');
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const rounds = (prefix) => fs.readdirSync(dir).filter((f) => f.startsWith(prefix + '-') && f.endsWith('.json')).sort().map(read);

// moveTable prints the move path of two systems (or trees), a and b, named na and nb.
function moveTable(a, b, na, nb) {
  for (const r of [...a, ...b]) {
    r.server_pg_cpu_ms = r.server_cpu_ms + r.pg_cluster_cpu_ms;
    r.total_cpu_ms = r.process_cpu_ms + r.pg_cluster_cpu_ms;
  }
  const rows = [
    ['moves/s acknowledged', 'moves_per_s', 0],
    ['latency p50 ms', 'p50_ms', 2],
    ['latency p99 ms', 'p99_ms', 2],
    ['CPU/move ms, server alone', 'server_cpu_ms', 3],
    ['CPU/move ms, clients alone', 'client_cpu_ms', 3],
    ['CPU/move ms, PG backends', 'pg_backends_cpu_ms', 3],
    ['CPU/move ms, PG whole cluster', 'pg_cluster_cpu_ms', 3],
    ['CPU/move ms, server + cluster', 'server_pg_cpu_ms', 3],
    ['CPU/move ms, all (+ clients)', 'total_cpu_ms', 3],
    ['WAL bytes/move', 'wal_bytes', 0],
    ['server switches/move, waits', 'server_vcsw', 2],
    ['server switches/move, preempted', 'server_icsw', 2],
  ];
  const w = Math.max(na.length, nb.length, 10) + 2;
  console.log(`${'figure'.padEnd(30)} ${pad(na, w)} ${pad(nb, w)} ${pad(`${nb}/${na}`, w + 2)}`);
  for (const [label, k, d] of rows) {
    const xa = a.map((r) => r[k]).filter((x) => typeof x === 'number');
    const xb = b.map((r) => r[k]).filter((x) => typeof x === 'number');
    const va = xa.length ? mean(xa) : undefined;
    const vb = xb.length ? mean(xb) : undefined;
    console.log(`${label.padEnd(30)} ${pad(fmt(va, d), w)} ${pad(fmt(vb, d), w)} ${pad(ratio(vb, va), w + 2)}`);
  }
  const each = (rs) => rs.map((r) => fmt(r.moves_per_s)).join(', ');
  console.log(`moves/s per round: ${na} ${each(a)}; ${nb} ${each(b)}`);
  const views = [...a, ...b].filter((r) => r.system === 'pbem').map((r) => fmt(r.views_per_move, 2));
  if (views.length) console.log(`pbem: GET views per move ${views.join(', ')}`);
}

// floorTable prints pbem beside the floor (floor/: HTTP and one durable
// INSERT a request): the figures both have, and pbem/floor.
function floorTable(pb, fl) {
  for (const r of [...pb, ...fl]) r.total_cpu_ms = r.process_cpu_ms + r.pg_cluster_cpu_ms;
  const rows = [
    ['moves/s acknowledged', 'moves_per_s', 0],
    ['latency p50 ms', 'p50_ms', 2],
    ['latency p99 ms', 'p99_ms', 2],
    ['CPU/move ms, processes', 'process_cpu_ms', 3],
    ['CPU/move ms, PG whole cluster', 'pg_cluster_cpu_ms', 3],
    ['CPU/move ms, processes + PG', 'total_cpu_ms', 3],
    ['WAL bytes/move', 'wal_bytes', 0],
  ];
  console.log(`${'figure'.padEnd(30)} ${pad('the floor', 12)} ${pad('pbem', 12)} ${pad('pbem/floor', 12)}`);
  for (const [label, k, d] of rows) {
    const vf = mean(fl.map((r) => r[k]));
    const vp = mean(pb.map((r) => r[k]));
    console.log(`${label.padEnd(30)} ${pad(fmt(vf, d), 12)} ${pad(fmt(vp, d), 12)} ${pad(ratio(vp, vf), 12)}`);
  }
  console.log(`moves/s per round: the floor ${fl.map((r) => fmt(r.moves_per_s)).join(', ')}; pbem ${pb.map((r) => fmt(r.moves_per_s)).join(', ')}`);
}

if (left && right) {
  const a = rounds(left);
  const b = rounds(right);
  console.log(`\nMOVE PATH: ${left} and ${right}, ${a.length} and ${b.length} round(s), mean of the rounds`);
  moveTable(a, b, left, right);
  process.exit(0);
}

const bg = rounds('bgio');
const pb = rounds('pbem');
if (bg.length || pb.length) {
  console.log(`\nMOVE PATH: ${(bg[0] || pb[0]).players} concurrent players, 4-seat card games, over loopback, same PostgreSQL, ` +
    `${bg.length || pb.length} round(s), mean of the rounds`);
  moveTable(bg, pb, 'boardgame.io', 'pbem');
  console.log('(latency: pbem, POST /moves to its answer, after the commit; boardgame.io, the move sent to the state update');
  console.log(' received by the mover\'s socket, sent before its writes. Server, clients and PostgreSQL are separate processes)');
}

const fl = rounds('floor');
if (fl.length && pb.length) {
  console.log(`\nTHE FLOOR: an HTTP endpoint doing one durable INSERT of a move-sized row a request (net/http + pgx, ` +
    `${fl[0].players} clients in its own process), same PostgreSQL, ${fl.length} round(s) interleaved with pbem's, mean of the rounds`);
  floorTable(pb, fl);
  console.log('(processes: pbem, its server and its load client; the floor, its one process, server and clients)');
}

if (fs.existsSync(path.join(dir, 'eventstore.json'))) {
  const es = read('eventstore.json'); // eventstore's results: an array (../shared/peers: {results})
  const by = {};
  for (const r of Array.isArray(es) ? es : es.results) (by[r.writers] ||= {})[r.system] = r;
  console.log('\nAPPENDS (event store): one event per transaction, each writer on its own stream, expected version checked;');
  console.log('events/s, all systems in one run, interleaved phases');
  console.log(`${pad('writers', 7)} ${pad('pbem', 8)} ${pad('MDB shared', 10)} ${pad('MDB percat', 10)} ${pad('INSERT', 8)} ${pad('INS(MDB)', 9)}` +
    ` ${pad('pbem/MDBsh', 10)} ${pad('pbem/MDBpc', 10)} ${pad('pbem/INSERT', 11)} ${pad('MDB/INS(MDB)', 12)}`);
  const writers = Object.keys(by).map(Number).sort((x, y) => x - y);
  for (const w of writers) {
    const r = by[w];
    const v = (s) => r[s] && r[s].events_per_s;
    console.log(`${pad(w, 7)} ${pad(fmt(v('pbem')), 8)} ${pad(fmt(v('mdb')), 10)} ${pad(fmt(v('mdb-cat')), 10)} ${pad(fmt(v('insert')), 8)} ${pad(fmt(v('insert-mdb')), 9)}` +
      ` ${pad(ratio(v('pbem'), v('mdb')), 10)} ${pad(ratio(v('pbem'), v('mdb-cat')), 10)} ${pad(ratio(v('pbem'), v('insert')), 11)} ${pad(ratio(v('mdb'), v('insert-mdb')), 12)}`);
  }
  console.log('PostgreSQL CPU per event, whole cluster (µs). MDB shared: streams game-<id>, one category, one advisory lock; MDB percat: a category per writer');
  for (const w of writers) {
    const r = by[w];
    const c = (s) => (r[s] ? fmt(r[s].pg_cpu_us_per_event) : '-');
    console.log(`${pad(w, 7)} ${pad(c('pbem'), 8)} ${pad(c('mdb'), 10)} ${pad(c('mdb-cat'), 10)} ${pad(c('insert'), 8)} ${pad(c('insert-mdb'), 9)}`);
  }
}
