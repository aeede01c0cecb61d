package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/scoreboard"
)

// cmdScoreboard writes REPRODUCIBILITY.md (and optionally an HTML page)
// from a results root: every claim under its base config and under each
// documented reading (internal/scoreboard). Exit 0 when written, 2 on bad
// input; configs not run and claims not evaluated are content of the page,
// not a failure of the command.
func cmdScoreboard(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("scoreboard", flag.ContinueOnError)
	configs := fs.String("configs", "configs", "directory of the configs (*.yaml)")
	pv := fs.String("paper-values", "", "directory of the paper-values YAML files, for paper titles (default: ../shared/paper-values beside the configs' parent)")
	out := fs.String("out", "REPRODUCIBILITY.md", "Markdown file to write")
	htmlOut := fs.String("html", "", "HTML page to write (none when empty)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: runexp scoreboard [--configs DIR] [--paper-values DIR] [--out FILE.md] [--html FILE] RESULTS_ROOT\n\nFor each paper and claim: the verdict under the stated protocol and under each documented reading\n(configs with variant_of), with intervals and links to the evidence; totals per paper (docs/readings.md).\nRESULTS_ROOT is a folder of per-config results (runexp suite/run --out, or baseline/).")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "runexp scoreboard: want one RESULTS_ROOT")
		return exitUsage
	}
	root := fs.Arg(0)
	if *pv == "" {
		*pv = defaultPaperValues(*configs)
	}
	b, err := scoreboard.Load(*configs, root, *pv)
	if err != nil {
		fmt.Fprintln(stderr, "runexp scoreboard:", err)
		return exitUsage
	}
	cmd := []string{"runexp scoreboard"}
	if *configs != "configs" {
		cmd = append(cmd, "--configs "+filepath.ToSlash(*configs))
	}
	cmd = append(cmd, filepath.ToSlash(root))
	o := scoreboard.Options{Command: strings.Join(cmd, " "), ConfigsDir: *configs, LinkDir: filepath.Dir(*out)}
	if err := report.WriteFileAtomic(*out, b.Markdown(o)); err != nil {
		fmt.Fprintln(stderr, "runexp scoreboard:", err)
		return exitUsage
	}
	if *htmlOut != "" {
		o.LinkDir = filepath.Dir(*htmlOut)
		page, err := b.HTML(o)
		if err == nil {
			err = report.WriteFileAtomic(*htmlOut, page)
		}
		if err != nil {
			fmt.Fprintln(stderr, "runexp scoreboard:", err)
			return exitUsage
		}
	}
	fmt.Fprint(stdout, b.Text())
	return exitOK
}

// defaultPaperValues is where the paper-values YAML files sit for a
// configs directory of this repository: ../shared/paper-values beside it.
func defaultPaperValues(configs string) string {
	return filepath.Join(configs, "..", "..", "shared", "paper-values")
}

// writeScoreboard writes OUT/scoreboard.md and OUT/scoreboard.html from
// the results under out, for the suite's index page. A partial run lists
// the configs it did not run as not run; a failure is logged, not fatal:
// the records and their own pages are already written.
func writeScoreboard(configs, out string, log *slog.Logger) {
	b, err := scoreboard.Load(configs, out, defaultPaperValues(configs))
	if err == nil {
		o := scoreboard.Options{Command: "runexp suite (scoreboard of " + filepath.ToSlash(out) + ")", ConfigsDir: configs, LinkDir: out}
		err = report.WriteFileAtomic(filepath.Join(out, "scoreboard.md"), b.Markdown(o))
		if err == nil {
			var page []byte
			if page, err = b.HTML(o); err == nil {
				err = report.WriteFileAtomic(filepath.Join(out, "scoreboard.html"), page)
			}
		}
	}
	if err != nil {
		log.Warn("scoreboard not written", "err", err)
		return
	}
	log.Info("scoreboard", "file", filepath.Join(out, "scoreboard.html"))
}
