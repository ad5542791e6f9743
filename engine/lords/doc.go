// Package lords is the rules engine of Lords of Scotland (Richard James),
// for 2 to 5 players. It implements engine.Game under the name
// "lords-of-scotland"; build it with New. It follows the English rulebook
// and the rulings of shared/rules/README.md (cited as "ruling N").
//
// # Cards
//
// The deck is data: deck.csv (rank, clan, strength), embedded. A card is
// known everywhere by its rank (1–98), which is unique and breaks ties.
// The two Bruce cards (97, 98) are only in the game with the option
// {"bruce": true} (ruling 17); unknown option keys are bad_options.
//
// # State
//
// State holds every card in exactly one place: the draw pile (an ordered
// slice, top last), the discard pile, the hands, the armies (followers, each
// face-up or face-down, with the end-of-round power activated on it and the
// seats that know it when face-down), the five recruit places (face-up or
// face-down, or empty once both piles ran out), the supporters on offer and
// each seat's claimed supporters. Randomness is a ChaCha8 PRNG seeded from
// the game's seed and carried in the state's JSON; it is used only to
// shuffle (the deal and every reshuffle of the discards into an empty draw
// pile, ruling 15), so a draw is the top of the pile, known before it
// happens.
//
// # Flow
//
// New deals five cards each, five face-down recruits and one supporter per
// player (redrawn while all show the same strength). Seat 0 holds the
// initiative. A round is five turns; in each turn every seat acts once,
// clockwise from the initiative holder, who first turns the leftmost
// face-down recruit face-up (event turn_started; ruling 1). A seat either
// recruits (any recruit; the place is refilled from the draw pile with the
// same facing; not with ten cards in hand) or musters a card from its hand
// face-up or face-down (ruling 2). A seat that can do neither passes.
//
// A card mustered face-up may activate its power when the condition holds
// (2–3 players: no other face-up follower of the skirmish is strictly
// weaker; 4–5 players: no other face-up follower of the same clan is equal
// or weaker; rulings 3–4) and the power could have an effect; the player
// then decides (ruling 5):
//
//   - Forsyth, Makgill, Bruce, Cochrane, MacDonnell: {"type":"power","use":true|false}.
//     Makgill then asks for another muster ({"type":"muster",...}), which may
//     activate in its turn, Makgill counting as a face-up follower.
//   - Fergusson, Wemyss: {"type":"target","seat":S,"index":I} (an opponent's
//     follower to swap with; any other follower to discard) or decline.
//   - Cockburn: {"type":"target","card":SUPPORTER} or decline (ruling 6).
//   - Scott: {"type":"copy","seat":S,"index":I} (a face-up non-Scott follower
//     whose power would have an effect) or decline. The copied power then
//     resolves for the Scott card as if it were that clan (ruling 9): a
//     targeted one asks for its target (no more declining), an end-of-round
//     one stays attached to the Scott.
//
// End-of-round powers are marked on the follower (Follower.Power) and
// benefit whoever controls the card when the round ends (ruling 10).
//
// After the fifth turn the round is scored (event round_scored, ruling 14):
// every follower is revealed; an army's total is its strength, doubled with
// two or more cards all of one clan (activated Bruce is any clan; the two
// Bruces are one clan; ruling 11); armies are ranked by total, then by
// their highest rank; seats without followers claim nothing. Claimants
// choose a supporter in that order, two with an active Cochrane (ruling
// 12); a forced choice (one supporter left) is made automatically. Then
// (round_ended) the unclaimed supporters, the recruits and the followers
// are discarded, except activated MacDonnells, which stay one round more,
// power spent (ruling 13); the winner takes the initiative (unchanged if
// nobody had followers). If anyone has 40 supporter strength the game ends
// (game_ended; ties go to the better place in that round, ruling 16),
// otherwise the next round is dealt (round_started).
//
// # Moves, events, views
//
// Legal lists the decisions of the seat to move as JSON objects with a
// "type", their fields and a "label" in the game's language (Setup.Language:
// en, fr or it) naming the players by their Setup.Names ("Player 2" without
// them) and only the cards the mover may see ("Muster Makgill 7 face-up",
// "Fergusson: swap it with the face-down follower at position 2 of Bob");
// names and language are kept in the state, public. DecodeMove reads moves
// back strictly and ignores their label. The card texts of the view, the
// awaited decision and Result.Summary are in the same language. Decide validates a move against the same rules, returns its
// events and then the automatic ones (turn_started, passed, round_scored, a
// forced claimed, round_ended, round_started, game_ended) up to the next
// decision; it never changes the state. Apply is a type switch that only
// changes the state. Events name the cards they move; Redact hides from a
// seat what it may not see (a face-down recruit taken, every face-down
// replacement, a face-down muster, Forsyth's draw, a face-down card taken
// by Fergusson, which both players of the swap know). The discard pile is
// public: every card reaches it revealed (a face-down follower discarded by
// Wemyss is shown).
//
// View(seat) is the table as seat sees it: its hand, each seat's army
// (face-down cards hidden unless it knows them), hand count, claimed
// supporters and points, the recruits, supporters, pile counts, the
// discard pile, the carried MacDonnells, the last round's scores, the
// decision awaited and the legal moves. A card it may see is
// {"rank","clan","strength","power"}; one it may not is {"hidden":true}.
//
// DefaultMove recruits the strongest face-up recruit (else a face-down
// one), else musters the weakest card face-down; declines powers (a copied
// power takes its first target); claims the strongest supporter.
package lords
