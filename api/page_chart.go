package api

import (
	"fmt"
	"strconv"
	"strings"
)

// scoreChart is an SVG line chart of the players' scores by round, drawn by
// the server (coordinates computed here, the template only writes them).
type scoreChart struct {
	Width, Height int
	// Grid holds the horizontal lines with their score labels.
	Grid []chartTick
	// XTicks holds the round labels.
	XTicks []chartTick
	Lines  []chartLine
	// Rounds and Table are the same figures as a table, for screen readers
	// and for anyone who prefers numbers, from the first round (the chart
	// starts at the scores before it; the table has no "round 0" column).
	Rounds []int
	Table  []chartRow
	Left   int
	Right  int
	Top    int
	Bottom int
}

// chartTick is one labelled position on an axis.
type chartTick struct {
	X, Y  int
	Label string
}

// chartLine is one player's series.
type chartLine struct {
	Name   string
	Color  string
	Points string // the polyline's "x,y x,y ..."
	Dots   []chartTick
	// LegendY places the legend entry.
	LegendY int
}

// chartRow is one player's scores by round.
type chartRow struct {
	Name   string
	Scores []chartScore
}

// chartScore is a player's score after a round (the table names the round
// beside each figure on a phone).
type chartScore struct {
	Round, Score int
}

// chartColors tell up to eight players apart (and stay readable on white).
var chartColors = [...]string{"#1f5fa8", "#b3261e", "#1e7b34", "#7b3fa0", "#a85a00", "#00707a", "#5f5f5f", "#a0306e"}

// drawChart lays out the chart of series (nil when there is nothing to draw).
func drawChart(series []roundScores, names []string, roundWord string) *scoreChart {
	if len(series) < 2 {
		return nil
	}
	n := len(series[0].Scores)
	top := 0
	for _, s := range series {
		for _, v := range s.Scores {
			top = max(top, v)
		}
	}
	step := niceStep(top)
	top = ((top + step - 1) / step) * step
	if top == 0 {
		top = step
	}
	ch := &scoreChart{Width: 640, Height: 300, Left: 44, Right: 500, Top: 16, Bottom: 260}
	xOf := func(i int) int { return ch.Left + i*(ch.Right-ch.Left)/(len(series)-1) }
	yOf := func(v int) int { return ch.Bottom - v*(ch.Bottom-ch.Top)/top }
	for v := 0; v <= top; v += step {
		ch.Grid = append(ch.Grid, chartTick{X: ch.Left, Y: yOf(v), Label: strconv.Itoa(v)})
	}
	for i, s := range series {
		lbl := strconv.Itoa(s.Round)
		if i == 0 {
			lbl = "0"
		}
		ch.XTicks = append(ch.XTicks, chartTick{X: xOf(i), Y: ch.Bottom + 18, Label: lbl})
		if i > 0 { // the table starts with the first round: the start is all zeros (issue #43)
			ch.Rounds = append(ch.Rounds, s.Round)
		}
	}
	ch.XTicks = append(ch.XTicks, chartTick{X: (ch.Left + ch.Right) / 2, Y: ch.Bottom + 36, Label: roundWord})
	for seat := range n {
		ln := chartLine{Name: seatName(names, seat), Color: chartColors[seat%len(chartColors)], LegendY: ch.Top + 8 + seat*22}
		row := chartRow{Name: ln.Name}
		var pts []string
		for i, s := range series {
			v := 0
			if seat < len(s.Scores) {
				v = s.Scores[seat]
			}
			if i > 0 {
				row.Scores = append(row.Scores, chartScore{Round: s.Round, Score: v})
			}
			x, y := xOf(i), yOf(v)
			pts = append(pts, fmt.Sprintf("%d,%d", x, y))
			ln.Dots = append(ln.Dots, chartTick{X: x, Y: y, Label: strconv.Itoa(v)})
		}
		ln.Points = strings.Join(pts, " ")
		ch.Lines = append(ch.Lines, ln)
		ch.Table = append(ch.Table, row)
	}
	return ch
}

// niceStep picks a grid step giving about five lines up to top.
func niceStep(top int) int {
	for _, s := range []int{1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000} {
		if top/s <= 6 {
			return s
		}
	}
	return max(1, top/5)
}
