// Package bagpipes implements Swords and Bagpipes (Yan Egorov, Rightgames
// 2014) for 2 to 6 players as an engine.Game named "swords-and-bagpipes":
// the whole French rulebook (/work/shared/rules/003_db2cc0221f105abc.txt),
// every variant, and an editable card set.
//
// # Model
//
// A state (state.go) holds the table: the English army deck, the bagpipe
// and dagger decks and discards, the badge of honour, the Stay Home!
// token, the defeat track, Scotland's camp and, per seat, gold, castle and
// camp units, bagpipe hand, face-up "x2" cards and dagger cards. Cards are
// indexes into the card set; randomness comes only from a ChaCha8 PRNG in
// the state (JSON field "rng"), used at setup and when a discard pile is
// reshuffled. The default card set is not repeated in each state; a
// custom set travels in "custom_cards".
//
// A round is a small state machine (phase field): invasion, actions (one
// turn per seat from the badge holder), badge of honour, stay_home and
// stay_home_replenishment (5-6 players), choice (simultaneous: ToMove
// lists every seat still to choose), before_reveal (card window),
// badge_of_honour_2p, battle, awards, award_cards (card window), end.
// Decide validates a move (check), then runs its event and the automatic
// events that follow (invasion, battle, awards, end, game end) on a copy,
// recording the cards drawn into the events; Apply is a type switch that
// only changes the state and draws from the state's own decks, so that a
// replay gives the same state bit for bit. Moves that cannot trigger
// anything automatic skip the copy (quiet).
//
// Moves (move.go) are JSON objects with a "type" (replenish, relocate,
// play, end_turn, pass_badge, keep_badge, stay_home, choose, pass), only
// the fields their type uses, and a "label" that is ignored when posted.
// Labels (label.go), card texts and names (text.go, the texts generated
// from the effects), event descriptions (describe.go), options, setup and
// rule errors and the result summary are written in the setup's language
// (en, fr, it; English otherwise), every text from the engine's catalog
// i18n/{en,fr,it}.json (package engine/i18n: CLDR plural forms, "1 unit",
// "3 units"), and name players by the setup's names ("Player 2" without
// them); both are kept in the state. A label is formatted only when asked
// for (Move.Label, or a move's JSON), never while listing moves, so
// playing costs no string work. The French uses the rulebook's words
// (Percevoir des impôts, Lever une milice, Rassembler des troupes, Engager
// des mercenaires, délocaliser, médaille d'honneur, « Restez chez vous ! »,
// cartes cornemuse, cartes dague) and its names of the cards ("L'aide de
// Lamberton", "Le plan de Balliol"; it keeps "Irvine Capitulation" and
// "Bruce Join Us Again !" as printed); the Italian is ours (there is no
// Italian rulebook). A card of a custom set keeps the name its file gives.
// Events (event.go) are public except: a choice (side, 2-player dagger
// card) until the battle, and the identity of cards drawn or discarded by
// another seat; Redact blanks those, and Describe only ever uses the
// public part.
//
// # Cards as data
//
// cards.json holds 2 King Edward, 8 English Army, 16 dagger (4×1, 8×2,
// 4×3) and 22 bagpipe cards. The printed texts are not public, so the set
// is designed from the rulebook's symbols: an effect is a kind (gold,
// lose_gold, castle_units, camp_units, relocate, withdraw, lose_units,
// militia, scotland_units, england_units, bagpipe, dagger,
// discard_dagger, switch), an amount, to whom (self, target, others, all,
// scots, english, badge) and a condition (scotland_won, england_won,
// supported_scotland, supported_england, badge). Army cards carry shield,
// the rewards under the intact and pierced berets and the crown, the
// "generous" crown (no split symbol), an effect applied when revealed,
// no_two_player (the two cards the 2-player game leaves out) and
// shield_by_choosers (the shield by number of choosing players, see
// Balance). A creator may pass their own set as options
// {"cards": {...}}; ParseCards (ParseCardsIn for French or Italian)
// validates it card by card, so that every refusal, a value of the wrong
// JSON type or an unknown field as well as a value out of the rules'
// limits, names the card by its list, index and name, and the field, in
// the game's language: `cards: english_army[3] "Battle of Falkirk", field
// effects[0].who: ...`, `cards : king_edward[0] « K », champ shield : doit
// être un nombre entier` (setuperror.go holds the messages in en, fr, it).
//
// Options (JSON object, unknown keys refused with bad_options):
// stay_home (5 players; always on with 6), three_player (the 3-player
// variant), together (Together for Scotland), long_game (9 rounds, five
// defeats), precise_daggers, cards. Game.Settings(lang) describes them
// for a lobby (which player counts allow each, labels and help lines named
// as the rulebook names them in that language); with three players the
// 3-player variant comes first. Every refused option or combination is a bad_options error whose
// message starts with the option's key ("three_player: the 3-player
// variant needs 3 players, not 4"), in the game's language.
//
// # Rulings
//
// Where the French text leaves a choice, the engine reads it as follows.
// Each ruling quotes the sentence it rests on where there is one, and the
// golden scenarios of testdata/golden named after it pin it.
//
//  1. Card windows: before-reveal and awards cards are always played in
//     the rulebook's dispute order (« le détenteur de la médaille
//     d'honneur doit jouer en premier, ensuite les autres joueurs jouent
//     dans le sens horaire »): from the badge holder clockwise, each
//     player plays any number of cards, then passes and may not play again
//     in that phase. A seat is skipped when everyone can see it cannot
//     play (staying home, deserter in the awards, no card that is not
//     fresh, no ready face-up x2 card); otherwise it must pass, so that the
//     skip never reveals what a hand holds.
//  2. Action-phase cards and relocation are played on one's own turn, in
//     any order with the compulsory replenishment; relocation may be done
//     several times. Hiring mercenaries needs 1 gold.
//  3. The badge holder (3+ players, not in the 3-player variant) places no
//     choice token: they support Scotland automatically and the others see
//     it (« Le détenteur de la médaille d'honneur est le seul joueur qui ne
//     doit pas choisir un camp à soutenir »).
//  4. "Up to N units" (« le joueur peut ajouter ou délocaliser le nombre
//     d'unités spécifié (ou moins d'unités) »): when a card's own unit
//     effect is variable, the move carries units, N or fewer (relocate
//     and withdraw are capped by what the castle or camp holds), and its
//     label says what it does with them ("you add 3 units to your
//     castle"). No unit at all is offered only where the card still does
//     something else for its player (Vive la France! adds 3 units to
//     Scotland's camp): Forced March, Cold Feet, Highland Charge or
//     Kinsmen with no unit would only spend the card, Treaty with Eric II
//     or Mercenary Captain would only cost gold, so they take 1 to N (a
//     Forced March with an empty castle cannot be played). Losing gold
//     as the card's own cost must be payable; gold or units taken from
//     others are taken up to what they have.
//  5. Deserters and the crown. « Si au début des combats, un joueur n'a
//     pas une seule unité dans son camp, il ne peut pas recevoir de
//     récompenses » and « L'or doit être partagé, de manière égale, entre
//     tous les supporters de l'Angleterre. L'or qui n'est pas attribué est
//     défaussé. » Deserters are the fighting players with an empty camp
//     when the battle starts, after the before-reveal cards and the
//     2-player badge transfer (deserter-by-card). The crown is divided
//     (integer division) among all the supporters of England, deserters
//     included, since a deserter is still one of « tous les supporters de
//     l'Angleterre »; a deserter cannot receive its share, so that share
//     and the remainder are the gold « qui n'est pas attribué », discarded
//     (crown-split-deserter, crown-all-deserted). A generous crown gives
//     each supporter of England who fought the whole amount. A deserter
//     receives no reward, on either side: no gold, bagpipe card or unit
//     (deserter-scotland-england-wins). A supporter of England who deserted
//     still draws its dagger card: the rewards are what the army card shows
//     under the berets and the crown (« les images des bérets et l'image de
//     la couronne soient exactement au-dessus des récompenses
//     correspondantes »), while a dagger card is the mark of the side
//     (« Les supporters de l'Angleterre reçoivent des cartes dague. Ce sont
//     des cartes de trahison ! »), drawn « sans tenir compte du résultat
//     des combats »; the 2-player game hands it over at the reveal whatever
//     the camp (« C'est la carte dague que le joueur reçoit pour sa
//     trahison ! »). An Awards event names the seats that draw a dagger
//     card; one written before (bagpipes-2) replays as it was played.
//  6. Rewards are handed out from the badge holder clockwise (this fixes
//     who draws which card). Cards received in the awards phase, as
//     rewards or through a card, may not be played in that phase.
//  7. An "x2" card stays face up (public) after its first play and may be
//     played again in any later round, in the phase of its symbol.
//  8. Stay Home! and the English army card. The rule says of the player
//     who received the token: « Enfin, ce joueur n'est pas affecté par les
//     cartes de l'armée anglaise et ainsi de suite. » The round's order
//     settles when: the army card is revealed, and its special effect
//     applied, in phase 1 (« la carte peut avoir une description d'un effet
//     spécial »), while the token is given in phase 3, after the badge
//     (« Ensuite le détenteur du jeton … doit maintenant le donner »). So
//     at the reveal nobody stays home yet: an effect aimed at players
//     ("all", "badge") takes its targets then, the badge holder of phase
//     1 included, and what it gave (gold, castle units) is kept. From the
//     token on, the army card has nothing more for its receiver: its camp,
//     army units included, is discarded (step 2 of the rule); it chooses
//     no side, adds nothing to either army, takes no beret or crown reward
//     and no dagger card; effects that last into the battle or the awards
//     (England's extra units, the rewards) do not reach it; cards aimed at
//     a player cannot target it, and effects on "all", "others", "scots",
//     "english" or "badge" skip it. Militia raised once the token is given
//     (by its receiver's three replenishments or by a card) skips the seat
//     staying home. Scenarios: stay-home-army-effect-at-reveal,
//     stay-home-gold-at-reveal-kept, stay-home-cards-pass-by.
//  9. Seat 0 is the first player (the oldest) and holds the badge first.
//     Stay Home!: the first holder is the youngest, taken to be the last
//     seat (on the first player's right). The token affects its receiver
//     for the current round only.
//  10. 2 players: the badge does not force Scotland (both choose freely).
//     Its holder may keep it or give it, but not back to the player who
//     gave it in the previous round: « Vous ne pouvez pas passer la
//     médaille d'honneur au joueur qui vous l'a passée au tour précédent »
//     stays, since « Toutes les autres règles restent les mêmes, comme pour
//     les parties de 3 à 5 joueurs », and « au tour précédent » blocks only
//     the round after the pass: the receiver keeps the badge that round and
//     may give it back in the next (two-player-badge-no-return). Its
//     receiver moves all camp units but one to Scotland's camp. The offered
//     dagger cards are revealed with the choices: a supporter of England
//     takes the opponent's card face up (public), which replaces the
//     awards' dagger draw; a supporter of Scotland puts it in their own
//     public discard. This exchange happens even for a deserter (a dagger
//     card is not a reward, ruling 5). The immediate five-dagger rule is
//     checked before each invasion from round 2 on; the opponent wins, the
//     traitor is second. After the last round no round starts, so the game
//     ends as with more players (« La règle des cinq dagues doit aussi être
//     respectée »): a traitor cannot win when Scotland stands
//     (game-two-players-five-daggers). The game has no dagger deck (the
//     undealt cards stay in the box), so a card that makes a player draw a
//     dagger card gives a virtual 2-dagger card. The 2-player game refuses
//     long_game (only six army cards remain) and precise_daggers (its
//     dagger cards are dealt by value).
//  11. 3-player variant: an option (three_player), never imposed, since the
//     rulebook prints it under « VARIANTES GAME — PARTIES À 3 JOUEURS »;
//     three players without it play the standard rules. With it, the badge
//     passes to the next seat by itself; the bagpipe cards that mention
//     the badge are removed at setup, which is the same as discarding and
//     redrawing them; Together for Scotland still deals three cards.
//  12. The English army deck's filters (the 3-player variant leaves out
//     the cards that mention the badge, the 2-player game the cards marked
//     no_two_player) apply to the King Edward cards too: the King Edward
//     card is dealt into that deck and the rulebook counts it among its
//     cards (« la dernière carte de l'armée anglaise est jouée (cela sera
//     une des cartes du roi Edouard) »). A card set with no King Edward
//     card left for the options is refused (bad_options naming
//     king_edward and the options).
//  13. A secret choice stays secret until the reveal. A card played before
//     the reveal may not depend on its player's side: the conditions
//     supported_scotland and supported_england are allowed on awards cards
//     only, and a card set that puts one on a before-reveal (or actions)
//     card is refused when loaded, naming the card and the field, because
//     the card's public effect (gold, units) would show the side. The
//     switch effect stays allowed: it changes the side in secret.
//  14. End: after the last round, or after the end phase of the round of
//     the fourth (fifth) defeat. Scotland standing: most gold wins, a tie
//     to fewer daggers (« Si plusieurs joueurs sont à égalité pour l'or, le
//     vainqueur … est celui qui a le moins de dague »); fallen: fewest
//     daggers, then most gold. The five-dagger traitor (at least five
//     daggers more than every other player), only when Scotland stands,
//     « ne peut pas remporter la partie »: the winner is the first of the
//     others in that order, which is all the rule decides. The rules rank
//     nobody below the winner; Result must, and the engine places the
//     traitor last (Detail "traitor" 1), its own choice for the « traître
//     à la nation », not a rule: it changes no winner, since in any order
//     the traitor may not take first place. Seats tied on both figures
//     share a place. Score is gold; Detail "daggers" counts a virtual card
//     as 2.
//  15. Component limits: an empty deck is refilled by shuffling its
//     discards; with no dagger card left anywhere, a virtual 2-dagger card
//     is taken; with no bagpipe card left, none is drawn. discard_dagger
//     removes the card with most daggers first (a virtual one counts 2).
//  16. Default moves (timeouts): collect taxes, end the turn, support
//     Scotland (offering the smallest dagger card), give the badge or the
//     token to the next eligible seat clockwise, keep the badge (2
//     players), pass in card windows.
//
// # Coverage
//
// Every section of the rulebook, its tag, and the golden scenarios
// (testdata/golden/NAME.json) that play it. A scenario names in "reached"
// the tags its assertions show it reached: a step's (its error, events or
// expect) or the final ones (expect, expect_view or new_error);
// TestCoverageTable plays every scenario a row names and fails unless the
// row's tag was set by assertions that passed, and fails for a scenario in
// no row. The game-* scenarios are whole games, dealt by New and played to
// their natural end.
//
//	Section [tag]                                                              Scenarios
//	Mise en place [setup]                                                      setup-four-players
//	Mise en place : joueurs et options [setup-errors]                          bad-players, unknown-option
//	1. Phase invasion [invasion]                                               invasion, invasion-england-units, invasion-scotland-units, stay-home-gold-at-reveal-kept
//	2. Actions, réapprovisionnement [replenish]                                replenish-taxes, replenish-militia, replenish-troops, replenish-mercenaries
//	2. Actions, délocalisation [relocate]                                      actions-turn, relocate-limits, card-symbols
//	2. Actions, cartes cornemuse [action-cards]                                actions-turn, card-symbols
//	3. Médaille d'honneur [badge]                                              badge-pass, three-player-base
//	4. Phase des choix [choice]                                                choice-secret, before-reveal-window, switch-bound-badge
//	5. Phase des combats [battle]                                              battle-england-wins, battle-tie
//	6. Récompenses, déserteurs [deserters]                                     crown-split-deserter, crown-all-deserted, deserter-scotland-england-wins, deserter-by-card
//	6. Victoire de l'Écosse [scotland-won]                                     battle-tie, crown-all-deserted
//	6. Victoire de l'Angleterre [england-won]                                  battle-england-wins, crown-remainder-discarded, deserter-scotland-england-wins
//	6. La couronne, partage [crown]                                            crown-split-deserter, crown-remainder-discarded, crown-all-deserted, deserter-by-card
//	6. Généreuses récompenses [generous]                                       crown-generous
//	6. Cartes des récompenses [award-cards]                                    awards-window
//	7. Phase de fin [end-phase]                                                end-phase
//	Cartes cornemuse, symboles [card-symbols]                                  card-symbols, actions-turn, awards-window
//	Cartes cornemuse, leurs effets [card-effects]                              card-effects-before-reveal, card-effects-awards, card-symbols, stay-home-cards-pass-by
//	Cartes cornemuse, symbole milice [militia-card]                            militia-card
//	Cartes cornemuse, ordre (litige) [dispute-order]                           before-reveal-window, awards-window
//	Cartes cornemuse, x2 [x2]                                                  x2-second-play
//	Cartes dague [dagger-cards]                                                dagger-cards-secret, battle-england-wins
//	Fin de la partie [game-end]                                                game-seven-rounds, game-two-players-five-daggers, game-six-players-long, game-three-player-together, scotland-defeated
//	Victoire et défaite [victory]                                              game-seven-rounds, scotland-defeated, victory-tie
//	Victoire : égalité d'or, moins de dagues [gold-tie]                        game-seven-rounds, victory-tie
//	Règle des cinq dagues [five-daggers]                                       five-daggers-example-1, five-daggers-example-2, scotland-defeated-five-daggers, game-two-players-five-daggers
//	2 joueurs, mise en place [two-player-setup]                                two-player-setup, king-edward-two-player, long-game-two-players, precise-two-players
//	2 joueurs, invasion et actions [two-player-actions]                        two-player-setup, two-player-badge-no-return
//	2 joueurs, choix et dague offerte [two-player-choice]                      two-player-choice
//	2 joueurs, médaille d'honneur [two-player-badge]                           two-player-badge-transfer, two-player-badge-kept, two-player-badge-no-return
//	2 joueurs, révélation des dagues [two-player-reveal]                       two-player-badge-transfer
//	2 joueurs, cinq dagues [two-player-five-daggers]                           two-player-five-daggers, two-player-four-daggers
//	2 joueurs, cinq dagues après la 7e manche [two-player-end-five-daggers]    game-two-players-five-daggers
//	Restez chez vous ! (5-6 joueurs) [stay-home]                               stay-home-5p-option, stay-home-6p-required, stay-home-4p-refused, stay-home-6p
//	Restez chez vous !, une partie entière [stay-home-game]                    game-six-players-long
//	Restez chez vous !, armée anglaise [stay-home-army]                        stay-home-army-effect-at-reveal, stay-home-gold-at-reveal-kept, stay-home-cards-pass-by
//	Variante : parties à 3 joueurs [three-player]                              three-player-variant, three-player-deal, three-player-variant-needs-three, three-player-variant-fr, three-player-variant-with-long-game, king-edward-three-player, king-edward-none-usable
//	Variante : Ensemble pour l'Écosse [together]                               together-for-scotland
//	Variantes : 3 joueurs avec Ensemble pour l'Écosse [three-player-together]  game-three-player-together
//	Variante : Durée de la partie [long-game]                                  long-game, long-game-fourth-defeat, game-six-players-long
//	Variante : calculs précis [precise]                                        precise-daggers
//	Limites des composants [components]                                        bagpipe-reshuffle, empty-bagpipe-deck, virtual-dagger, dagger-reshuffle
//	Jeu de cartes (ruling 13, errors) [card-set]                               bad-card-file, bad-card-type-fr, bad-card-unknown-field, bad-card-unknown-field-it, before-reveal-side-condition-refused
//
// # Balance of the default set
//
// TestBalance plays the default set between greedy bots (bots_test.go:
// each weighs the crown against the beret, counting every dagger as lost
// gold, dearer as defeats pile up, and fears a Scotland that falls while
// it does not hold the fewest daggers) and, with -balance-report, between
// uniformly random bots. The aim between greedy bots: Scotland defeated in
// 25-50% of games and no seat winning more than 1.5 times its fair share.
// The default run checks every row below on 300 games (with three standard
// errors of margin); go test -run Balance -v -balance-report prints 1,000
// games a row:
//
//	players, options     Scotland defeated  first player wins  best seat
//	2                    36%                52% (fair 50%)     1.03×
//	3                    44%                30% (fair 33%)     1.18×
//	4                    31%                15% (fair 25%)     1.18×
//	5                    34%                 7% (fair 20%)     1.32×
//	6 (Stay Home!)       44%                 6% (fair 17%)     1.26×
//	3, three_player      39%                30% (fair 33%)     1.15×
//	5, stay_home         47%                15% (fair 20%)     1.22×
//	4, long_game         27%                12% (fair 25%)     1.31×
//
// One printed shield cannot fit every table: the more players choose a
// side, the more camps Scotland gathers. So the default army cards carry
// shield_by_choosers (ArmyCard.ShieldByChoosers), a design decision of
// this set, editable like the rest: the shield used when 2, 3 or 4
// players choose a side each round (Choosers: the fighting players, less
// the badge holder bound to Scotland). Irvine Capitulation and Bruce
// Join Us Again!, absent from the 2-player game, are the weakest with 2
// choosers, which brings the 3-player game down without touching the
// 2-player one. The first player wins less than its share at 4 or more
// players: it holds the badge, so supports Scotland, in round 1.
//
// # Bots
//
// Game.Bot (bot.go) is the move of a bot of a level (package bot) from a
// View and the seat's redacted history, never the state. The normal bot is
// the greedy player above (botgreedy.go); the strong bot searches worlds
// sampled from what the seat has seen (botworld.go: unseen hands, decks
// and choices dealt at random, the 2-player offer hands from what each
// seat has shown) with greedy playouts to the end of the round. The bots
// know the default card set only; with a custom set the normal and strong
// bots play as the easy one.
package bagpipes
