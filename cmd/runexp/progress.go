package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/runner"
)

// term is stderr as the log and the progress bar share it. On a terminal
// a log line first clears the bar, then the bar is redrawn below it, so
// the two never run together on one line; elsewhere it passes writes
// through.
type term struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	width int
	bar   string // the bar as last drawn, "" when none is shown
}

func newTerm(w io.Writer) *term {
	t := &term{w: w, tty: isTerminal(w)}
	if t.tty {
		t.width = terminalWidth(w)
	}
	return t
}

// clearLine returns the cursor to the start of the line and erases it.
const clearLine = "\r\x1b[K"

// Write writes one log record (slog handlers write a record in one call).
func (t *term) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.bar == "" {
		return t.w.Write(p)
	}
	io.WriteString(t.w, clearLine)
	n, err := t.w.Write(p)
	io.WriteString(t.w, t.bar)
	return n, err
}

// drawBar replaces the bar, cut to the terminal's width.
func (t *term) drawBar(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.bar = fit(s, t.width-1)
	io.WriteString(t.w, clearLine+t.bar)
}

// endBar leaves the last bar on its own line.
func (t *term) endBar() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.bar != "" {
		io.WriteString(t.w, "\n")
		t.bar = ""
	}
}

// progress reports cells done: a redrawn bar when stderr is a terminal,
// otherwise a log line at most every interval (nightly jobs and array
// tasks write to files, where a bar would be noise).
type progress struct {
	mu       sync.Mutex
	term     *term
	log      *slog.Logger
	name     string
	start    time.Time
	last     time.Time
	interval time.Duration
	first    int // cells already done (cached) when the clock started
	started  bool
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// terminalWidth is COLUMNS when set, else the terminal's own width, else
// 80.
func terminalWidth(w io.Writer) int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if f, ok := w.(*os.File); ok {
		if n := ttyWidth(f); n > 0 {
			return n
		}
	}
	return 80
}

func newProgress(t *term, log *slog.Logger, name string) *progress {
	return &progress{term: t, log: log, name: name, interval: 10 * time.Second}
}

func (p *progress) update(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if !p.started {
		p.started, p.start, p.last, p.first = true, now, now, done
	}
	eta := "?"
	if computed := done - p.first; computed > 0 && done < total {
		per := now.Sub(p.start) / time.Duration(computed)
		eta = (per * time.Duration(total-done)).Round(time.Second).String()
	} else if done == total {
		eta = "0s"
	}
	if p.term.tty {
		p.term.drawBar(bar(p.name, done, total, eta, p.term.width))
		return
	}
	if done == total || now.Sub(p.last) >= p.interval {
		p.last = now
		p.log.Info("progress", "config", p.name, "done", done, "total", total, "eta", eta)
	}
}

// bar renders "NAME [====    ] done/total cells, ETA eta" in at most
// width columns: the bar shrinks first, then the name is cut.
func bar(name string, done, total int, eta string, width int) string {
	tail := fmt.Sprintf(" %d/%d cells, ETA %s", done, total, eta)
	size := min(30, width-1-utf8.RuneCountInString(tail)-utf8.RuneCountInString(name)-3)
	if size < 5 {
		size = 5
	}
	fill := 0
	if total > 0 {
		fill = size * done / total
	}
	return fmt.Sprintf("%s [%s%s]%s", name, strings.Repeat("=", fill), strings.Repeat(" ", size-fill), tail)
}

// fit cuts s to at most width runes, marking a cut with "…".
func fit(s string, width int) string {
	if width <= 0 || utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	if width == 1 {
		return "…"
	}
	return string(r[:width-1]) + "…"
}

// printSummary writes, in lines of at most width runes, what a terminal
// user needs from a run: each claim's verdict and the failed cells with
// their reasons. A verdict other than PASS that the config expects (a
// known non-reproduction) reads "FAIL (expected)"; "!" marks a verdict
// that is not the expected one. The full tables are in the result folder.
func printSummary(w io.Writer, s *runner.Summary, width int) {
	for _, c := range s.Claims {
		mark, status := " ", c.Status
		switch {
		case !c.AsExpected:
			mark = "!"
		case c.Status != claims.Pass:
			status += " (expected)"
		}
		fmt.Fprintln(w, fit(fmt.Sprintf("%s %-23s %s: %s", mark, status, c.ID, c.Statement), width))
	}
	if s.Failed > 0 {
		fmt.Fprintln(w, fit(fmt.Sprintf("! %d failed cells; reasons in the table \"Failed and partial cells\"", s.Failed), width))
	}
	fmt.Fprintln(w, fit("  full tables: "+s.Dir+"/tables.txt", width))
}
