package report

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomTable is a table of 1–4 key columns and 0–14 others, each column
// text (phrases of unique words of at most 7 letters, so that no column
// wrap down to minWrap = 8 has to break a word) or numeric (up to 16
// digits, never wrapped), some columns holding one value in every row.
// It returns the table and every word and number it holds.
func randomTable(rng *rand.Rand) (*Table, []string) {
	key := 1 + rng.IntN(4)
	cols := key + rng.IntN(15)
	rows := 1 + rng.IntN(5)
	t := &Table{Title: "random", Key: key}
	var tokens []string
	word := func() string {
		w := fmt.Sprintf("w%d", len(tokens))
		tokens = append(tokens, w)
		return w
	}
	kinds := make([]int, cols) // 0 text, 1 numeric, 2 constant text
	for j := range kinds {
		kinds[j] = rng.IntN(3)
		if j < key && kinds[j] == 1 {
			kinds[j] = 0
		}
		t.Header = append(t.Header, fmt.Sprintf("column %d", j))
	}
	constant := make([]string, cols)
	for j := range constant {
		if kinds[j] == 2 {
			constant[j] = word()
		}
	}
	for range rows {
		row := make([]string, cols)
		for j := range row {
			switch kinds[j] {
			case 0:
				n := 1 + rng.IntN(12)
				ws := make([]string, n)
				for k := range ws {
					ws[k] = word()
				}
				row[j] = strings.Join(ws, " ")
			case 1:
				d := fmt.Sprint(rng.Int64N(1e16))
				tokens = append(tokens, d)
				row[j] = d
			case 2:
				row[j] = constant[j]
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t, tokens
}

// TestRenderTextFitsProperty: for 300 seeded random tables (key columns
// too wide among them, which shrinkKey wraps), no line RenderText writes
// is wider than TextWidth, every word and number of the table is printed
// unbroken at least once, and a table drawn in one box needs no
// "(continued)".
func TestRenderTextFitsProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 3))
	for i := range 300 {
		tb, tokens := randomTable(rng)
		natural := tb.NaturalWidth()
		var b bytes.Buffer
		if err := tb.RenderText(&b); err != nil {
			t.Fatalf("table %d: %v", i, err)
		}
		out := b.String()
		for _, l := range strings.Split(out, "\n") {
			if Width(l) > TextWidth {
				t.Fatalf("table %d (key %d, %d columns): line of %d columns:\n%s", i, tb.Key, len(tb.Header), Width(l), out)
			}
		}
		for _, tok := range tokens {
			if !containsToken(out, tok) {
				t.Fatalf("table %d: %q not printed whole:\n%s", i, tok, out)
			}
		}
		if natural <= TextWidth && strings.Contains(out, "(continued)") {
			t.Errorf("table %d: natural width %d split:\n%s", i, natural, out)
		}
	}
}

// containsToken reports whether tok occurs in s between characters that
// cannot be part of a word or a number.
func containsToken(s, tok string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], tok)
		if k < 0 {
			return false
		}
		k += i
		end := k + len(tok)
		if (k == 0 || !isTokenByte(s[k-1])) && (end == len(s) || !isTokenByte(s[end])) {
			return true
		}
		i = k + 1
	}
}

func isTokenByte(c byte) bool {
	return c == 'w' || c >= '0' && c <= '9'
}

// TestShrinkKey: a table whose three key columns alone are wider than
// TextWidth wraps them (widest first) so that each part has room for a
// column beside them, and repeats them, wrapped the same, in every part.
func TestShrinkKey(t *testing.T) {
	long := func(p string) string {
		ws := make([]string, 14)
		for i := range ws {
			ws[i] = fmt.Sprintf("%s%d", p, i)
		}
		return strings.Join(ws, " ") // 14 words of 2–3 letters: 40 columns
	}
	tb := &Table{Key: 3, Header: []string{"a", "b", "c", "x", "y"}}
	tb.Rows = [][]string{
		{long("a"), long("b"), long("c"), "1.5", "2.5"},
		{long("d"), long("e"), long("f"), "3.5", "4.5"},
	}
	f := &fitter{width: TextWidth, al: []bool{false, false, false, true, true}}
	f.reset(tb.Header, tb.Rows)
	key := []int{0, 1, 2}
	if w := f.boxWidth(key); w <= TextWidth-minWrap-3 {
		t.Fatalf("fixture: key box %d leaves room; want it too wide", w)
	}
	f.shrinkKey(key, []int{3, 4})
	if w := f.boxWidth(key); w > TextWidth-minWrap-3 {
		t.Errorf("key box %d after shrinkKey, want ≤ %d", w, TextWidth-minWrap-3)
	}
	for j := range key {
		if w := f.colWidth(j); w < minWrap {
			t.Errorf("key column %d wrapped to %d, below minWrap", j, w)
		}
	}
	var b bytes.Buffer
	if err := tb.RenderText(&b); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(b.String(), "\n") {
		if Width(l) > TextWidth {
			t.Errorf("line of %d columns:\n%s", Width(l), b.String())
		}
	}
	for _, w := range []string{"a13", "f0", "1.5", "4.5"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("%s missing:\n%s", w, b.String())
		}
	}
}
