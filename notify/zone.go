package notify

import "strings"

// Time zones as players name them (issue #30): the play page's zone form
// and the "zone: Paris" line of a reply both read them with ResolveZone.

// ZoneChoices are the zones the form suggests (any IANA name is taken):
// the players' usual ones, Europe first.
var ZoneChoices = []string{
	"Europe/London", "Europe/Dublin", "Europe/Lisbon", "Europe/Paris", "Europe/Brussels", "Europe/Amsterdam",
	"Europe/Luxembourg", "Europe/Zurich", "Europe/Berlin", "Europe/Rome", "Europe/Madrid", "Europe/Vienna",
	"Europe/Prague", "Europe/Warsaw", "Europe/Copenhagen", "Europe/Stockholm", "Europe/Oslo", "Europe/Helsinki",
	"Europe/Athens", "Europe/Bucharest", "Europe/Istanbul", "Europe/Kyiv", "Europe/Monaco", "Europe/Malta",
	"Atlantic/Reykjavik", "Atlantic/Canary", "Africa/Casablanca", "Africa/Algiers", "Africa/Tunis", "Africa/Dakar",
	"Africa/Abidjan", "Africa/Lagos", "Africa/Cairo", "Africa/Johannesburg", "Africa/Nairobi", "Indian/Reunion",
	"America/St_Johns", "America/Halifax", "America/Montreal", "America/Toronto", "America/New_York",
	"America/Chicago", "America/Denver", "America/Phoenix", "America/Los_Angeles", "America/Vancouver",
	"America/Anchorage", "Pacific/Honolulu", "America/Mexico_City", "America/Bogota", "America/Lima",
	"America/Santiago", "America/Sao_Paulo", "America/Buenos_Aires", "America/Martinique", "America/Guadeloupe",
	"Asia/Dubai", "Asia/Jerusalem", "Asia/Kolkata", "Asia/Bangkok", "Asia/Singapore", "Asia/Hong_Kong",
	"Asia/Shanghai", "Asia/Seoul", "Asia/Tokyo", "Australia/Perth", "Australia/Adelaide", "Australia/Brisbane",
	"Australia/Sydney", "Australia/Melbourne", "Pacific/Auckland", "Pacific/Noumea", "Pacific/Tahiti", "UTC",
}

// zoneCities are the French and Italian names of the cities above that
// differ from the zones' English ones.
var zoneCities = map[string]string{
	"londres": "Europe/London", "londra": "Europe/London", "lisbonne": "Europe/Lisbon", "lisbona": "Europe/Lisbon",
	"bruxelles": "Europe/Brussels", "lussemburgo": "Europe/Luxembourg",
	"zurigo": "Europe/Zurich", "genève": "Europe/Zurich", "geneve": "Europe/Zurich", "ginevra": "Europe/Zurich",
	"berlino": "Europe/Berlin", "roma": "Europe/Rome", "milan": "Europe/Rome", "milano": "Europe/Rome",
	"vienne": "Europe/Vienna", "praga": "Europe/Prague", "varsovie": "Europe/Warsaw",
	"varsavia": "Europe/Warsaw", "copenhague": "Europe/Copenhagen", "copenaghen": "Europe/Copenhagen",
	"stoccolma": "Europe/Stockholm", "athènes": "Europe/Athens", "athenes": "Europe/Athens", "atene": "Europe/Athens",
	"bucarest": "Europe/Bucharest", "kiev": "Europe/Kyiv", "malte": "Europe/Malta",
	"le caire": "Africa/Cairo", "il cairo": "Africa/Cairo", "la réunion": "Indian/Reunion", "la reunion": "Indian/Reunion",
	"montréal": "America/Montreal", "québec": "America/Montreal", "quebec": "America/Montreal",
	"new york": "America/New_York", "nouvelle-orléans": "America/Chicago", "mexico": "America/Mexico_City",
	"città del messico": "America/Mexico_City", "são paulo": "America/Sao_Paulo", "san paolo": "America/Sao_Paulo",
	"singapour": "Asia/Singapore", "pékin": "Asia/Shanghai", "pechino": "Asia/Shanghai",
	"séoul": "Asia/Seoul", "tokio": "Asia/Tokyo", "jérusalem": "Asia/Jerusalem",
	"gerusalemme": "Asia/Jerusalem", "nouméa": "Pacific/Noumea", "parigi": "Europe/Paris",
	"edimbourg": "Europe/London", "édimbourg": "Europe/London", "edimburgo": "Europe/London", "edinburgh": "Europe/London",
	"glasgow": "Europe/London", "marseille": "Europe/Paris", "lyon": "Europe/Paris", "torino": "Europe/Rome",
	"turin": "Europe/Rome", "napoli": "Europe/Rome", "naples": "Europe/Rome", "firenze": "Europe/Rome",
	"florence": "Europe/Rome", "venezia": "Europe/Rome", "venise": "Europe/Rome",
}

// ResolveZone reads a player's answer (the play page's zone form, or a
// reply's zone line): an IANA zone name (any case), or
// a city, by its zone's last part ("Paris", "new york") or its French or
// Italian name ("Londres", "Roma"). ok is false for anything else.
func ResolveZone(s string) (zone string, ok bool) {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" || len(s) > 64 {
		return "", false
	}
	if _, err := CheckZone(s); err == nil {
		return s, true
	}
	low := strings.ToLower(s)
	if z, ok := zoneCities[low]; ok {
		return z, true
	}
	city := strings.ReplaceAll(low, " ", "_")
	for _, z := range ZoneChoices {
		lz := strings.ToLower(z)
		if lz == city || lz[strings.LastIndex(lz, "/")+1:] == city {
			return z, true
		}
	}
	return "", false
}
