// A four-player trick game of 144 moves, as long as a random four-player
// Lords of Scotland game in pbem: 4 x 36 cards dealt with the match's seeded
// random, one card played per turn, the highest card of each four takes the
// trick. Hands are hidden (each seat sees only its own, STRIP_SECRETS).
const { PlayerView } = require('boardgame.io/core');

const Cards = {
  name: 'cards',
  minPlayers: 4,
  maxPlayers: 4,
  setup: ({ random }) => {
    const deck = random.Shuffle(Array.from({ length: 144 }, (_, i) => i));
    const players = {};
    for (let p = 0; p < 4; p++) players[p] = { hand: deck.slice(p * 36, p * 36 + 36) };
    return { players, trick: [], tricks: [0, 0, 0, 0] };
  },
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    play: ({ G, playerID, events }, card) => {
      const hand = G.players[playerID].hand;
      const i = hand.indexOf(card);
      if (i < 0) return 'INVALID_MOVE';
      hand.splice(i, 1);
      G.trick.push({ seat: Number(playerID), card });
      if (G.trick.length === 4) {
        const best = G.trick.reduce((a, b) => (b.card > a.card ? b : a));
        G.tricks[best.seat]++;
        G.trick = [];
      }
      events.endTurn();
    },
  },
  endIf: ({ G }) => {
    if (Object.values(G.players).every((p) => p.hand.length === 0)) {
      return { tricks: G.tricks };
    }
  },
  playerView: PlayerView.STRIP_SECRETS,
};

module.exports = { Cards };
