package runner

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/safefs"
)

// ExternalCommand is a command line a config's own methods would run: an
// `external` estimator's command parameter (each value of a grid axis).
type ExternalCommand struct {
	// Method is the method's label, or its name when it has none.
	Method string
	// Line is the config line of the method (or of its command).
	Line int
	// Command is the command line as the config writes it.
	Command string
}

// ExternalCommands lists the commands c's own methods would run, in the
// order of the file; estimators added on the command line (--with) are
// not listed: whoever typed them chose to run them. A config that lists
// any is code, and runs only with Options.AllowExternal.
func ExternalCommands(c *config.Config) []ExternalCommand {
	var out []ExternalCommand
	for _, m := range c.Methods {
		if m.Name != "external" || m.Added {
			continue
		}
		label := m.Label
		if label == "" {
			label = m.Name
		}
		line := m.Line
		if l := m.Params.Line("command"); l > 0 {
			line = l
		}
		var cmds []string
		switch v := m.Params.Values["command"].(type) {
		case []any:
			for _, x := range v {
				cmds = append(cmds, fmt.Sprint(x))
			}
		case nil:
			cmds = []string{""}
		default:
			cmds = []string{fmt.Sprint(v)}
		}
		for _, cmd := range cmds {
			out = append(out, ExternalCommand{Method: label, Line: line, Command: cmd})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// ExternalNotAllowedError refuses a config whose methods run commands,
// on a run without --allow-external.
type ExternalNotAllowedError struct {
	File     string
	Commands []ExternalCommand
}

func (e *ExternalNotAllowedError) Error() string {
	var b strings.Builder
	c := e.Commands[0]
	fmt.Fprintf(&b, "%s:%d: method %s runs the command %q", e.File, c.Line, c.Method, c.Command)
	if n := len(e.Commands) - 1; n > 0 {
		fmt.Fprintf(&b, " (and %d more: runexp validate lists them)", n)
	}
	b.WriteString("; a config that names a command is code: run it only if you trust whoever wrote it, with --allow-external (docs/external-estimators.md, \"Trust\")")
	return b.String()
}

// CheckExternalFiles stats (never opens) the files c's external methods
// name as scripts (each command argument ending in .py, and the files of
// the script parameter) and refuses, FILE:LINE:, one that is not a regular file: a
// device or a named pipe would exhaust memory or block whoever reads it
// for the cache key. A file that does not exist is left to the run,
// which may create it first. validate runs this; it reads the scripts
// only with --allow-external.
func CheckExternalFiles(c *config.Config) error {
	for _, m := range c.Methods {
		if m.Name != "external" || m.Added {
			continue
		}
		var files []string
		for _, v := range paramStrings(m.Params.Values["command"]) {
			words, err := methods.SplitCommand(v)
			if err != nil {
				continue // the method's own validation reports it
			}
			for _, w := range words {
				if strings.HasSuffix(w, ".py") {
					files = append(files, w)
				}
			}
		}
		for _, v := range paramStrings(m.Params.Values["script"]) {
			words, err := methods.SplitCommand(v)
			if err != nil {
				continue // the method's own validation reports it
			}
			files = append(files, words...)
		}
		for _, f := range files {
			fi, err := os.Stat(f)
			if err != nil || fi.Mode().IsRegular() {
				continue
			}
			line := m.Line
			if l := m.Params.Line("script"); l > 0 && !strings.HasSuffix(f, ".py") {
				line = l
			} else if l := m.Params.Line("command"); l > 0 {
				line = l
			}
			return &config.Error{File: c.File, Line: line, Msg: fmt.Sprintf("method %s: %v; want the script's own file", m.Name, &safefs.NotRegularError{Path: f, Mode: fi.Mode()})}
		}
	}
	return nil
}

// paramStrings is a parameter's value, or each value of its grid axis,
// as strings.
func paramStrings(v any) []string {
	switch v := v.(type) {
	case nil:
		return nil
	case []any:
		out := make([]string, len(v))
		for i, x := range v {
			out[i] = fmt.Sprint(x)
		}
		return out
	}
	return []string{fmt.Sprint(v)}
}
