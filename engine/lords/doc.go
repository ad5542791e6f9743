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
// awaited decision, the event descriptions, the rule errors and
// Result.Summary are in the same language, every text from the engine's
// catalog i18n/{en,fr,it}.json (package engine/i18n), in the rulebooks'
// words: French 2015 (recrue, allié, engager, partisan, récupérer,
// manche), the Italian summary (schierare, carta clan, supporter,
// rivendicare, schermaglia). Decide validates a move against the same rules, returns its
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
//
// # Rulings
//
// The engine follows the English rulebook (002_…, "the reference text")
// and the seventeen rulings of shared/rules/README.md where it leaves a
// choice. Each ruling, the English sentence it rests on, and the
// scenarios of testdata/ that pin it (named rulingNN_…):
//
//  1. Turn order; the initiative holder turns the leftmost face-down
//     recruit at the start of each of their turns: "at the beginning of
//     each of your turns and before taking your action, you must turn
//     face-up one face-down Recruit" (the French 2015 text says which:
//     « la première recrue face cachée, en partant de la gauche »).
//  2. Recruit any one recruit, replaced with the same facing; not with ten
//     cards ("You may not recruit if you have ten cards in your hands");
//     Forsyth's draw ignores the limit; a seat that can do neither passes
//     (the text is silent: a player with an empty hand and no recruit
//     left has no legal action).
//  3. Activation, 2–3 players: "if, and only if, there are no other
//     face-up Followers in the skirmish with a LOWER strength at that
//     time". Face-down followers are ignored; equal does not block.
//  4. Activation, 4–5 players: "as long as there is no other Follower of
//     the same Clan in the skirmish with a strength equal to or less";
//     face-down followers are ignored, as in the general rule (see
//     Rulebooks compared for the reading and its reasons).
//  5. "you may activate" is a choice; "A Clan's power only activates on the
//     turn it is played": not after a swap, a Cockburn or a carry-over.
//  6. Cockburn: "you put it as a Supporter and then take a different
//     Supporter card"; the card taken does not activate.
//  7. Fergusson: "If you take a face-down card it remains face-down".
//  8. Wemyss: "Discard a Follower from any army", face-down ones included,
//     one's own army included.
//  9. Scott: "Copy the face-up power of any Follower"; not another Scott
//     (a copy of a copy has no printed power to copy).
//  10. End-of-round powers: "If … your Follower belongs to another
//     player's army at the end of the round, then its effect will occur
//     for that player instead."
//  11. Bruce: "considered to be part of any Clan you wish at the end of
//     the round" once activated; the two Bruces are one clan.
//  12. Cochrane: "take two instead of one"; two Cochranes still claim two.
//  13. MacDonnell: "remains in play for the next round. Its power,
//     however, cannot be activated again."
//  14. Scoring and claims: "Double the total of any army if it contains
//     more than one card and ALL cards in this army are from the same
//     Clan"; "the player who controls the highest ranking Clan … wins the
//     tie"; "A player without any Follower does not get to claim" (a
//     MacDonnell kept from the last round is a follower).
//  15. "If the draw pile runs out of cards, reshuffle the discard pile";
//     "If all the Supporters you draw … have the same strength, discard
//     them immediately and replace them", at setup too.
//  16. "Once 40 strength worth of Supporters is reached at the end of a
//     round, the player with the highest strength … wins"; "If two or more
//     players are tied, then the player who placed higher in the final
//     round wins."
//  17. "Set aside the two Clan Bruce cards. Once you have played the game
//     a couple of times, you may add them back": the option bruce.
//
// # Rulebooks compared
//
// Four texts describe the game: English (002_…, the reference), French
// 2015 (000_…, a faithful translation), an older French edition (001_…)
// and an Italian summary (004_…). Where they differ, the reading chosen
// and why:
//
//   - Activation with 4–5 players. English: "a Clan's power activates as
//     long as there is no other Follower of the same Clan in the skirmish
//     with a strength equal to or less than the strength of your
//     Follower. Basically, … ignore the strength of any Follower from a
//     different Clan"; French 2015: « aucun allié du même clan … dont la
//     force est inférieure ou égale »; old French: « pas d'autre clan de
//     la même lignée … avec une force égale ou inférieure ». None of the
//     three says "face-up" there. Italian: « nessuna carta di valore
//     inferiore giocata scoperta dello stesso clan », face-up and strictly
//     lower. Chosen (ruling 4): a face-up follower of the same clan with an
//     equal or lower strength blocks. The paragraph replaces two parts of
//     the CLAN POWERS condition ("no other face-up Followers in the
//     skirmish with a LOWER strength"), the ones it names: which followers
//     are compared (the same clan only) and the comparison (equal or less,
//     so it blocks on equal strength where the 2–3 player rule does not;
//     within one clan only the two Bruce 12s can be equal,
//     ruling04_activation_4_5_players). It says nothing of facing, so that
//     part of the general condition stands: only face-up followers count.
//     Counting face-down ones would also make the condition one nobody
//     could check, since their clan and strength are secret. "Equal or
//     less" is what the reference text and both French texts print; the
//     Italian summary alone says strictly lower, and it is followed only
//     where it agrees with the general rule (face-up).
//   - Activation with 2–3 players. English ON YOUR TURN: "no other card in
//     the skirmish with a LOWER strength"; English CLAN POWERS: "no other
//     face-up Followers"; French 2015 and old French likewise differ
//     between their two paragraphs; Italian: face-up. Chosen: face-up only
//     (ruling 3), the detailed paragraph.
//   - Which recruit the initiative holder turns. English: "one face-down
//     Recruit"; old French and Italian: any one; French 2015: the leftmost.
//     Chosen: the leftmost (ruling 1): the most precise text; the choice
//     changes nothing but which card is shown.
//   - Cochrane twice. English and French 2015 are silent; old French: « Ce
//     pouvoir ne peut être cumulé »; Italian: « non è cumulabile (non si
//     possono rivendicare 4 supporter) ». Chosen: two Cochranes claim two
//     (ruling 12), the only reading the two explicit texts allow.
//   - Wemyss's target. English: "Discard a Follower from any army";
//     French 2015: « de n'importe quelle armée »; old French: « un autre
//     clan de cette escarmouche »; Italian: a card « negli eserciti di uno
//     a scelta degli altri giocatori », the others' armies only. Chosen:
//     any army, one's own included (ruling 8), as the reference says.
//   - Face-down targets of Wemyss and Fergusson. English: Fergusson keeps
//     a face-down card face-down (so face-down cards may be taken), Wemyss
//     is silent; Italian: both « coperta o scoperta ». Chosen: face-up or
//     face-down for both (rulings 7 and 8).
//   - An activated end-of-round power after a swap. English and French
//     2015: "an activated end-of-round power remains active if swapped";
//     old French omits the sentence; Italian: the power serves whoever
//     holds the card « anche se attivata da altri giocatori ». Chosen: it
//     stays active and serves the card's controller (ruling 10).
//   - MacDonnell. English: stays "for the next round", power spent; old
//     French: « Ne défaussez pas ce Clan à la fin de l'escarmouche »,
//     without a limit; Italian: one more skirmish, then discarded. Chosen:
//     one more round (ruling 13).
//   - Bruce. English: "When activated, Clan Bruce cards are considered to
//     be part of any Clan"; old French: « Ce clan compte comme même lignée
//     que tous les autres clans », without "activated"; Italian: like a
//     joker. Chosen: only an activated Bruce is any clan (ruling 11), as
//     for every other power.
//   - Game end. English: checked "at the end of a round" (THE GOAL OF
//     THE GAME), then "the player with the most strength from Supporters
//     wins" (THE END OF THE GAME); French 2015 the same. The old French
//     text names the first to 40 only in its goal line (« Etre le premier
//     à acquérir une force équivalente à quarante »); its FIN DE LA PARTIE
//     agrees with the English (« jusqu'à ce que quelqu'un accumule au
//     moins une valeur de quarante … A cet instant, le Lord avec le plus de
//     force de ses partisans remporte la victoire »). Italian: « Quando un
//     giocatore raggiunge o supera i 40 punti … viene dichiarato
//     vincitore », with ties to the better place « nell'ultima
//     schermaglia ». Chosen: checked at the end of the round, highest
//     total, ties to the better place in that round (ruling 16): the claims
//     of one round are made together, and every text's tie rule looks at
//     the final round.
//   - Who may claim. English: "You must have at least one Follower in your
//     army at the end of a round to claim a Supporter"; Italian: « deve
//     aver schierato almeno una carta clan nella schermaglia », a card
//     mustered in the round. They differ for a player whose only follower
//     is a MacDonnell kept from the last round. Chosen: the English (ruling
//     14): the kept MacDonnell "remains in play" in the army, so it is a
//     follower and its owner claims (ruling14_kept_macdonnell_claims).
//   - Same-strength supporters at setup. English: "If all the Supporters
//     you draw at the start of a new round have the same strength, discard
//     them immediately and replace them"; the Italian says it in its setup
//     section (« Se tutte le carte supporter sono dello stesso valore si
//     scartano e se ne pescano altre dal mazzo »). Chosen: the setup's
//     supporters are redrawn too (ruling 15): they are the first round's
//     supporters, dealt as every round's are ("arranged as described in
//     the setup of the game"), and no text says otherwise
//     (ruling15_supporters_redrawn_at_setup).
//   - Words. The old French text calls a card « clan », a clan « lignée »
//     and a turn « manche » (a round is « escarmouche »); French 2015 calls
//     a round « manche », a follower « allié ». Only the words differ.
//
// # Coverage
//
// Every section of the English rulebook, its tag, and the scenarios
// (testdata/NAME.txt) that play it. A scenario marks the assertion that
// shows it reached a row's situation with the row's tag ("expect total 0
// 70   @double"); TestCoverageTable plays every scenario a row names and
// fails unless that assertion passed, and fails for a scenario in no row.
// game_two_players and game_four_players_bruce are whole games, dealt by
// New and played to the end.
//
//	Section [tag]                                                            Scenarios
//	Reading the cards: clan, rank, strength [cards]                          rulebook_example_rank_tie, rulebook_example_judy_sean_roger
//	Setting up the game [setup]                                              setup_deal, ruling17_bruce_set_aside, ruling17_bruce_option
//	The goal of the game [goal]                                              ruling16_game_end, game_two_players, game_four_players_bruce
//	How to play: each player in turn, clockwise [clockwise]                  ruling01_turn_order, ruling04_five_players
//	How to play: five turns a round [five-turns]                             ruling01_five_turns
//	On your turn: the initiative's recruit [initiative-recruit]              ruling01_turn_order, ruling01_five_turns
//	A. Recruit, same facing [recruit-facing]                                 ruling02_recruit
//	A. Recruit, the ten-card limit [ten-cards]                               ruling02_recruit
//	B. Muster face-up or face-down [muster]                                  rule_face_down_never_activates, clarification_own_face_down
//	Neither possible: pass (ruling 2) [pass]                                 ruling02_pass
//	End of round: reveal, total, double [double]                             rulebook_example_judy_sean_roger, ruling01_five_turns, ruling11_bruce_any_clan, ruling11_bruce_not_doubled
//	End of round: claims in order, each chooses [claims]                     rulebook_example_judy_sean_roger, ruling14_no_follower_no_claim
//	End of round: ties by rank [rank-tie]                                    rulebook_example_rank_tie, ruling14_tie_three_ways
//	End of round: discard, deal, initiative [discard-initiative]             ruling01_five_turns
//	End of round: nobody won, the initiative stays [initiative-stays]        ruling14_nobody_has_followers
//	The end of the game: below 40 the game goes on [below-40]                ruling16_below_40_goes_on, game_two_players, game_four_players_bruce
//	The end of the game: the most strength wins [game-end]                   ruling16_game_end, game_two_players, game_four_players_bruce
//	The end of the game: a tie [game-tie]                                    ruling16_tie_break
//	Clan powers: activation, 2-3 players [activation-2-3]                    ruling03_activation_2_3_players
//	Clan powers: activation is a choice [choice]                             ruling03_activation_2_3_players, ruling04_activation_4_5_players
//	Clan powers: end of round, stays active [stays-active]                   rule_end_power_stays_active
//	Clan powers: end of round, controller [controller]                       ruling10_end_power_follows_the_card, power_macdonnell_swapped_away
//	Clan powers: end of round, the card left play [leaves-play]              rule_end_power_leaves_play
//	Clan powers: face-down never activates [face-down]                       rule_face_down_never_activates
//	Cockburn [cockburn]                                                      ruling06_cockburn, ruling09_scott_copies_cockburn
//	Cockburn: the new supporter is claimed [cockburn-claimed]                ruling06_cockburn_claimed
//	Fergusson [fergusson]                                                    ruling07_fergusson_face_down, ruling09_scott_copies_fergusson, ruling05_activation_is_a_choice
//	Forsyth [forsyth]                                                        power_forsyth, power_forsyth_nothing_to_draw, ruling03_activation_2_3_players
//	Makgill [makgill]                                                        power_makgill_chain, power_makgill_last_card, ruling05_activation_is_a_choice, power_scott_copies_makgill
//	Scott [scott]                                                            ruling09_scott_cannot_copy_scott, ruling09_scott_copies_cochrane, ruling09_scott_copies_cockburn, ruling09_scott_copies_fergusson, ruling09_scott_copies_wemyss, ruling09_scott_copies_bruce, ruling09_scott_copies_macdonnell, power_scott_copies_makgill, clarification_copy_keeps_power
//	Wemyss [wemyss]                                                          ruling08_wemyss_face_down, rule_end_power_leaves_play, power_scott_copies_makgill
//	Bruce [bruce]                                                            ruling11_bruce_any_clan, ruling11_two_bruce_one_clan, ruling11_bruce_not_doubled
//	Cochrane [cochrane]                                                      ruling12_cochrane_two_cochranes, power_cochrane_one_supporter_left, ruling09_scott_copies_cochrane, clarification_copy_keeps_power
//	MacDonnell [macdonnell]                                                  ruling13_macdonnell, power_macdonnell_kept_swapped, power_macdonnell_swapped_away
//	MacDonnell kept: a face-up follower of the next round [kept-activation]  rule_kept_macdonnell_counts
//	Clarification: reshuffle the discards [reshuffle]                        ruling15_reshuffle, power_forsyth
//	Clarification: own face-down cards [own-face-down]                       clarification_own_face_down, ruling07_fergusson_face_down
//	Clarification: a follower to claim [follower-to-claim]                   ruling14_no_follower_no_claim, ruling14_nobody_has_followers, ruling14_kept_macdonnell_claims
//	Clarification: no supporter left [no-supporter-left]                     ruling12_cochrane_two_cochranes
//	Clarification: unclaimed discarded [unclaimed-discarded]                 ruling14_no_follower_no_claim, ruling14_nobody_has_followers
//	Clarification: same-strength supporters [same-strength]                  ruling15_supporters_redrawn, ruling15_supporters_redrawn_at_setup
//	Clarification: power only on its turn [only-its-turn]                    ruling05_activation_is_a_choice, ruling06_cockburn, power_macdonnell_kept_swapped
//	Clarification: active power swapped [active-swapped]                     ruling10_end_power_follows_the_card, power_macdonnell_swapped_away
//	Clarification: copying does not negate [copy-keeps]                      clarification_copy_keeps_power
//	Alternative rules with 4 or 5 players [activation-4-5]                   ruling04_activation_4_5_players, ruling04_five_players
package lords
