// boardgame.io's server with the bgio-postgres store: node server.js URL PORT API_PORT
// (socket.io on PORT, the lobby API on API_PORT: 0.50.2's lobby answers 404
// on the game port with today's koa-compose, so it gets a port of its own).
process.env.NODE_ENV = 'production';
const { Server } = require('boardgame.io/server');
const { PostgresStore } = require('bgio-postgres');
const { Cards } = require('./game');

const [url, port, apiPort] = process.argv.slice(2);
const db = new PostgresStore(url, { logging: false, pool: { max: 40 } });
const server = Server({ games: [Cards], db });
server.run({ port: Number(port), lobbyConfig: { apiPort: Number(apiPort) } }, () => {
  process.stdout.write('ready\n');
});
