package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// completionPath returns a PATH whose runexp is this test binary acting
// as runexp (TestMain's RUNEXP_TEST_AS_MAIN).
func completionPath(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	script := "#!/bin/sh\nRUNEXP_TEST_AS_MAIN=1 exec " + shellQuote(os.Args[0]) + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "runexp"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin + string(os.PathListSeparator) + os.Getenv("PATH")
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// shellRun runs script in shell (bash, zsh, fish) at the repository's
// root with runexp on PATH.
func shellRun(t *testing.T, shell string, args []string, script string) string {
	t.Helper()
	cmd := exec.Command(shell, append(args, "-c", script)...)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "PATH="+completionPath(t), "RUNEXP_DATA=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", shell, err, out)
	}
	return string(out)
}

// TestCompletionBash: runexp completion bash, sourced in a real bash,
// registers runexp's completion (complete -p runexp) and completes, through
// the completion function with COMP_WORDS and COMP_CWORD as bash sets them,
// a command, a config name, a collection, a command's flags (from its own
// flag set), a flag's words, a paper name and a folder.
func TestCompletionBash(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	os.MkdirAll(filepath.Join(t.TempDir(), "x"), 0o755)
	script := `source <(runexp completion bash) || exit 1
complete -p runexp
try() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=(); _runexp; echo "[$*] ${COMPREPLY[*]}"; }
try runexp sta
try runexp status abrahamsen-hansen-fig
try runexp table
try runexp compare --mar
try runexp status --log-format ''
try runexp report zheng-lp
try runexp check-estimator mik
try runexp help com
try runexp list est
try runexp --out cmd/runex
try runexp completion ''
`
	out := shellRun(t, "bash", []string{"--norc", "--noprofile"}, script)
	for _, want := range []string{
		"complete -F _runexp runexp",
		"[runexp sta] status",
		"[runexp status abrahamsen-hansen-fig] abrahamsen-hansen-fig2 abrahamsen-hansen-fig3 abrahamsen-hansen-fig4",
		"[runexp table] table1 table2",
		"[runexp compare --mar] --markdown",
		"[runexp status --log-format ] text json",
		"[runexp report zheng-lp] zheng-lpkpca",
		"[runexp check-estimator mik] mika",
		"[runexp help com] compare completion",
		"[runexp list est] estimators",
		"[runexp --out cmd/runex] cmd/runexp",
		"[runexp completion ] bash zsh fish",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("bash completion: no %q in\n%s", want, out)
		}
	}
}

// TestCompletionZshFish: the zsh and fish scripts load in their shells
// and complete a config name (skipped where the shell is not installed).
func TestCompletionZshFish(t *testing.T) {
	if _, err := exec.LookPath("zsh"); err == nil {
		out := shellRun(t, "zsh", []string{"-f"}, `autoload -U compinit && compinit -u
source <(runexp completion zsh) || exit 1
print -r -- ${_comps[runexp]}
print -rl -- ${(f)"$(runexp __complete status abrahamsen-hansen-fig3)"}`)
		if !strings.Contains(out, "_runexp") || !strings.Contains(out, "abrahamsen-hansen-fig3") {
			t.Errorf("zsh:\n%s", out)
		}
	}
	if _, err := exec.LookPath("fish"); err == nil {
		out := shellRun(t, "fish", []string{"--no-config"}, `runexp completion fish | source
complete -C 'runexp status abrahamsen-hansen-fig3'
complete -C 'runexp compare --mark'`)
		if !strings.Contains(out, "abrahamsen-hansen-fig3") || !strings.Contains(out, "--markdown") {
			t.Errorf("fish:\n%s", out)
		}
	}
}

// TestCompletionFromCommands: every command's flags are what completion
// offers for it, read from the command's own flag set, and every
// command has its operands' kind and its README text.
func TestCompletionFromCommands(t *testing.T) {
	docs := commandDocs()
	for _, c := range commandTable {
		cmd := describe(c.name)
		if cmd == nil {
			t.Errorf("%s: its function declares no command", c.name)
			continue
		}
		_, got := complete([]string{c.name, "-"})
		cmd.flags.VisitAll(func(f *flag.Flag) {
			if !slices.Contains(got, dashes(f.Name)) {
				t.Errorf("%s: completion lacks %s (offers %v)", c.name, dashes(f.Name), got)
			}
		})
		if docs[c.name] == "" {
			t.Errorf("cmd/runexp/commands.md: no section for %s", c.name)
		}
	}
	for name := range docs {
		if !isCommand(name) {
			t.Errorf("cmd/runexp/commands.md: a section for %s, which is no command", name)
		}
	}
}

var updateREADME = flag.Bool("update", false, "rewrite the README's table of commands")

// TestREADMECommands: the README's table of commands is the one
// generated from commandTable and commands.md (go test -update rewrites
// it): the same commands, in the same order, with the same synopses.
func TestREADMECommands(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	const head = "| command | what it does |\n"
	i := strings.Index(readme, head)
	if i < 0 {
		t.Fatal("README.md has no table of commands")
	}
	end := strings.Index(readme[i:], "\n\n")
	if end < 0 {
		end = len(readme) - i
	}
	got, want := readme[i:i+end+1], readmeCommands()
	if got == want {
		return
	}
	if *updateREADME {
		if err := os.WriteFile("../../README.md", []byte(readme[:i]+want+readme[i+end+1:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's table of commands is not the generated one (go test ./cmd/runexp -run TestREADMECommands -update rewrites it):\n%s", want)
}
