package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strings"

	"github.com/runexp/runexp/internal/suggest"
)

// command is one subcommand: its flags, the synopsis of its positional
// arguments and what it does, for --help. Its flags may come anywhere
// among the arguments, before or after the positional ones, as go and
// kubectl read theirs; "--" ends them.
type command struct {
	// name is the subcommand ("validate"); path is how --help and errors
	// name it ("runexp validate", or "runexp" for the default command).
	name, path string
	// synopsis holds the usage lines after "Usage: ", positional
	// arguments included.
	synopsis []string
	// doc is printed after the synopsis, footer after the flags.
	doc, footer string
	flags       *flag.FlagSet
	// aliases maps a short flag to the long one it stands for (q →
	// quiet); help prints them on one line.
	aliases map[string]string
}

func newCommand(name string, synopsis []string, doc string) *command {
	path := "runexp"
	if name != "" {
		path += " " + name
	}
	fs := flag.NewFlagSet(path, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &command{name: name, path: path, synopsis: synopsis, doc: doc, flags: fs, aliases: map[string]string{}}
}

// alias registers short as another name of the flag long.
func (c *command) alias(short, long string) {
	f := c.flags.Lookup(long)
	c.flags.Var(f.Value, short, "same as --"+long)
	c.aliases[short] = long
}

// errHelp is what parse returns for -h, -help or --help.
var errHelp = errors.New("help requested")

// parse sets the flags found anywhere among args and returns the other
// arguments in order. A flag is -name or --name, its value the next
// argument or after '=' (a boolean takes only the '=' form); "--" ends
// the flags and "-" alone is an argument. -h, -help and --help give
// errHelp; an unknown flag or a bad value an error that names the flag
// the way --help prints it.
func (c *command) parse(args []string) ([]string, error) {
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(pos, args[i+1:]...), nil
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		name := strings.TrimPrefix(a[1:], "-")
		if name == "" || name[0] == '-' || name[0] == '=' {
			return nil, fmt.Errorf("bad flag syntax %s", a)
		}
		name, val, hasVal := strings.Cut(name, "=")
		f := c.flags.Lookup(name)
		if f == nil {
			if name == "h" || name == "help" {
				return nil, errHelp
			}
			if close := c.closeFlags(name); len(close) > 0 {
				return nil, fmt.Errorf("unknown flag %s (did you mean %s?)", a, suggest.Or(close))
			}
			return nil, fmt.Errorf("unknown flag %s", a)
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			if !hasVal {
				val = "true"
			}
		} else if !hasVal {
			if i+1 == len(args) {
				return nil, fmt.Errorf("flag %s needs a value (%s)", dashes(name), placeholder(f))
			}
			i++
			val = args[i]
		}
		if err := c.flags.Set(name, val); err != nil {
			return nil, fmt.Errorf("%s %s: %v", dashes(name), val, err)
		}
	}
	return pos, nil
}

// dashes writes a flag the way help shows it: -j, --out.
func dashes(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// flagNames lists the flags as help shows them, for suggestions.
// flagAliases are the names other tools give some of runexp's flags
// (make's and xargs' --jobs), each mapped to runexp's.
var flagAliases = map[string]string{"jobs": "j", "workers": "j", "parallel": "j", "output": "out", "outdir": "out"}

// closeFlags returns the flags of c that name probably meant: the one that
// differs only in case (--ouT), the one other tools call name (--jobs for
// -j), else the closest by spelling.
func (c *command) closeFlags(name string) []string {
	var out []string
	c.flags.VisitAll(func(f *flag.Flag) {
		if strings.EqualFold(f.Name, name) {
			out = append(out, dashes(f.Name))
		}
	})
	if len(out) > 0 {
		return out
	}
	if alias, ok := flagAliases[strings.ToLower(name)]; ok && c.flags.Lookup(alias) != nil {
		return []string{dashes(alias)}
	}
	return suggest.Closest(dashes(name), c.flagNames(), 2)
}

func (c *command) flagNames() []string {
	var out []string
	c.flags.VisitAll(func(f *flag.Flag) { out = append(out, dashes(f.Name)) })
	return out
}

// placeholder is the name of a flag's value: the back-quoted word of its
// usage, or else what flag.UnquoteUsage derives from its type.
func placeholder(f *flag.Flag) string {
	name, _ := flag.UnquoteUsage(f)
	return name
}

// usage writes the command's help: the synopsis, what it does, its flags
// with double dashes, and the footer.
func (c *command) usage(w io.Writer) {
	for i, s := range c.synopsis {
		if i == 0 {
			fmt.Fprintf(w, "Usage: %s\n", s)
		} else {
			fmt.Fprintf(w, "       %s\n", s)
		}
	}
	if c.doc != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(c.doc, "\n"))
	}
	if fl := c.flagHelp(); fl != "" {
		fmt.Fprintf(w, "\nFlags:\n%s", fl)
	}
	if c.footer != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(c.footer, "\n"))
	}
}

// flagHelp lists the flags in name order, one per entry, descriptions
// wrapped to 80 columns.
func (c *command) flagHelp() string {
	short := map[string]string{} // long → short
	for s, l := range c.aliases {
		short[l] = s
	}
	var fs []*flag.Flag
	c.flags.VisitAll(func(f *flag.Flag) {
		if _, isAlias := c.aliases[f.Name]; !isAlias {
			fs = append(fs, f)
		}
	})
	sort.Slice(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
	var b strings.Builder
	const col = 22
	for _, f := range fs {
		name, text := flag.UnquoteUsage(f)
		left := "  " + dashes(f.Name)
		if s, ok := short[f.Name]; ok {
			left = "  " + dashes(s) + ", " + dashes(f.Name)
		}
		if name != "" {
			left += " " + name
		}
		if d := f.DefValue; d != "" && d != "0" && d != "false" && d != "[]" {
			text += " (default " + d + ")"
		}
		lines := wrap(text, 80-col, "")
		if len(left) >= col {
			fmt.Fprintf(&b, "%s\n", left)
		} else {
			fmt.Fprintf(&b, "%-*s%s\n", col, left, lines[0])
			lines = lines[1:]
		}
		for _, l := range lines {
			fmt.Fprintf(&b, "%s%s\n", strings.Repeat(" ", col), l)
		}
	}
	return b.String()
}

// wrap breaks text at spaces into lines of at most width runes (a word
// longer than that keeps a line of its own); every line but the first
// starts with indent. A newline in text starts a new line.
func wrap(text string, width int, indent string) []string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		line := ""
		if len(out) > 0 {
			line = indent
		}
		lead := len(line)
		for _, word := range strings.Split(para, " ") {
			if len(line) > lead && runeLen(line)+1+runeLen(word) > width {
				out = append(out, line)
				line, lead = indent, len(indent)
			}
			if len(line) > lead {
				line += " "
			}
			line += word
		}
		out = append(out, line)
	}
	return out
}

func runeLen(s string) int { return len([]rune(s)) }

// errOut prints what goes wrong on stderr: "runexp SUB: message" lines,
// or, with --log-format json, one JSON record a line (slog's JSON
// handler), so that a job that collects stderr as JSON can parse every
// line, fatal errors included: a fatal error is a level=ERROR record with
// the exit status.
type errOut struct {
	w      io.Writer
	prefix string
	json   *slog.Logger
}

func newErrOut(w io.Writer, prefix string, json bool) *errOut {
	e := &errOut{w: w, prefix: prefix}
	if json {
		e.json = slog.New(slog.NewJSONHandler(w, nil))
	}
	return e
}

// fail reports a fatal error and returns the exit status code.
func (e *errOut) fail(code int, format string, args ...any) int {
	e.report(slog.LevelError, fmt.Sprintf(format, args...), "exit_status", code)
	return code
}

// warn reports a problem that does not end the command.
func (e *errOut) warn(format string, args ...any) {
	e.report(slog.LevelWarn, fmt.Sprintf(format, args...))
}

// err reports an error that does not end the command (a config's report
// stage failed; the next config runs).
func (e *errOut) err(format string, args ...any) {
	e.report(slog.LevelError, fmt.Sprintf(format, args...))
}

// report writes msg as a "PREFIX: msg" line, or as a JSON record of the
// level with the attributes attrs.
func (e *errOut) report(level slog.Level, msg string, attrs ...any) {
	if e.json == nil {
		fmt.Fprintf(e.w, "%s: %s\n", e.prefix, msg)
		return
	}
	e.json.Log(context.Background(), level, msg, append([]any{"command", e.prefix}, attrs...)...)
}

// lines is an io.Writer that reports each line written as a warning,
// for library code that writes its notes to a writer (suite.AddWith).
func (e *errOut) lines() io.Writer { return lineWriter{e} }

type lineWriter struct{ e *errOut }

func (l lineWriter) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		line = strings.TrimPrefix(line, "runexp: ")
		if line != "" {
			l.e.warn("%s", line)
		}
	}
	return len(p), nil
}

// start parses args for c: on --help it writes the usage on stdout and
// returns status 0 and done; on a bad flag one line and where to read
// more on stderr (through e), status 2 and done.
func (c *command) start(args []string, stdout io.Writer, e *errOut) (pos []string, code int, done bool) {
	if describing != nil {
		describing(c)
		return nil, exitOK, true
	}
	pos, err := c.parse(args)
	switch {
	case errors.Is(err, errHelp):
		c.usage(stdout)
		return nil, exitOK, true
	case err != nil:
		return nil, e.fail(exitUsage, "%v; see %s --help", err, c.path), true
	}
	return pos, exitOK, false
}

// begin is start with the command's own error writer (plain text, its
// messages prefixed by c.path), which the command goes on using.
func (c *command) begin(args []string, stdout, stderr io.Writer) (e *errOut, pos []string, code int, done bool) {
	e = newErrOut(stderr, c.path, false)
	pos, code, done = c.start(args, stdout, e)
	return e, pos, code, done
}

// wantsJSON reports whether args set --log-format json (before "--"), so
// that even a flag error is written as JSON.
func wantsJSON(args []string) bool {
	for i, a := range args {
		switch {
		case a == "--":
			return false
		case a == "--log-format=json" || a == "-log-format=json":
			return true
		case (a == "--log-format" || a == "-log-format") && i+1 < len(args):
			return args[i+1] == "json"
		}
	}
	return false
}
