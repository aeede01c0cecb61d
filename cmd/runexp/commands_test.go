package main

import (
	"os"
	"strings"
	"testing"
)

// TestCommandsListedOnce (issue 47): the commands are listed once, in
// commandTable: runexp --help prints it, the package comment is its
// lines, and the README's table of commands has a row for each, so that
// a command (report was) cannot be missing from one of them.
func TestCommandsListedOnce(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	_, doc, ok := strings.Cut(string(src), "// Usage (runexp [flags] CONFIG... is runexp run):\n//\n")
	doc, _, ok2 := strings.Cut(doc, "\n//\n")
	want := strings.Join(commandLines("//\trunexp "), "\n")
	if !ok || !ok2 || doc != want {
		t.Errorf("main.go's package comment lists the commands otherwise than commandTable; want\n%s\ngot\n%s", want, doc)
	}
	code, help, _ := runCLI("--help")
	if code != exitOK || !strings.Contains(help, "Commands:\n"+strings.Join(commandLines("  "), "\n")+"\n") {
		t.Errorf("runexp --help does not print commandTable:\n%s", help)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range commandTable {
		if !strings.Contains(string(readme), "`runexp "+c.name) {
			t.Errorf("README.md: no row for runexp %s", c.name)
		}
		if code, out, stderr := runCLI(c.name, "--help"); code != exitOK || !strings.Contains(out, "Usage: ") {
			t.Errorf("runexp %s --help: exit %d\n%s%s", c.name, code, out, stderr)
		}
	}
}
