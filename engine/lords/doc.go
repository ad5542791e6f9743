// Package lords is the rules engine of Lords of Scotland (Richard James,
// Evertide Games / Z-Man), for 2 to 5 players, implementing engine.Game.
package lords
