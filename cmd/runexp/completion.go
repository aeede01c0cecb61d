package main

import (
	_ "embed"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/paperreport"
)

// Shell completion. The scripts runexp completion prints are thin: each
// asks the runexp being completed (runexp __complete WORDS...) for the
// candidates of the word under the cursor, so that what it offers comes
// from commandTable and from each command's own flag set (the flags it
// parses, their value placeholders), and config, collection and paper
// names from the configs folder of the command line (--configs), as the
// command itself would read them.

// completeCommand is the hidden command the scripts call.
const completeCommand = "__complete"

// operands says what a command's operands are, for completion.
type operands int

const (
	noOperands        operands = iota
	configOperands             // config and collection names, .yaml files
	listOperands               // what runexp list lists
	folderOperands             // result folders
	estimatorOperands          // registered estimators
	paperOperands              // paper ids of the configs, and all
	commandOperands            // commands
	shellOperands              // bash, zsh, fish
)

// describing, when set, is handed each command by start, its flags
// declared, and start then ends the command: describe reads a command's
// flag set so, from the command's own code.
var describing func(*command)

var describeMu sync.Mutex

// describe returns the command name as its function declares it.
func describe(name string) *command {
	describeMu.Lock()
	defer describeMu.Unlock()
	var got *command
	describing = func(c *command) { got = c }
	defer func() { describing = nil }()
	if f, ok := commandFuncs[name]; ok {
		f(nil, io.Discard, io.Discard)
	}
	return got
}

// shells are the shells runexp completion writes a script for.
var shells = []string{"bash", "zsh", "fish"}

func cmdCompletion(args []string, stdout, stderr io.Writer) int {
	c := newCommand("completion", []string{"runexp completion bash|zsh|fish"},
		`Prints a completion script for the shell: commands, each command's flags,
config and collection names (of the configs folder, or --configs DIR on the
command line), paper names, estimators, list sections, and folders or files
where a flag takes one. The script asks runexp itself for the candidates
(runexp __complete), so they follow the binary and the checkout.

  bash:  source <(runexp completion bash)         (or save it in
         ~/.local/share/bash-completion/completions/runexp)
  zsh:   runexp completion zsh > "${fpath[1]}/_runexp"   (or source it)
  fish:  runexp completion fish > ~/.config/fish/completions/runexp.fish`)
	e, pos, code, done := c.begin(args, stdout, stderr)
	if done {
		return code
	}
	if len(pos) != 1 || !slices.Contains(shells, pos[0]) {
		return e.fail(exitUsage, "want one shell, %s; see runexp completion --help", strings.Join(shells, ", "))
	}
	fmt.Fprint(stdout, map[string]string{"bash": bashCompletion, "zsh": zshCompletion, "fish": fishCompletion}[pos[0]])
	return exitOK
}

// The scripts read runexp __complete's answer: a first line saying what
// else the shell should offer (files, dirs or nothing: "-"), then one
// candidate a line.

const bashCompletion = `# bash completion for runexp (runexp completion bash)
_runexp() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    local IFS=$'\n'
    local -a out
    out=($("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
    COMPREPLY=()
    case ${out[0]} in
        files) COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null ;;
        dirs) COMPREPLY=($(compgen -d -- "$cur")); compopt -o filenames 2>/dev/null ;;
    esac
    COMPREPLY+=("${out[@]:1}")
}
complete -F _runexp runexp
`

const zshCompletion = `#compdef runexp
# zsh completion for runexp (runexp completion zsh)
_runexp() {
    local -a out
    out=("${(@f)$(${words[1]} __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
    case $out[1] in
        files) _files ;;
        dirs) _files -/ ;;
    esac
    shift out
    (( ${#out} )) && compadd -Q -- "${out[@]}"
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _runexp "$@"
else
    compdef _runexp runexp
fi
`

const fishCompletion = `# fish completion for runexp (runexp completion fish)
function __runexp_complete
    set -l words (commandline -opc) (commandline -ct)
    set -l out (command $words[1] __complete $words[2..-1] 2>/dev/null)
    switch "$out[1]"
        case files
            __fish_complete_path (commandline -ct)
        case dirs
            __fish_complete_directories (commandline -ct)
    end
    printf '%s\n' $out[2..-1]
end
complete -c runexp -f -a '(__runexp_complete)'
`

// cmdComplete answers a completion script: args are the words after
// runexp, the last the one being completed ("" after a space).
func cmdComplete(args []string, stdout io.Writer) int {
	more, cands := complete(args)
	if more == "" {
		more = "-"
	}
	fmt.Fprintln(stdout, more)
	for _, c := range cands {
		fmt.Fprintln(stdout, c)
	}
	return exitOK
}

// complete returns the candidates for the last of words (the command
// line after runexp), those that start with it, and what else the shell
// should offer: "files", "dirs" or "".
func complete(words []string) (more string, cands []string) {
	if len(words) == 0 {
		words = []string{""}
	}
	cur, prev := words[len(words)-1], words[:len(words)-1]
	// bash splits --flag=value at '=': the value is completed alone.
	if len(prev) >= 2 && prev[len(prev)-1] == "=" {
		prev = append(slices.Clone(prev[:len(prev)-2]), prev[len(prev)-2]+"=")
	}
	name, rest := "run", prev
	explicit := false
	if len(prev) > 0 && isCommand(prev[0]) {
		name, rest, explicit = prev[0], prev[1:], true
	}
	c := describe(name)
	if c == nil {
		return "", nil
	}
	configs := flagValue(rest, "configs", "configs")
	filter := func(more string, all []string) (string, []string) {
		var out []string
		for _, a := range all {
			if strings.HasPrefix(a, cur) {
				out = append(out, a)
			}
		}
		return more, out
	}
	// A flag's value: after the flag, or after its '='.
	if f, ok := pendingFlag(c, rest); ok {
		return filter(flagValues(f, configs))
	}
	if l := lastOr(rest); strings.HasPrefix(l, "-") && strings.HasSuffix(l, "=") {
		if f := c.flags.Lookup(strings.TrimLeft(strings.TrimSuffix(l, "="), "-")); f != nil {
			return filter(flagValues(f, configs))
		}
	}
	if name, val, ok := strings.Cut(cur, "="); ok && strings.HasPrefix(cur, "-") {
		if f := c.flags.Lookup(strings.TrimLeft(name, "-")); f != nil {
			more, vs := flagValues(f, configs)
			var out []string
			for _, v := range vs {
				if strings.HasPrefix(v, val) {
					out = append(out, name+"="+v)
				}
			}
			return more, out
		}
	}
	if strings.HasPrefix(cur, "-") {
		return filter("", flagNamesOf(c))
	}
	var all []string
	if !explicit && len(prev) == 0 {
		// The first word: a command, or a config (runexp CONFIG is run).
		all = append(all, commands...)
	}
	more, ops := operandCandidates(name, configs)
	return filter(more, append(all, ops...))
}

// operandCandidates returns the operands command name takes, with the
// configs in the folder configs, and what else the shell should offer.
func operandCandidates(name, configs string) (more string, all []string) {
	switch operandsOf(name) {
	case configOperands:
		return "files", configNames(configs)
	case listOperands:
		return "", listWhat
	case folderOperands:
		return "dirs", nil
	case estimatorOperands:
		return "", methods.Names()
	case paperOperands:
		all = []string{"all"}
		if ps, err := paperreport.Papers(configs); err == nil {
			all = append(all, ps...)
		}
		return "", all
	case commandOperands:
		return "", commands
	case shellOperands:
		return "", shells
	}
	return "", nil
}

func lastOr(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}

// operandsOf is what the operands of command name are.
func operandsOf(name string) operands {
	for _, e := range commandTable {
		if e.name == name {
			return e.operands
		}
	}
	return noOperands
}

// pendingFlag returns the flag of c whose value the word being completed
// is: the last word before it is that flag, without '=', and takes a
// value.
func pendingFlag(c *command, words []string) (*flag.Flag, bool) {
	if len(words) == 0 {
		return nil, false
	}
	w := words[len(words)-1]
	if len(w) < 2 || w[0] != '-' || w == "--" || strings.Contains(w, "=") {
		return nil, false
	}
	f := c.flags.Lookup(strings.TrimLeft(w, "-"))
	if f == nil {
		return nil, false
	}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return nil, false
	}
	return f, true
}

// flagValue returns the value the words give flag name (the last one),
// or def.
func flagValue(words []string, name, def string) string {
	v := def
	for i, w := range words {
		switch {
		case w == "--"+name || w == "-"+name:
			if i+1 < len(words) {
				v = words[i+1]
			}
		case strings.HasPrefix(w, "--"+name+"=") || strings.HasPrefix(w, "-"+name+"="):
			_, v, _ = strings.Cut(w, "=")
		}
	}
	return v
}

// flagNamesOf lists c's flags as a command line writes them.
func flagNamesOf(c *command) []string {
	out := c.flagNames()
	sort.Strings(out)
	return out
}

// flagValues is what a flag's value may be: the words it takes, or
// files or folders, by its value's placeholder (its usage's back-quoted
// word).
func flagValues(f *flag.Flag, configs string) (string, []string) {
	switch f.Name {
	case "log-format":
		return "", []string{"text", "json"}
	case "with", "method":
		return "", methods.Names()
	case "only":
		return "", configNames(configs)
	}
	switch placeholder(f) {
	case "DIR", "ROOT", "RESULTS_ROOT":
		return "dirs", nil
	case "FILE", "CSV", "PATH":
		return "files", nil
	}
	return "", nil
}

// configNames lists the configs and collections of dir (or of the
// binary's checkout, as runexp reads a bare name), by bare name.
func configNames(dir string) []string {
	d, _ := configsDir(dir)
	files, _ := filepath.Glob(filepath.Join(d, "*.yaml"))
	var out []string
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
			out = append(out, strings.TrimSuffix(filepath.Base(f), ".yaml"))
		}
	}
	return out
}

// commandsDoc says, per command, what the README's table of commands says
// it does (commands.md).
//
//go:embed commands.md
var commandsDoc string

// commandDocs returns commands.md's text of each command, its lines
// joined.
func commandDocs() map[string]string {
	out := map[string]string{}
	var name string
	var text []string
	flush := func() {
		if name != "" {
			out[name] = strings.Join(text, " ")
		}
	}
	for _, l := range strings.Split(commandsDoc, "\n") {
		switch {
		case strings.HasPrefix(l, "## "):
			flush()
			name, text = strings.TrimPrefix(l, "## "), nil
		case name != "" && strings.TrimSpace(l) != "":
			text = append(text, strings.TrimSpace(l))
		}
	}
	flush()
	return out
}

// readmeCommands is the README's table of commands: a row per command of
// commandTable, in its order, its synopsis and its text of commands.md.
func readmeCommands() string {
	docs := commandDocs()
	var b strings.Builder
	b.WriteString("| command | what it does |\n|---|---|\n")
	for _, c := range commandTable {
		syn := strings.TrimSpace("runexp " + c.name + " " + strings.TrimPrefix(c.args, "[flags] "))
		if c.name == "run" {
			syn = "runexp [run] " + strings.TrimPrefix(c.args, "[flags] ")
		}
		fmt.Fprintf(&b, "| `%s` | %s |\n", strings.ReplaceAll(syn, "|", `\|`), docs[c.name])
	}
	return b.String()
}
