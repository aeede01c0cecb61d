package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/report"
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
	// json keeps each record on one line, however wide: with
	// --log-format json every line must parse.
	json bool
	bar  string // the bar as last drawn, "" when none is shown
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
// On a terminal its lines are wrapped to the width at spaces, with a
// hanging indent, rather than left for the terminal to break anywhere.
func (t *term) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := p
	if t.tty && !t.json && t.width > 1 {
		lines := wrap(strings.TrimRight(string(p), "\n"), t.width-1, "    ")
		out = []byte(strings.Join(lines, "\n") + "\n")
	}
	if t.bar == "" {
		if _, err := t.w.Write(out); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	io.WriteString(t.w, clearLine)
	_, err := t.w.Write(out)
	io.WriteString(t.w, t.bar)
	if err != nil {
		return 0, err
	}
	return len(p), nil
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

// progress reports a config's cells done, the time spent and the time
// left: a bar redrawn every second when stderr is a terminal, otherwise
// (nightly jobs and array tasks write to files, where a bar would be
// noise; --quiet; --log-format json) a log line at most every interval.
// Between cells the clock keeps moving: the time left counts down from
// the estimate made when the last cell finished.
type progress struct {
	mu       sync.Mutex
	term     *term
	log      *slog.Logger
	name     string
	lines    bool // log lines instead of a bar
	interval time.Duration
	// start is when the first update came; lastCell when the count last
	// moved; lastLine when the last log line was written.
	start, lastCell, lastLine time.Time
	first                     int // cells already done (cached) at start
	done, total               int
	// work is the predicted work of the cells computed and still to
	// compute (runner.Options.Work), when hasWork.
	work    runner.Work
	hasWork bool
	started bool
	quit    chan struct{}
	once    sync.Once
}

// newProgress returns the progress of the config name. quiet asks for a
// log line a minute and no bar; json for log lines every 10 s even on a
// terminal.
func newProgress(t *term, log *slog.Logger, name string, quiet, json bool) *progress {
	p := &progress{term: t, log: log, name: name, lines: quiet || json || !t.tty, interval: 10 * time.Second, quit: make(chan struct{})}
	if quiet {
		p.interval = time.Minute
	}
	return p
}

// update is runner.Options.Progress: called with the count of cells done
// (cached ones included) whenever it moves.
func (p *progress) update(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if !p.started {
		p.started, p.start, p.lastCell, p.lastLine, p.first = true, now, now, now, done
		go p.tick()
	}
	if done != p.done {
		p.lastCell = now
	}
	p.done, p.total = done, total
	p.show(now, done == total)
}

// setWork is runner.Options.Work: the predicted costs of the cells
// computed and still to compute, called before each update.
func (p *progress) setWork(w runner.Work) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.work, p.hasWork = w, true
}

// tick redraws the bar, or checks whether a log line is due, every
// second until stop.
func (p *progress) tick() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-p.quit:
			return
		case now := <-t.C:
			p.mu.Lock()
			p.show(now, false)
			p.mu.Unlock()
		}
	}
}

// stop ends the redrawing, leaving the bar at its final state (the
// caller ends it: term.endBar).
func (p *progress) stop() {
	if p == nil {
		return
	}
	p.once.Do(func() {
		close(p.quit)
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.started && !p.lines && p.done == p.total {
			elapsed := time.Since(p.start).Round(time.Second).String()
			p.term.drawBar(bar(p.name, p.done, p.total, elapsed, "", p.term.width))
		}
	})
}

// eta estimates the time left at now. With the cells' recorded times
// (runner.Options.Work, Recorded: from the cache or a previous
// suite.json), the time left when the last cell finished was the work
// left spread over the workers, but never less than its longest cell,
// which one worker computes alone; it counts down from there. Otherwise,
// and once that runs out with cells still running, the estimate is from
// the cells' count (each cell the grid's share): when the last cell
// finished, the cells left times the mean wall time per cell computed so
// far, counting down, then half that figure as of now, which grows while
// they run: it keeps moving and is never 0 before the last cell is done.
func (p *progress) eta(now time.Time) string {
	left, computed := p.total-p.done, p.done-p.first
	if left <= 0 {
		return "0s"
	}
	if w := p.work; p.hasWork && w.Recorded && w.Workers > 0 {
		pred := time.Duration(max(w.Left/float64(w.Workers), w.Longest) * float64(time.Second))
		if eta := p.lastCell.Add(pred).Sub(now); eta > 0 {
			return eta.Round(time.Second).String()
		}
	}
	if computed <= 0 {
		return "?"
	}
	per := p.lastCell.Sub(p.start) / time.Duration(computed)
	eta := p.lastCell.Add(per * time.Duration(left)).Sub(now)
	if late := now.Sub(p.start) / time.Duration(computed) * time.Duration(left) / 2; eta < late {
		eta = late
	}
	return eta.Round(time.Second).String()
}

func (p *progress) show(now time.Time, final bool) {
	elapsed := now.Sub(p.start).Round(time.Second).String()
	eta := p.eta(now)
	if !p.lines {
		p.term.drawBar(bar(p.name, p.done, p.total, elapsed, eta, p.term.width))
		return
	}
	// --quiet's lines are for long runs only: a short one ends with its
	// summary line alone.
	if final && p.interval < time.Minute || now.Sub(p.lastLine) >= p.interval {
		p.lastLine = now
		p.log.Info("progress", "config", p.name, "done", p.done, "total", p.total, "elapsed", elapsed, "eta", eta)
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// forTerminal narrows t to the terminal w is, when that is narrower than
// report.TextWidth, so that no row wraps mid-cell there; a file or pipe
// keeps the full width.
func forTerminal(t *report.Table, w io.Writer) *report.Table {
	if isTerminal(w) {
		if n := terminalWidth(w); n < report.TextWidth {
			t.Width = n
		}
	}
	return t
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

// bar renders "NAME [====    ] done/total cells, elapsed, ETA eta" in
// at most width columns: the bar shrinks first, then the name is cut.
// Once every cell is done the report is being written; an empty eta then
// says the config is done.
func bar(name string, done, total int, elapsed, eta string, width int) string {
	tail := fmt.Sprintf(" %d/%d cells, %s, ETA %s", done, total, elapsed, eta)
	switch {
	case done == total && eta == "":
		tail = fmt.Sprintf(" %d/%d cells, %s, done", done, total, elapsed)
	case done == total:
		tail = fmt.Sprintf(" %d/%d cells, %s, writing the report", done, total, elapsed)
	}
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

// printSummary writes, in lines narrower than width (a line of exactly
// the width leaves some terminals' cursor on the next line), what a
// terminal user needs from a run: each claim's verdict in the paper's
// claim order (c1 before c10), its statement and the numbers that decided
// it (the point values, the interval), wrapped rather than cut, and the
// failed cells with their reasons. A verdict other than PASS that the
// config expects (a known non-reproduction) reads "FAIL (expected)"; "!"
// marks a verdict that is not the expected one. The full tables are in
// the result folder.
func printSummary(w io.Writer, s *runner.Summary, width int) {
	width--
	cs := append([]claims.Result(nil), s.Claims...)
	sort.SliceStable(cs, func(i, j int) bool { return paperClaimNumber(cs[i].Source) < paperClaimNumber(cs[j].Source) })
	for _, c := range cs {
		mark, status := " ", c.Status
		switch {
		case !c.AsExpected:
			mark = "!"
		case c.Status != claims.Pass:
			status += " (expected)"
		}
		// The statement's continuation lines keep the claim's indent
		// (four columns, under its verdict), so that a wrapped claim
		// reads as one item and the next claim's mark stands out.
		head := fmt.Sprintf("%s %s: %s", status, c.ID, strings.Join(strings.Fields(c.Statement), " "))
		for i, l := range strings.Split(report.Wrap(head, width-4), "\n") {
			lead := mark + " "
			if i > 0 {
				lead = "    "
			}
			fmt.Fprintln(w, lead+l)
		}
		if n := decidingNumbers(c); n != "" {
			for _, l := range strings.Split(report.Wrap(n, width-6), "\n") {
				fmt.Fprintln(w, "      "+l)
			}
		}
	}
	if s.Failed > 0 {
		fmt.Fprintln(w, fit(fmt.Sprintf("! %d failed cells; reasons in the table \"Failed and partial cells\"", s.Failed), width))
	}
	fmt.Fprintln(w, fit("  full tables: "+s.Dir+"/tables.txt", width))
}

// paperClaimNumber is the number of the paper claim a source cites
// (paper-values/<paper>.yaml#claims/c3: 3); a large number for none, so
// that checks beyond the paper's claims come last.
func paperClaimNumber(source string) int {
	_, frag, _ := strings.Cut(source, "#claims/c")
	n, err := strconv.Atoi(frag)
	if err != nil {
		return 1 << 30
	}
	return n
}

// decidingNumbers is what decided a verdict, in a line: the point values
// of its evidence (before the interval's restatement) and the interval.
func decidingNumbers(c claims.Result) string {
	ev, _, _ := strings.Cut(c.Evidence, " | ")
	ev = strings.TrimSpace(ev)
	if r := []rune(ev); len(r) > 300 {
		ev = string(r[:299]) + "…"
	}
	if c.CILo != nil && c.CIHi != nil {
		ev += fmt.Sprintf("; interval [%s, %s]", report.FormatFloat(*c.CILo, 4), report.FormatFloat(*c.CIHi, 4))
	}
	return ev
}
