package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"
)

// progress reports cells done: a redrawn bar when stderr is a terminal,
// otherwise a log line at most every interval (nightly jobs and array
// tasks write to files, where a bar would be noise).
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	log      *slog.Logger
	tty      bool
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

func newProgress(w io.Writer, log *slog.Logger, name string) *progress {
	return &progress{w: w, log: log, tty: isTerminal(w), name: name, interval: 10 * time.Second}
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
	if p.tty {
		const width = 30
		fill := 0
		if total > 0 {
			fill = width * done / total
		}
		fmt.Fprintf(p.w, "\r%s [%s%s] %d/%d cells, ETA %s ", p.name, strings.Repeat("=", fill), strings.Repeat(" ", width-fill), done, total, eta)
		if done == total {
			fmt.Fprintln(p.w)
		}
		return
	}
	if done == total || now.Sub(p.last) >= p.interval {
		p.last = now
		p.log.Info("progress", "config", p.name, "done", done, "total", total, "eta", eta)
	}
}
