package notify

import (
	"strconv"

	"pbem/engine"
)

// roundTable is an engine's round summary as an email shows it: a table
// (the HTML part) whose rows are also told as "Column: value" pairs (the
// text part), in the email's language.
type roundTable struct {
	Round   int
	Columns []string
	Rows    []roundRow
	Notes   []string
}

// roundRow is one seat's row: its player's name, its cells, and the cells
// paired with their columns.
type roundRow struct {
	Name  string
	Cells []string
	Pairs []string
}

// roundTable builds the table of s, naming seats after names.
func (l *language) roundTable(s *engine.RoundSummary, names []string) *roundTable {
	t := &roundTable{Round: s.Round, Columns: s.Columns, Notes: s.Notes}
	for _, r := range s.Rows {
		row := roundRow{Name: "#" + strconv.Itoa(r.Seat+1), Cells: r.Cells}
		if r.Seat >= 0 && r.Seat < len(names) && names[r.Seat] != "" {
			row.Name = names[r.Seat]
		}
		for i, c := range r.Cells {
			col := ""
			if i < len(s.Columns) {
				col = s.Columns[i]
			}
			row.Pairs = append(row.Pairs, l.p.T("round.cell", col, c))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
